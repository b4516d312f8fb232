"""The public season page (no sign-in), when the director has switched it on."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tournament.clubs.public_names import PublicNames, register_public_names
from tournament.models import Member
from tournament.season.permissions import public_competition
from tournament.season.selectors import season_of
from tournament.season.views import season_lines


@dataclass(frozen=True, slots=True)
class ShownMember:
    """A member as the public season page names them (``clubs.public_names``)."""

    name: str
    club: str


def _shown(names: PublicNames, lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    def member(m: Member) -> ShownMember:
        return ShownMember(names.name(m.pk, m.name), names.club(m.pk, m.club))

    return [{**line, "member": member(line["member"])} for line in lines]


def public_season(request: HttpRequest, slug: str) -> HttpResponse:
    competition = public_competition(slug)
    season = season_of(competition)
    names = register_public_names(competition.club)
    lines = _shown(names, season_lines(season))
    guests = _shown(names, season.guest_lines)
    return render(
        request,
        "season/public.html",
        {"competition": competition, "season": season, "lines": lines, "guest_lines": guests},
    )
