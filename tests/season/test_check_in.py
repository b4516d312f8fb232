"""Tonight's check-in: every way a secretary can fill it in ends in an evening or a message."""

from __future__ import annotations

import datetime
import re

import pytest
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format

from tests.season.conftest import NAMES
from tournament.clubs.services import club_sole
from tournament.errors import Refused
from tournament.models import Competition, Member, Tournament
from tournament.season.check_in import (
    GUEST,
    MEMBER,
    NEW_GUEST,
    NEW_MEMBER,
    CheckInRefusal,
    evening_date_check,
)
from tournament.season.services import CompetitionSettings, competition_create

pytestmark = pytest.mark.django_db

TODAY = timezone.localdate().isoformat()  # an evening's date at check-in: required, near today


@pytest.fixture
def fresh(director):
    """A competition without evenings, as a club starts its season."""
    return competition_create(club=club_sole(), settings=CompetitionSettings(name="Najaar"))


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def kinds(*names: str, kind: str = GUEST) -> dict[str, str]:
    """The answers to "member or guest?" for new names near nobody in the register."""
    answers = {}
    for n, name in enumerate(names, start=1):
        answers |= {f"kind-{n}-name": name, f"kind-{n}": kind}
    return answers


def test_the_first_check_in_of_a_new_competition_uses_the_tournament_defaults(
    director_client, fresh
):
    for name in ("Anna Aalbers", "Bert Bos", "Cor Claassen"):
        Member.objects.create(register=club_sole(), name=name)
    response = director_client.post(
        reverse("check_in", args=[fresh.slug]),
        {
            "name": "Avond 1",
            "date": TODAY,
            "members": list(Member.objects.values_list("pk", flat=True)),
        },
    )
    assert response.status_code == 302
    tournament = Tournament.objects.get(name="Avond 1")
    default = Tournament()
    assert tournament.table_sizes == default.table_sizes
    assert tournament.tiebreaks == default.tiebreaks
    assert tournament.players.count() == 3
    assert fresh.evenings.get().number == 1


def test_a_first_check_in_with_an_empty_register_takes_the_new_names(director_client, fresh):
    url = reverse("check_in", args=[fresh.slug])
    typed = {
        "name": "Avond 1",
        "date": TODAY,
        "new_people": "Anna Aalbers\nBert Bos, De Troef\nCor Claassen\n",
    }
    asked = director_client.post(url, typed)
    assert [(k.name, k.club) for k in asked.context["kinds"]] == [
        ("Anna Aalbers", ""),
        ("Bert Bos", "De Troef"),
        ("Cor Claassen", ""),
    ]
    assert not Member.objects.exists()
    names = ("Anna Aalbers", "Bert Bos", "Cor Claassen")
    response = director_client.post(url, {**typed, **kinds(*names, kind=MEMBER)})
    assert response.status_code == 302
    assert Member.objects.filter(guest=False).count() == 3
    assert Tournament.objects.get(name="Avond 1").players.count() == 3


def test_a_check_in_with_too_few_people_says_so_on_the_page(director_client, fresh):
    response = director_client.post(
        reverse("check_in", args=[fresh.slug]),
        {"name": "Avond 1", "date": TODAY, "new_people": "Anna\n", **kinds("Anna")},
    )
    assert response.status_code == 200
    assert "Vink minstens drie spelers aan." in messages_of(response)
    assert not Tournament.objects.exists()
    assert not Member.objects.exists()


