"""Adding a played tournament on the competition's page: the names not in the register join
it as guests unless the secretary says they are members, and the message says how many."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import played_tournament
from tournament.models import Member
from tournament.season.check_in import MEMBER

pytestmark = pytest.mark.django_db

GUESTS = ["Anna Aalbers", "Bert Bos", "Cor Claassen", "Dirk Dekker"]
NEWCOMERS = ["Erik Evers", "Fien Faber", "Gerrit Groen", "Hanna Hoek"]


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def played(director, seed: int, unknown: list[str]):
    """A played tournament of the season's members Lid A to Lid D and four unknown names."""
    names = [f"Lid {c}" for c in "ABCD"] + unknown
    return played_tournament(8, rounds=1, seed=seed, names=names, director=director)


def test_the_add_form_asks_member_or_guest_in_a_radio_group(director_client, season):
    text = director_client.get(reverse("competition_detail", args=[season.slug])).content
    text = text.decode()
    assert '<fieldset class="field radio-group" id="new-names-choice"' in text
    assert "<legend>Namen die nog niet in het ledenbestand staan</legend>" in text
    assert 'value="guest" id="id_new_names_0" checked' in text.replace("\n", "")
    assert "als gast (standaard)" in text and "als lid" in text


def test_added_names_join_as_guests_by_default_and_as_members_when_chosen(
    director_client, season, director
):
    url = reverse("evening_add", args=[season.slug])
    members_before = set(Member.objects.filter(guest=False).values_list("pk", flat=True))

    added = director_client.post(url, {"tournament": played(director, 11, GUESTS).pk}, follow=True)
    assert {m.name for m in Member.objects.filter(guest=True)} == set(GUESTS)
    assert set(Member.objects.filter(guest=False).values_list("pk", flat=True)) == members_before
    assert (
        "4 nieuwe namen staan nu als gast in het ledenbestand (nooit in het klassement van "
        "een competitie). Een gast maak je lid op zijn of haar pagina in het ledenbestand."
    ) in messages_of(added)
    assert season.evenings.count() == 4

    chosen = director_client.post(
        url, {"tournament": played(director, 12, NEWCOMERS).pk, "new_names": MEMBER}, follow=True
    )
    assert Member.objects.filter(name__in=NEWCOMERS, guest=False).count() == 4
    assert "4 nieuwe namen staan nu als lid in het ledenbestand." in messages_of(chosen)


def test_an_add_without_a_tournament_says_so(director_client, season):
    response = director_client.post(
        reverse("evening_add", args=[season.slug]), {"new_names": "everyone"}, follow=True
    )
    (tournament, choice) = messages_of(response)
    assert tournament.startswith("Toernooi: ")
    assert choice.startswith("Namen die nog niet in het ledenbestand staan: ")
