"""Tonight's check-in: every way a secretary can fill it in ends in an evening or a message."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tournament.models import Competition, Member, Tournament
from tournament.season.services import CompetitionSettings, competition_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def fresh(director):
    """A competition without evenings, as a club starts its season."""
    return competition_create(director=director, settings=CompetitionSettings(name="Najaar"))


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def test_the_first_check_in_of_a_new_competition_uses_the_tournament_defaults(
    director_client, fresh
):
    for name in ("Anna Aalbers", "Bert Bos", "Cor Claassen"):
        Member.objects.create(name=name)
    response = director_client.post(
        reverse("check_in", args=[fresh.slug]),
        {"name": "Avond 1", "members": list(Member.objects.values_list("pk", flat=True))},
    )
    assert response.status_code == 302
    tournament = Tournament.objects.get(name="Avond 1")
    default = Tournament()
    assert tournament.table_sizes == default.table_sizes
    assert tournament.tiebreaks == default.tiebreaks
    assert tournament.players.count() == 3
    assert fresh.evenings.get().number == 1


def test_a_first_check_in_with_an_empty_register_takes_the_new_names(director_client, fresh):
    response = director_client.post(
        reverse("check_in", args=[fresh.slug]),
        {"name": "Avond 1", "new_people": "Anna Aalbers\nBert Bos, De Troef\nCor Claassen\n"},
    )
    assert response.status_code == 302
    assert Member.objects.count() == 3
    assert Tournament.objects.get(name="Avond 1").players.count() == 3


def test_a_check_in_with_too_few_people_says_so_on_the_page(director_client, fresh):
    response = director_client.post(
        reverse("check_in", args=[fresh.slug]), {"name": "Avond 1", "new_people": "Anna\n"}
    )
    assert response.status_code == 200
    assert "Vink minstens drie spelers aan." in messages_of(response)
    assert not Tournament.objects.exists()
    assert not Member.objects.exists()


def test_a_new_name_already_in_the_register_is_a_message_naming_it(director_client, fresh):
    Member.objects.create(name="Anna Aalbers", club="De Troef")
    response = director_client.post(
        reverse("check_in", args=[fresh.slug]),
        {"name": "Avond 1", "new_people": "anna aalbers, de troef\nBert Bos\nCor Claassen\n"},
    )
    assert response.status_code == 200
    (message,) = messages_of(response)
    assert "anna aalbers" in message.casefold()
    assert "Het ledenbestand heeft deze naam en club al." in message
    assert Member.objects.count() == 1
    assert not Tournament.objects.exists()


def test_two_people_of_one_name_tonight_are_named_not_a_line_number(director_client, fresh):
    one = Member.objects.create(name="Jan Smit", club="De Troef")
    two = Member.objects.create(name="Jan Smit", club="Harten")
    three = Member.objects.create(name="Cor Claassen")
    response = director_client.post(
        reverse("check_in", args=[fresh.slug]),
        {"name": "Avond 1", "members": [one.pk, two.pk, three.pk]},
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
    Member.objects.bulk_create([Member(name=n) for n in ("Anna A", "Bert B", "Cor C")])
    ids = list(Member.objects.values_list("pk", flat=True))
    url = reverse("check_in", args=[fresh.slug])
    director_client.post(url, {"name": "Avond", "date": "2026-09-01", "members": ids})
    second = Competition.objects.get(pk=fresh.pk)
    response = director_client.post(
        reverse("check_in", args=[second.slug]),
        {"name": "Avond", "date": "2026-09-01", "members": ids},
    )
    assert response.status_code == 302
    slugs = set(Tournament.objects.values_list("slug", flat=True))
    assert len(slugs) == 2