def test_a_new_name_already_in_the_register_is_a_message_naming_it(director_client, fresh):
    anna = Member.objects.create(register=club_sole(), name="Anna Aalbers", club="De Troef")
    url = reverse("check_in", args=[fresh.slug])
    typed = {
        "name": "Avond 1",
        "date": TODAY,
        "new_people": "anna aalbers, de troef\nBert Bos\nCor Claassen\n",
    }
    asked = director_client.post(url, typed)
    assert [q.members for q in asked.context["questions"]] == [[anna]]
    response = director_client.post(
        url,
        {
            **typed,
            "near-1-name": "anna aalbers",
            "near-1": NEW_MEMBER,
            **kinds("Bert Bos", "Cor Claassen"),
        },
    )
    assert response.status_code == 200
    (message,) = messages_of(response)
    assert "anna aalbers" in message.casefold()
    assert "Het ledenbestand heeft deze naam en club al." in message
    assert Member.objects.count() == 1
    assert not Tournament.objects.exists()


def test_two_people_of_one_name_tonight_are_named_not_a_line_number(director_client, fresh):
    one = Member.objects.create(register=club_sole(), name="Jan Smit", club="De Troef")
    two = Member.objects.create(register=club_sole(), name="Jan Smit", club="Harten")
    three = Member.objects.create(register=club_sole(), name="Cor Claassen")
    response = director_client.post(
        reverse("check_in", args=[fresh.slug]),
        {"name": "Avond 1", "date": TODAY, "members": [one.pk, two.pk, three.pk]},
    )
    assert response.status_code == 200
    (message,) = messages_of(response)
    assert message.startswith("Jan Smit: Vanavond zijn er twee leden met deze naam")
    assert not Tournament.objects.exists()


def test_a_bad_date_is_a_message_at_the_date(director_client, fresh):
    response = director_client.post(
        reverse("check_in", args=[fresh.slug]),
        {"name": "Avond 1", "date": "2026-02-30", "new_people": "A a\nB b\nC c\n"},
    )
    assert response.status_code == 200
    assert response.context["form"].errors["date"]
    assert not Tournament.objects.exists()


def test_an_evening_name_that_is_taken_gets_its_own_address(director_client, fresh):
    Member.objects.bulk_create(
        [Member(register=club_sole(), name=n) for n in ("Anna A", "Bert B", "Cor C")]
    )
    ids = list(Member.objects.values_list("pk", flat=True))
    url = reverse("check_in", args=[fresh.slug])
    director_client.post(url, {"name": "Avond", "date": TODAY, "members": ids})
    second = Competition.objects.get(pk=fresh.pk)
    response = director_client.post(
        reverse("check_in", args=[second.slug]),
        {"name": "Avond", "date": TODAY, "members": ids},
    )
    assert response.status_code == 302
    slugs = set(Tournament.objects.values_list("slug", flat=True))
    assert len(slugs) == 2


@pytest.fixture
def register(fresh):
    return {
        name: Member.objects.create(register=club_sole(), name=name, club=club)
        for name, club in [("J. de Vries", "De Troef"), ("Sjaak Brouwer", ""), ("Cor Bos", "")]
    }


@pytest.mark.parametrize(
    ("typed", "member"), [("Jan de Vries", "J. de Vries"), ("Sjaak Brouwers", "Sjaak Brouwer")]
)
def test_a_new_name_near_a_member_is_asked_about_before_anyone_is_created(
    director_client, fresh, register, typed, member
):
    url = reverse("check_in", args=[fresh.slug])
    page = director_client.post(
        url, {"name": "Avond 1", "date": TODAY, "new_people": f"{typed}\nAnna\nBert\n"}
    )
    assert page.status_code == 200
    text = page.content.decode()
    assert f"“{typed}”: bedoel je {register[member]} (lid)?" in text
    assert "ja, die" in text and "nee, een nieuw lid" in text
    assert not Tournament.objects.exists()
    assert Member.objects.count() == 3


