"""What every public page and public file shows of a name, by the club's choice and each
member's consent; the director's pages keep full names."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tournament.models import Club, Player
from tournament.privacy.services import member_consent_set

pytestmark = pytest.mark.django_db


def public_bodies(_client, director_client, evening, season) -> dict[str, str]:
    """Every public page and file of the club, as its text: the evening's where do I sit (and
    a search on it), a player's page, the standings, the projector, the live document, the
    shared result, the season standings, the club's public page and its privacy page."""
    slug = evening.slug
    player = Player.objects.filter(tournament=evening).order_by("pk").first()
    urls = {
        "home": reverse("public_home", args=[slug]),
        "search": reverse("public_home", args=[slug]) + "?q=marloes",
        "player": reverse("public_player", args=[slug, player.pk]),
        "standings": reverse("public_standings", args=[slug]),
        "screen": reverse("public_screen", args=[slug]),
        "live": reverse("public_live", args=[slug]),
        "season": reverse("public_season", args=[season.slug]),
        "club": reverse("club_public", args=[season.club.slug]),
        "privacy": reverse("club_privacy_public", args=[season.club.slug]),
    }
    bodies = {}
    client = Client()  # a visitor: no account, no messages of the director's
    for name, url in urls.items():
        response = client.get(url)
        assert response.status_code == 200, name
        bodies[name] = response.content.decode()
    shared = director_client.get(reverse("result_text", args=[slug]))
    bodies["shared result"] = shared.content.decode()
    return bodies


HTML_PAGES = ("home", "search", "player", "standings", "screen", "season", "club", "privacy")


def _set_mode(club: Club, mode: str) -> None:
    Club.objects.filter(pk=club.pk).update(name_display=mode)


@pytest.mark.parametrize(
    ("mode", "shown", "not_shown"),
    [
        (Club.NameDisplay.FULL, ["Marloes Bakker", "Jan van der Meer"], []),
        (Club.NameDisplay.SHORT, ["Marloes B.", "Jan M."], ["Bakker", "van der Meer"]),
        (Club.NameDisplay.TABLE, ["Speler "], ["Marloes", "Bakker", "Jan van der"]),
    ],
)
def test_every_public_page_shows_names_as_the_club_chooses(
    client, director_client, evening, season, mode, shown, not_shown
):
    _set_mode(season.club, mode)
    bodies = public_bodies(client, director_client, evening, season)
    named = {k: v for k, v in bodies.items() if k not in ("club", "privacy", "search")}
    for page, body in named.items():
        if page == "player" or (page == "home" and mode == Club.NameDisplay.TABLE):
            continue  # one player's page, and the seating by places: checked below
        for text in shown:
            assert text in body, f"{mode}: {page} lacks {text}"
    for page, body in bodies.items():
        for text in not_shown:
            assert text not in body, f"{mode}: {page} shows {text}"
    for page in HTML_PAGES:
        assert reverse("club_privacy_public", args=[season.club.slug]) in bodies[page], page
    if mode == Club.NameDisplay.TABLE:
        assert "Tafel 1, stoel 1" in bodies["home"]  # the words of the player page
        assert "Speler " in bodies["player"]
        # A search for a name the page does not show finds nobody.
        assert "Niemand" in bodies["search"] or "Nobody" in bodies["search"]
    # The director's own pages keep full names.
    director_page = director_client.get(reverse("standings", args=[evening.slug]))
    assert "Marloes Bakker" in director_page.content.decode()


def test_without_consent_a_member_is_shown_as_a_number_on_every_public_page(
    client, director_client, evening, season, marloes, director
):
    before = public_bodies(client, director_client, evening, season)
    assert "Marloes Bakker" in before["standings"]
    member_consent_set(member=marloes, consent=False, by=director)
    assert set(Player.objects.filter(member=marloes).values_list("public_consent", flat=True)) == {
        False
    }
    after = public_bodies(client, director_client, evening, season)
    for page, body in after.items():
        assert "Marloes" not in body and "Bakker" not in body, page
    # Everybody else keeps their name; the member's scores are still there.
    assert "Jan van der Meer" in after["standings"] and "Jan van der Meer" in after["season"]
    assert "Speler " in after["standings"] and "Speler " in after["season"]
    assert after["standings"].count("<tr>") == before["standings"].count("<tr>")
    director_page = director_client.get(reverse("standings", args=[evening.slug]))
    assert "Marloes Bakker" in director_page.content.decode()


def test_a_players_consent_is_set_by_the_director(director_client, evening):
    player = Player.objects.get(tournament=evening, name="Anna Dekker")
    url = reverse("player_consent", args=[evening.slug, player.pk])
    assert director_client.post(url, {"consent": "0"}).status_code == 302
    player.refresh_from_db()
    assert player.public_consent is False
    body = Client().get(reverse("public_standings", args=[evening.slug])).content.decode()
    assert "Anna Dekker" not in body and "Pieter Smit" in body
    # A wrong value changes nothing.
    director_client.post(url, {"consent": "maybe"})
    player.refresh_from_db()
    assert player.public_consent is False
