"""Creating, importing, exporting a tournament on the site; who may see what."""

import datetime
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation
from django.utils.translation import ngettext

from tests.factories import played_tournament
from tournament.models import Table, TableLink, Tournament
from tournament.sheets.table_links import table_link_ensure

pytestmark = pytest.mark.django_db


def test_anonymous_visitor_is_sent_to_sign_in(client):
    tournament = played_tournament()
    response = client.get(reverse("tournament_detail", args=[tournament.slug]))
    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


def test_signed_in_user_who_is_not_a_director_here_is_refused(client, django_user_model):
    tournament = played_tournament()
    client.force_login(django_user_model.objects.create_user("gast", password="x-y-z-12345"))
    assert client.get(reverse("tournament_detail", args=[tournament.slug])).status_code == 403


def test_director_creates_a_tournament_and_directs_it(director_client, director):
    response = director_client.post(
        reverse("tournament_create"),
        {
            "name": "Najaarstoernooi",
            "date": "2026-11-29",
            "place": "Utrecht",
            "rounds_planned": 4,
            "language": "nl",
            "table_sizes": ["4", "5"],
            "prefer_size": "4",
            "tiebreak_1": "tournament_points",
            "tiebreak_2": "fewer_bollen",
            "tiebreak_3": "",
        },
    )
    tournament = Tournament.objects.get(name="Najaarstoernooi")
    assert response.status_code == 302
    assert tournament.directors.filter(pk=director.pk).exists()
    assert tournament.table_sizes == [4, 5]
    assert tournament.tiebreaks == ["tournament_points", "fewer_bollen"]


def test_preferred_size_must_be_allowed(director_client):
    response = director_client.post(
        reverse("tournament_create"),
        {
            "name": "X",
            "rounds_planned": 3,
            "language": "nl",
            "table_sizes": ["4"],
            "prefer_size": "5",
            "tiebreak_1": "tournament_points",
            "tiebreak_2": "fewer_bollen",
        },
    )
    assert response.status_code == 422
    assert "prefer_size" in response.context["form"].errors
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(
    "second,third,wrong",
    [("tournament_points", "", "tiebreak_2"), ("fewer_bollen", "tournament_points", "tiebreak_3")],
)
def test_a_criterion_chosen_twice_is_marked_where_it_repeats(director_client, second, third, wrong):
    data = {"name": "X", "rounds_planned": 3, "language": "nl", "table_sizes": ["4", "5"]}
    data.update({"prefer_size": "4", "tiebreak_1": "tournament_points"})
    response = director_client.post(
        reverse("tournament_create"), {**data, "tiebreak_2": second, "tiebreak_3": third}
    )
    assert response.status_code == 422
    errors = response.context["form"].errors
    assert list(errors) == [wrong]
    assert errors[wrong] == ["Elk criterium kan maar één keer gekozen worden."]
    # The page opens at a summary that links to the field (the settings page is long).
    body = response.content.decode()
    assert "Niet opgeslagen: kijk het veld hieronder na." in body
    assert f'<a href="#id_{wrong}">' in body
    assert not Tournament.objects.exists()


def test_upload_of_a_broken_file_lists_every_problem_and_stores_nothing(director_client):
    document = {
        "format": "bollen-tournament",
        "version": 1,
        "name": "X",
        "players": [{"id": "a", "name": "A"}, {"id": "a", "name": "B"}],
        "rounds": [{"number": 1, "tables": [{"number": 1, "seats": ["a", "b", "c"]}]}],
    }
    upload = _file("t.json", json.dumps(document).encode())
    response = director_client.post(reverse("tournament_upload"), {"file": upload})
    assert response.status_code == 422
    problems = response.context["problems"]
    assert len(problems) >= 3  # id twice, two unknown players
    assert not Tournament.objects.exists()


def test_download_then_upload_gives_the_same_tournament(director_client, director):
    tournament = played_tournament(director=director)
    data = director_client.get(reverse("tournament_download", args=[tournament.slug])).content
    response = director_client.post(reverse("tournament_upload"), {"file": _file("b.json", data)})
    copy = Tournament.objects.exclude(pk=tournament.pk).get()
    assert response.status_code == 302
    again = director_client.get(reverse("tournament_download", args=[copy.slug])).content
    assert json.loads(again) == json.loads(data)


def test_tournament_pages_render_for_the_director(director_client, director):
    tournament = played_tournament(director=director)
    for name in (
        "tournament_detail",
        "tournament_edit",
        "player_list",
        "round_list",
        "standings",
        "player_paste",
        "player_import",
    ):
        response = director_client.get(reverse(name, args=[tournament.slug]))
        assert response.status_code == 200, name


def _file(name, data):
    return SimpleUploadedFile(name, data, content_type="application/octet-stream")


def test_uploading_a_backup_beside_the_original_warns_about_new_links(director_client, director):
    tournament = played_tournament(director=director)
    table = Table.objects.filter(round__tournament=tournament).first()
    link = table_link_ensure(table=table, by_user=director)
    data = director_client.get(reverse("tournament_download", args=[tournament.slug])).content
    assert link.token in data.decode()
    response = director_client.post(
        reverse("tournament_upload"), {"file": _file("b.json", data)}, follow=True
    )
    notes = [str(m) for m in response.context["messages"]]
    assert any(tournament.slug in note and "QR" in note for note in notes)
    copy = Tournament.objects.exclude(pk=tournament.pk).get()
    assert (
        TableLink.objects.filter(table__round__tournament=copy).exclude(token=link.token).count()
        == 1
    )


def test_dates_show_lower_case_dutch_months_and_plurals_agree(director, director_client):
    tournament = played_tournament(8, 1, director=director)
    tournament.date = datetime.date(2025, 12, 1)
    tournament.save(update_fields=["date"])
    page = director_client.get(reverse("tournament_list")).content.decode()
    assert "1 dec 2025" in page and "1 Dec" not in page
    director_client.cookies["django_language"] = "en"
    assert "1 Dec 2025" in director_client.get(reverse("tournament_list")).content.decode()
    with translation.override("nl"):
        one = ngettext("%(count)s player registered.", "%(count)s players registered.", 1)
        many = ngettext("%(count)s player registered.", "%(count)s players registered.", 2)
    assert (one % {"count": 1}, many % {"count": 2}) == (
        "1 speler ingeschreven.",
        "2 spelers ingeschreven.",
    )


def test_the_tournament_page_says_where_the_public_pages_are_switched_on(director_client, director):
    tournament = played_tournament(8, 1, director=director, public=False)
    page = director_client.get(reverse("tournament_detail", args=[tournament.slug])).content
    settings_link = reverse("tournament_edit", args=[tournament.slug]) + "#id_public"
    assert "Openbare pagina's staan uit." in page.decode()
    assert settings_link.encode() in page
    tournament.public = True
    tournament.save(update_fields=["public"])
    page = director_client.get(reverse("tournament_detail", args=[tournament.slug])).content
    for name in ("public_home", "public_standings", "public_screen"):
        assert reverse(name, args=[tournament.slug]).encode() in page