def test_yes_that_one_plays_the_member_and_no_makes_a_new_one(director_client, fresh, register):
    url = reverse("check_in", args=[fresh.slug])
    vries, brouwer = register["J. de Vries"], register["Sjaak Brouwer"]
    typed = {
        "name": "Avond 1",
        "date": TODAY,
        "new_people": "Jan de Vries\nSjaak Brouwers\nAnna Aalbers\n",
    }
    answers = {
        "near-1-name": "Jan de Vries",
        "near-1": str(vries.pk),
        "near-2-name": "Sjaak Brouwers",
        "near-2": NEW_MEMBER,
        **kinds("Anna Aalbers"),
    }
    response = director_client.post(url, {**typed, **answers})
    assert response.status_code == 302
    tournament = Tournament.objects.get()
    assert tournament.players.get(member=vries).name == "J. de Vries"
    assert Member.objects.filter(name="Sjaak Brouwers").exists()
    assert not tournament.players.filter(member=brouwer).exists()
    assert tournament.players.count() == 3


def test_no_a_new_guest_makes_a_guest_and_the_member_is_asked_as_a_guest(
    director_client, fresh, register
):
    url = reverse("check_in", args=[fresh.slug])
    register["Cor Bos"].guest = True
    register["Cor Bos"].save()
    typed = {
        "name": "Avond 1",
        "date": TODAY,
        "new_people": "Sjaak Brouwers\nCor Bos\nAnna Aalbers\n",
    }
    asked = director_client.post(url, typed)
    text = asked.content.decode()
    assert "“Cor Bos”: bedoel je Cor Bos (gast)?" in text
    assert "nee, een nieuwe gast" in text
    answers = {
        "near-1-name": "Sjaak Brouwers",
        "near-1": NEW_GUEST,
        "near-2-name": "Cor Bos",
        "near-2": str(register["Cor Bos"].pk),
        **kinds("Anna Aalbers", kind=MEMBER),
    }
    assert director_client.post(url, {**typed, **answers}).status_code == 302
    assert Member.objects.get(name="Sjaak Brouwers").guest
    assert not Member.objects.get(name="Anna Aalbers").guest
    assert Tournament.objects.get().players.filter(member=register["Cor Bos"]).exists()


def test_a_half_answered_check_in_keeps_the_answers_given(director_client, fresh, register):
    url = reverse("check_in", args=[fresh.slug])
    vries = register["J. de Vries"]
    typed = {
        "name": "Avond 1",
        "date": TODAY,
        "new_people": "Jan de Vries\nSjaak Brouwers\nAnna Aalbers\n",
    }
    page = director_client.post(url, {**typed, "near-1-name": "Jan de Vries", "near-1": vries.pk})
    assert [q.answer for q in page.context["questions"]] == [str(vries.pk), ""]
    assert not Tournament.objects.exists()


def test_short_surnames_one_letter_apart_are_not_asked_about(director_client, fresh, register):
    url = reverse("check_in", args=[fresh.slug])
    typed = {
        "name": "Avond 1",
        "date": TODAY,
        "new_people": "Cor Bol\nAnna Aalbers\nBert Berends\n",
    }
    asked = director_client.post(url, typed)
    assert not asked.context["questions"]
    assert [k.name for k in asked.context["kinds"]] == ["Cor Bol", "Anna Aalbers", "Bert Berends"]
    response = director_client.post(
        url, {**typed, **kinds("Cor Bol", "Anna Aalbers", "Bert Berends")}
    )
    assert response.status_code == 302


def test_a_refused_merge_says_which_evening_and_how_to_fix_it(director_client, fresh, register):
    """Checked in twice: ticked as "J. de Vries" and typed as a new "Jan de Vries"."""
    vries = register["J. de Vries"]
    url = reverse("check_in", args=[fresh.slug])
    director_client.post(
        url,
        {
            "name": "Avond 1",
            "date": TODAY,
            "members": [vries.pk],
            "new_people": "Jan de Vries\nAnna Aalbers\nBert Berends\n",
            "near-1-name": "Jan de Vries",
            "near-1": NEW_MEMBER,
            **kinds("Anna Aalbers", "Bert Berends"),
        },
    )
    jan = Member.objects.get(name="Jan de Vries")
    merge = reverse("member_merge", args=[vries.pk])
    refused = director_client.post(merge, {"other": jan.pk})
    text = refused.content.decode()
    assert (
        f"avond 1 van Najaar (Avond 1, {date_format(timezone.localdate(), 'SHORT_DATE_FORMAT')})"
        in text
    )
    assert "verwijder degene die nooit is ingedeeld" in text
    assert Member.objects.filter(pk=jan.pk).exists()
    duplicate = Tournament.objects.get().players.get(member=jan)
    removed = director_client.post(
        reverse("member_merge_remove", args=[vries.pk]),
        {"other": jan.pk, "player": duplicate.pk},
    )
    assert removed.status_code == 302
    director_client.post(merge, {"other": jan.pk})
    assert not Member.objects.filter(pk=jan.pk).exists()
    assert Tournament.objects.get().players.filter(member=vries).count() == 1


