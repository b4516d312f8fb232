"""Public pages (no sign-in) for players: where do I sit, the standings, the projector."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import translation

from tournament import selectors
from tournament.names import folded
from tournament.permissions import public_tournament
from tournament.tables import standings_for_public, standings_notes

SCREEN_REFRESH_SECONDS = 30
SCREEN_ROWS = 20  # what fits a projector at the back of the room; the rest is on the phone page


def public_home(request: HttpRequest, slug: str) -> HttpResponse:
    """Where do I sit: the published round's seating, searchable by name."""
    tournament = public_tournament(slug)
    query = request.GET.get("q", "").strip()[:100]
    seating = selectors.public_seating(tournament)
    found = seating["places"]
    if query:
        needle = folded(query)
        found = [place for place in found if needle in folded(place.name)]
    return render(
        request,
        "public/home.html",
        {"tournament": tournament, "query": query, "found": found, **seating},
    )


def public_standings(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = public_tournament(slug)
    standings = standings_for_public(tournament)
    return render(
        request,
        "public/standings.html",
        {
            "tournament": tournament,
            "rows": standings.rows,
            "rounds": standings.rounds,
            "computed_at": standings.computed_at,
            **standings_notes(tournament, standings.rows),
        },
    )


def public_screen(request: HttpRequest, slug: str) -> HttpResponse:
    """The projector: seating and standings in large type, refreshing by itself."""
    tournament = public_tournament(slug)
    standings = standings_for_public(tournament)
    rows = standings.rows
    with translation.override(tournament.language):
        return render(
            request,
            "public/screen.html",
            {
                "tournament": tournament,
                "rows": rows[:SCREEN_ROWS],
                "more_rows": max(0, len(rows) - SCREEN_ROWS),
                "rounds": standings.rounds,
                "computed_at": standings.computed_at,
                "refresh": SCREEN_REFRESH_SECONDS,
                **standings_notes(tournament, rows[:SCREEN_ROWS]),
                **selectors.public_seating(tournament),
            },
        )
