"""The public standings and the projector (no sign-in)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import translation

from tournament.permissions import public_tournament
from tournament.rounds.selectors import public_seating
from tournament.standings.tables import standings_for_public, standings_notes

SCREEN_REFRESH_SECONDS = 30
SCREEN_ROWS = 20  # what fits a projector at the back of the room; the rest is on the phone page


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
                **public_seating(tournament),
            },
        )