def test_the_check_in_lists_members_by_surname_as_the_register_does(director_client, fresh):
    for name in ("Piet van der Zee", "Anna Mulder", "Jan de Boer", "Kees Aalbers"):
        Member.objects.create(register=club_sole(), name=name)
    page = director_client.get(reverse("check_in", args=[fresh.slug]))
    listed = [label for _pk, label in page.context["form"].fields["members"].choices]
    assert listed == ["Kees Aalbers", "Jan de Boer", "Anna Mulder", "Piet van der Zee"]
    register = director_client.get(reverse("member_list"))
    assert [m.name for m in register.context["members"]] == listed


@pytest.mark.parametrize(
    ("name", "season", "title"),
    [
        ("Clubcompetitie 2026-2027", "2026-2027", "Clubcompetitie 2026-2027"),
        ("Clubcompetitie", "2026-2027", "Clubcompetitie 2026-2027"),
        ("Najaar", "", "Najaar"),
    ],
)
def test_the_season_is_in_the_title_once(director_client, name, season, title):
    director_client.post(
        reverse("competition_list"), {"name": name, "season": season, "min_evenings": 0}
    )
    competition = Competition.objects.get()
    assert str(competition) == title
    page = director_client.get(reverse("competition_detail", args=[competition.slug]))
    assert f"<h1>{title}</h1>" in page.content.decode()
    assert competition.slug == title.lower().replace(" ", "-")


def test_the_settings_choose_the_ranking_in_a_radio_group(director_client, fresh):
    url = reverse("competition_edit", args=[fresh.slug])
    text = director_client.get(url).content.decode()
    assert '<fieldset class="field radio-group" id="ranking-choice"' in text
    assert "<legend>Klassement</legend>" in text
    assert "Gemiddelde per avond: ieders punten gedeeld door" in text
    assert 'value="best" id="id_ranking_0" checked' in text.replace("\n", "")
    settings = {"name": "Najaar", "min_evenings": 2, "ranking": Competition.Ranking.AVERAGE}
    assert director_client.post(url, settings).status_code == 302
    saved = Competition.objects.get(pk=fresh.pk)
    assert (saved.ranking, saved.min_evenings) == (Competition.Ranking.AVERAGE, 2)
    again = director_client.post(url, {**settings, "ranking": "median"})
    assert again.status_code == 200 and again.context["form"].errors["ranking"]


def test_the_check_in_date_starts_at_today(director_client, fresh):
    page = director_client.get(reverse("check_in", args=[fresh.slug]))
    today = datetime.date.today().isoformat()
    assert f'value="{today}"' in page.content.decode()


