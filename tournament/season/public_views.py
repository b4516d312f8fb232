"""The public season page (no sign-in), when the director has switched it on."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tournament.season.permissions import public_competition
from tournament.season.selectors import season_of
from tournament.season.views import season_lines


def public_season(request: HttpRequest, slug: str) -> HttpResponse:
    competition = public_competition(slug)
    season = season_of(competition)
    return render(
        request,
        "season/public.html",
        {"competition": competition, "season": season, "lines": season_lines(season)},
    )
