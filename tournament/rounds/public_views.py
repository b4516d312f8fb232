"""Where do I sit: the public front page of a tournament (no sign-in)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tournament.names import folded
from tournament.permissions import public_tournament
from tournament.rounds.selectors import public_seating


def public_home(request: HttpRequest, slug: str) -> HttpResponse:
    """Where do I sit: the published round's seating, searchable by name."""
    tournament = public_tournament(slug)
    query = request.GET.get("q", "").strip()[:100]
    seating = public_seating(tournament)
    found = seating["places"]
    if query:
        needle = folded(query)
        found = [place for place in found if needle in folded(place.name)]
    return render(
        request,
        "public/home.html",
        {"tournament": tournament, "query": query, "found": found, **seating},
    )