def test_all_from_last_evening_keeps_what_was_typed(director_client, season):
    """Without JavaScript the button posts the form: the page comes back with the name, date,
    new names and ticks typed, last evening's members ticked as well, and nothing created."""
    lid_a = Member.objects.get(name="Lid A")
    url = reverse("check_in", args=[season.slug])
    before = Tournament.objects.count()
    response = director_client.post(
        url,
        {
            "name": "Avond van de wijn",
            "date": "2026-12-04",
            "members": [lid_a.pk],
            "new_people": "Zus Zonneveld, BC",
            "tick_last": "1",
        },
    )
    assert response.status_code == 200
    assert Tournament.objects.count() == before
    form = response.context["form"]
    assert not form.is_bound
    text = response.content.decode()
    assert 'value="Avond van de wijn"' in text
    assert 'value="2026-12-04"' in text
    assert "Zus Zonneveld, BC" in text
    last = set(Member.objects.filter(name__in=NAMES[1:9]).values_list("pk", flat=True))
    assert set(form.initial["members"]) == last | {lid_a.pk}
    ticked = {
        int(m)
        for m in re.findall(
            r'<input type="checkbox" name="members" value="(\d+)"[^>]*checked', text
        )
    }
    assert ticked == last | {lid_a.pk}
    assert "Dit veld is verplicht" not in text


@pytest.mark.parametrize(
    ("date", "message"),
    [
        ("9999-12-31", "De datum van de avond moet binnen een jaar van vandaag liggen: van "),
        ("", "Geef de datum van de avond."),
    ],
)
def test_an_empty_or_far_date_is_refused_at_the_date_and_at_the_top(
    director_client, fresh, date, message
):
    ids = [Member.objects.create(register=club_sole(), name=n).pk for n in ("A a", "B b", "C c")]
    response = director_client.post(
        reverse("check_in", args=[fresh.slug]), {"name": "Avond 1", "date": date, "members": ids}
    )
    assert response.status_code == 200
    (error,) = response.context["form"].errors["date"]
    assert error.startswith(message)
    text = response.content.decode()
    assert '<div class="error-summary" id="error-summary"' in text
    assert f'<a href="#id_date">Datum</a>: {error}' in text
    assert not Tournament.objects.exists()


def test_the_evening_date_lies_within_a_year_of_today_either_way():
    today = datetime.date(2028, 2, 29)
    assert evening_date_check(datetime.date(2027, 2, 28), today=today)
    assert evening_date_check(datetime.date(2029, 2, 28), today=today)
    for far in (datetime.date(2027, 2, 27), datetime.date(2029, 3, 1)):
        with pytest.raises(Refused) as refused:
            evening_date_check(far, today=today)
        assert str(refused.value) == (
            "Datum: De datum van de avond moet binnen een jaar van vandaag liggen: "
            "van 28 feb 2027 tot en met 28 feb 2029."
        )
    with pytest.raises(Refused) as refused:
        evening_date_check(None, today=today)
    assert refused.value.code == CheckInRefusal.DATE_MISSING


def test_an_unanswered_question_is_a_message_at_it_and_at_the_top(director_client, fresh, register):
    register["Cor Bos"].guest = True
    register["Cor Bos"].save()
    url = reverse("check_in", args=[fresh.slug])
    typed = {"name": "Avond 1", "date": TODAY, "new_people": "Jan de Vries\nCor Bos\nAnna\n"}
    asked = director_client.post(url, typed).content.decode()
    assert "Staan ze al in het ledenbestand?" in asked
    assert "lijken op namen in het ledenbestand" in asked and "namen van leden" not in asked
    assert "error-summary" not in asked and "Nog niet beantwoord" not in asked
    shown = {"near-1-name": "Jan de Vries", "near-2-name": "Cor Bos", **kinds("Anna")}
    again = director_client.post(url, {**typed, **shown, "near-1": NEW_MEMBER})
    text = again.content.decode()
    assert [q.name for q in again.context["unanswered"]] == ["Cor Bos"]
    assert "Nog niemand aangemaakt: beantwoord de vraag hieronder." in text
    assert (
        '<a href="#near-2-question">“Cor Bos”: iemand uit het ledenbestand, of nieuw?</a>' in text
    )
    assert text.count("Nog niet beantwoord: kies wie dit is") == 1
    assert 'id="near-2-question" aria-describedby="near-2-error"' in text
    assert not Tournament.objects.exists() and Member.objects.count() == 3
