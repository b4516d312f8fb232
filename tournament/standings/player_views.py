"""Where do I sit, and a player's own page: the public front of a tournament (no sign-in)."""

from __future__ import annotations

from dataclasses import replace

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import translation

from tournament.clubs.public_names import tournament_public_names
from tournament.models import Player, Tournament
from tournament.names import folded
from tournament.permissions import PublicPageMissing, public_tournament
from tournament.standings.player_page import public_player_page
from tournament.standings.prizes import standings_prizes
from tournament.standings.public_seating import seating_for_public
from tournament.standings.public_views import PODIUM_ROWS, live_config
from tournament.standings.tables import StandingsRow, standings_for_public


def public_home(request: HttpRequest, slug: str) -> HttpResponse:
    """Where do I sit: the published round's seating, searchable by name, kept up to date by
    the live document (a newly published round shows without reloading)."""
    tournament = public_tournament(slug)
    query = request.GET.get("q", "").strip()[:100]
    seating, names = seating_for_public(tournament)
    found = seating["places"]
    matching = None  # every player
    if query:
        # Only what the page shows is searched: a name it does not show finds nobody.
        needle = folded(query)
        found = [place for place in found if needle in folded(place.name)]
        seated = {place.player for place in found}
        # Whom the search names, seated now or not: the script shows them in the next round.
        with translation.override(tournament.language):
            matching = [
                pk
                for pk, name in Player.objects.filter(tournament=tournament).values_list(
                    "pk", "name"
                )
                if pk in seated or needle in folded(names.name(pk, name))
            ]
    return render(
        request,
        "public/home.html",
        {
            "tournament": tournament,
            "query": query,
            "found": found,
            "live": live_config(slug, "home", players=matching, podium_rows=PODIUM_ROWS),
            "podium": _podium(tournament) if seating["finished"] else [],
            **seating,
        },
    )


def _podium(tournament: Tournament) -> list[tuple[StandingsRow, str]]:
    """The prize winners of a finished tournament with their prize (the top three when it
    announces none), and the last place when it is named, as the projector shows them."""
    rows = standings_for_public(tournament).rows
    prizes = standings_prizes(tournament, rows)
    labels = prizes.labels()
    winners = prizes.winners or [row for row in rows if row["rank"] <= 3]
    return [
        (row, labels.get(row["player_id"], "")) for row in winners[:PODIUM_ROWS] + prizes.losers
    ]


def public_player(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    """A player's own page: their tables, opponents and points per round, and their place."""
    tournament = public_tournament(slug)
    page = public_player_page(tournament, player_id)
    if page is None:
        raise PublicPageMissing
    names = tournament_public_names(tournament)
    with translation.override(tournament.language):
        rounds = [
            replace(r, opponents=tuple(names.name(pk, n) for pk, n in r.opponent_names))
            for r in page.rounds
        ]
        shown = {
            "name": names.name(player_id, page.player.name),
            "club": names.club(player_id, page.player.club),
            "hidden": names.hides(player_id),
        }
    return render(
        request,
        "public/player.html",
        {"tournament": tournament, "page": replace(page, rounds=rounds), "shown": shown},
    )
