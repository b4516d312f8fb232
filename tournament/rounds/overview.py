"""A tournament's overview as its page and its rounds tab show it: every round's summary, the
players, and the next round's players and tables."""

from __future__ import annotations

from collections import Counter
from typing import TypedDict

from django.db.models import Count, Q, QuerySet

from scoring.tables import table_split
from tournament.models import Player, Round, Tournament
from tournament.rounds.selectors import (
    RoundSummary,
    next_round_number,
    players_for_round,
    round_summaries,
)


class ClubSpread(TypedDict):
    clubs_known: bool
    crowded_clubs: list[str]


class Overview(ClubSpread):
    """What the overview and rounds pages show: the rounds, the players, the next round."""

    summaries: list[RoundSummary]
    player_total: int
    player_withdrawn: int
    next_round: int
    next_round_players: int
    next_round_tables: int
    next_round_mixed_sizes: bool
    incomplete_round: RoundSummary | None
    # The planned rounds are all played (the last one complete, none seated after it): the
    # next step is the end (``tournaments.finish``), another round the second choice.
    planned_done: bool
    # The last planned round (or a later one) is seated and being played: the end comes next.
    playing_last: int | None
    finished: bool


def tournament_overview(tournament: Tournament) -> Overview:
    summaries = round_summaries(tournament)
    counts = tournament.players.aggregate(
        total=Count("pk"), withdrawn=Count("pk", filter=Q(withdrawn_round__isnull=False))
    )
    next_number = next_round_number(tournament)
    playing = players_for_round(tournament, next_number)
    tables = 0
    mixed_sizes = False  # tables of two sizes: only then does the balance matter
    if len(playing) >= 3:  # fewer cannot be seated; seating says so
        split = table_split(
            len(playing), sizes=tournament.table_sizes, prefer=tournament.prefer_size
        )
        tables = len(split.sizes)
        mixed_sizes = len(set(split.sizes)) > 1
    return {
        "summaries": summaries,
        "player_total": counts["total"],
        "player_withdrawn": counts["withdrawn"],
        "next_round": next_number,
        "next_round_players": len(playing),
        "next_round_tables": tables,
        "next_round_mixed_sizes": mixed_sizes,
        **_club_spread(playing, tables),
        "incomplete_round": next((s for s in summaries if s.missing), None),
        "planned_done": planned_rounds_done(tournament, summaries),
        "playing_last": _playing_last(tournament, summaries),
        "finished": tournament.finished,
    }


def _playing_last(tournament: Tournament, summaries: list[RoundSummary]) -> int | None:
    """The number of the round being played when it is the last planned one (or later)."""
    last = summaries[-1].round if summaries else None
    if last is None or last.number < tournament.rounds_planned:
        return None
    return None if last.state == Round.State.COMPLETE else last.number


def planned_rounds_done(
    tournament: Tournament, summaries: list[RoundSummary] | None = None
) -> bool:
    """Whether the planned rounds have all been played: the last round is complete and is the
    planned last one or later (read from ``summaries`` when given, else one query)."""
    if summaries is not None:
        last = summaries[-1].round if summaries else None
    else:
        last = tournament.rounds.with_state().order_by("-number").first()
    return (
        last is not None
        and last.number >= tournament.rounds_planned
        and last.state == Round.State.COMPLETE
    )


def _club_spread(playing: QuerySet[Player], tables: int) -> ClubSpread:
    """Whether any clubs are known among the players, and the clubs with more players than
    there are tables ("BC De Bol (9)"): those cannot all sit apart in round 1."""
    clubs = Counter(club.strip().casefold() for club in playing.values_list("club", flat=True))
    clubs.pop("", None)
    if tables < 2:  # one table: nothing to keep apart
        return {"clubs_known": False, "crowded_clubs": []}
    shown = {p.club.strip().casefold(): p.club.strip() for p in playing if p.club.strip()}
    crowded = [f"{shown[club]} ({count})" for club, count in clubs.most_common() if count > tables]
    return {"clubs_known": bool(clubs), "crowded_clubs": crowded}
