"""A member's season card: each evening of a competition with the member's points and place
that evening, and whether it counts for the season (the best K, or every evening when the
season ranks by the average), with their season total or average and place.

Every number is the season standings' own (``selectors.season_of``): the points and what counts
are the member's row of the standings, the place of an evening that evening's standings; the
card adds nothing up itself.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from decimal import Decimal

from scoring.season import GuestRow, SeasonRow
from tournament.models import Competition, CompetitionEvening, Member
from tournament.season.selectors import Season, average_shown, season_of


@dataclass(frozen=True, slots=True)
class CardEvening:
    """One evening on the card. ``points`` and ``place`` are ``None`` when the member was not
    there (or has no entered sheet yet: ``pending``); ``players`` is how many played that
    evening; ``provisional``: the result can still change (the evening is still being
    played)."""

    number: int
    name: str
    date: datetime.date | None
    slug: str
    points: int | None
    place: int | None
    players: int
    counts: bool
    provisional: bool
    pending: bool

    @property
    def played(self) -> bool:
        return self.points is not None


@dataclass(frozen=True, slots=True)
class SeasonCard:
    """``row``: the member's line of the season standings (``None`` for a guest, who is never
    ranked, and for a member who has not played yet); ``guest_row``: a guest's line, apart."""

    season: Season
    member: Member
    evenings: list[CardEvening]
    row: SeasonRow[int] | None
    guest_row: GuestRow[int] | None

    @property
    def competition(self) -> Competition:
        return self.season.competition

    @property
    def by_average(self) -> bool:
        return self.season.by_average

    @property
    def ranked_members(self) -> int:
        return sum(1 for row in self.season.rows if row.ranked)

    @property
    def played(self) -> int:
        return sum(1 for evening in self.evenings if evening.played)

    @property
    def points(self) -> int | None:
        line = self.row or self.guest_row
        return None if line is None else line.points

    @property
    def average(self) -> Decimal | None:
        """The season average as the standings rank it, as files and pages show it."""
        return None if self.row is None else average_shown(self.row.average)

    @property
    def provisional(self) -> bool:
        return any(e.provisional or e.pending for e in self.evenings)


def season_card(season: Season, member: Member) -> SeasonCard:
    """The card of ``member`` in ``season`` (a member who has not played has every evening
    absent)."""
    row = next((r for r in season.rows if r.member == member.pk), None)
    guest_row = next((g for g in season.guests if g.member == member.pk), None)
    counted = set(row.counted) if row is not None else set()
    evenings = []
    for evening in season.evenings:
        standing = next(
            (r for r in evening.rows if evening.players[r.player].member_id == member.pk), None
        )
        points = place = None
        provisional = pending = False
        if standing is not None and standing.player in evening.pending:
            pending = True
        elif standing is not None:
            points, place = standing.tournament_points, standing.rank
            provisional = evening.is_provisional(standing.player)
        evenings.append(
            CardEvening(
                number=evening.number,
                name=evening.tournament.name,
                date=evening.tournament.date,
                slug=evening.tournament.slug,
                points=points,
                place=place,
                players=len(evening.players),
                counts=evening.number in counted,
                provisional=provisional,
                pending=pending,
            )
        )
    return SeasonCard(season, member, evenings, row, guest_row)


def card_of(competition: Competition, member: Member) -> SeasonCard:
    return season_card(season_of(competition), member)


def card_competitions(member: Member) -> list[Competition]:
    """The competitions of the member's club, those the member played an evening of first
    (newest first within each)."""
    competitions = list(Competition.objects.filter(club=member.register))
    played = set(
        CompetitionEvening.objects.filter(
            competition__club=member.register, tournament__players__member=member
        ).values_list("competition_id", flat=True)
    )
    return sorted(competitions, key=lambda c: c.pk not in played)
