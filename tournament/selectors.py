"""Reads that several views share."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass

from django.db.models import Count, Q, QuerySet

from tournament.adapter import SheetStatus, TableSheet, load_table_sheets
from tournament.models import Player, Round, Tournament


def tournaments_directed(user) -> QuerySet[Tournament]:
    if not user.is_authenticated:
        return Tournament.objects.none()
    tournaments = Tournament.objects.all()
    if not user.is_superuser:
        tournaments = tournaments.filter(directors=user)
    return tournaments.annotate(player_count=Count("players", distinct=True))


def tournaments_public() -> QuerySet[Tournament]:
    return Tournament.objects.filter(public=True)


@dataclass(frozen=True, slots=True)
class RoundSummary:
    round: Round
    tables: int
    statuses: dict[str, int]

    @property
    def missing(self) -> int:
        """Tables whose sheet is not complete yet."""
        return self.tables - self.statuses.get(SheetStatus.COMPLETE, 0)


def round_summaries(tournament: Tournament) -> list[RoundSummary]:
    """Every round with its number of tables per sheet status (a fixed number of queries)."""
    by_round: dict[int, list[TableSheet]] = defaultdict(list)
    for sheet in load_table_sheets(tournament=tournament):
        by_round[sheet.round_number].append(sheet)
    summaries = []
    for round_ in tournament.rounds.order_by("number"):
        sheets = by_round.get(round_.number, [])
        summaries.append(
            RoundSummary(
                round=round_,
                tables=len(sheets),
                statuses=dict(Counter(str(s.status) for s in sheets)),
            )
        )
    return summaries


def next_round_number(tournament: Tournament) -> int:
    last = tournament.rounds.order_by("-number").values_list("number", flat=True).first()
    return (last or 0) + 1


def players_for_round(tournament: Tournament, number: int) -> QuerySet[Player]:
    """The players to seat in round ``number``: joined by then and not withdrawn."""
    return (
        Player.objects.filter(tournament=tournament, joined_round__lte=number)
        .filter(Q(withdrawn_round__isnull=True) | Q(withdrawn_round__gt=number))
        .order_by("name", "pk")
    )


def tournament_overview(tournament: Tournament) -> dict:
    summaries = round_summaries(tournament)
    counts = tournament.players.aggregate(
        total=Count("pk"), withdrawn=Count("pk", filter=Q(withdrawn_round__isnull=False))
    )
    next_number = next_round_number(tournament)
    return {
        "summaries": summaries,
        "player_total": counts["total"],
        "player_withdrawn": counts["withdrawn"],
        "next_round": next_number,
        "next_round_players": players_for_round(tournament, next_number).count(),
        "incomplete_round": next((s for s in summaries if s.missing), None),
    }
