"""Tournament standings: the players' round scores added up, ranked by a tie-break order.

The winner has the most tournament points over all rounds. By default ties go to fewer bollen,
and players equal on every criterion of the order share a rank (standard competition ranking:
1, 2, 2, 4). Rows that share a rank are listed by name, so the result does not depend on the order
the scores came in.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Generic, TypeVar

from scoring.errors import ErrorCode, Problem, ScoringError
from scoring.sheet import SeatTotals, SheetResult

# Whatever the caller names a player by (the site: the player's id).
P = TypeVar("P", bound=Hashable)


@dataclass(frozen=True, slots=True)
class RoundScore(Generic[P]):
    """One player's result in one tournament round (one table's game)."""

    player: P
    round: int
    tournament_points: int
    bollen: int
    correct: int
    points: int


class TieBreak(StrEnum):
    """A criterion of the ranking; a tournament orders them, the first decides most."""

    TOURNAMENT_POINTS = "tournament_points"
    """More tournament points first."""
    FEWER_BOLLEN = "fewer_bollen"
    """Fewer bollen first."""
    MORE_CORRECT = "more_correct"
    """More deals kept (correct) first."""
    MORE_POINTS = "more_points"
    """More points from kept bids first."""


DEFAULT_ORDER: tuple[TieBreak, ...] = (TieBreak.TOURNAMENT_POINTS, TieBreak.FEWER_BOLLEN)
"""Most tournament points, then fewest bollen, then a shared rank."""


@dataclass(frozen=True, slots=True)
class StandingRow(Generic[P]):
    """One line of the standings.

    ``per_round`` maps a round number to the tournament points of that round, for the rounds the
    player played (sorted by round); ``name`` is the name the row was sorted by.
    """

    rank: int
    player: P
    tournament_points: int
    bollen: int
    correct: int
    points: int
    per_round: Mapping[int, int]
    rounds_played: int
    name: str = ""


@dataclass(slots=True)
class _Tally:
    tournament_points: int = 0
    bollen: int = 0
    correct: int = 0
    points: int = 0
    per_round: dict[int, int] = field(default_factory=dict)


_CRITERION: dict[TieBreak, Callable[[_Tally], int]] = {
    TieBreak.TOURNAMENT_POINTS: lambda tally: -tally.tournament_points,
    TieBreak.FEWER_BOLLEN: lambda tally: tally.bollen,
    TieBreak.MORE_CORRECT: lambda tally: -tally.correct,
    TieBreak.MORE_POINTS: lambda tally: -tally.points,
}


def _order_problem(message: str, tie_break: str = "") -> ScoringError:
    return ScoringError(
        Problem(ErrorCode.TIE_BREAK_ORDER, message, params={"tie_break": tie_break})
    )


def tie_break_order(order: Iterable[TieBreak | str]) -> tuple[TieBreak, ...]:
    """Check a tie-break order (values may be the enum's strings, as stored in settings).

    ScoringError TIE_BREAK_ORDER when it is empty, names an unknown tie-break or one twice.
    """
    checked: list[TieBreak] = []
    for item in order:
        try:
            tie_break = TieBreak(item)
        except ValueError:
            raise _order_problem(f"There is no tie-break called {item!r}.", str(item)) from None
        if tie_break in checked:
            raise _order_problem(
                f"The tie-break {tie_break.value!r} appears twice in the order.", tie_break.value
            )
        checked.append(tie_break)
    if not checked:
        raise _order_problem("The tie-break order needs at least one criterion.")
    return tuple(checked)


def standings(
    scores: Iterable[RoundScore[P]],
    *,
    order: Sequence[TieBreak] = DEFAULT_ORDER,
    players: Iterable[P] = (),
    names: Mapping[P, str] | None = None,
    name_keys: Mapping[P, tuple[Any, ...]] | None = None,
) -> list[StandingRow[P]]:
    """Rank the players by their summed round scores.

    ``players`` appear even without scores (with zeros). Rows that share a rank are ordered by
    ``name_keys`` when given (a list's alphabetical order, made by the caller), then by name
    (from ``names``, else ``str(player)``), then by ``str(player)``. A player with two scores
    in one round is refused (ScoringError DUPLICATE_SCORE, one problem per repeat).
    """
    criteria = [_CRITERION[tie_break] for tie_break in tie_break_order(order)]
    tallies: dict[P, _Tally] = {player: _Tally() for player in players}
    duplicates: list[Problem] = []
    for score in scores:
        tally = tallies.setdefault(score.player, _Tally())
        if score.round in tally.per_round:
            duplicates.append(
                Problem(
                    ErrorCode.DUPLICATE_SCORE,
                    f"Player {score.player} has two scores in round {score.round}.",
                    params={"player": str(score.player), "round": score.round},
                    round=score.round,
                )
            )
            continue
        tally.per_round[score.round] = score.tournament_points
        tally.tournament_points += score.tournament_points
        tally.bollen += score.bollen
        tally.correct += score.correct
        tally.points += score.points
    if duplicates:
        raise ScoringError(duplicates)

    def name_of(player: P) -> str:
        name = names.get(player) if names is not None else None
        return str(player) if name is None else name

    def sort_key(item: tuple[P, _Tally]) -> tuple[Any, ...]:
        player, tally = item
        name = name_of(player)
        merit = tuple(criterion(tally) for criterion in criteria)
        listed = name_keys.get(player, ()) if name_keys is not None else ()
        return merit, listed, name.casefold(), name, str(player), repr(player)

    rows: list[StandingRow[P]] = []
    previous_merit = None
    for position, item in enumerate(sorted(tallies.items(), key=sort_key), start=1):
        player, tally = item
        merit = sort_key(item)[0]
        rank = rows[-1].rank if merit == previous_merit else position
        previous_merit = merit
        rows.append(
            StandingRow(
                rank=rank,
                player=player,
                tournament_points=tally.tournament_points,
                bollen=tally.bollen,
                correct=tally.correct,
                points=tally.points,
                per_round=dict(sorted(tally.per_round.items())),
                rounds_played=len(tally.per_round),
                name=name_of(player),
            )
        )
    return rows


def round_scores(seats: Sequence[P], result: SheetResult, *, round: int) -> list[RoundScore[P]]:
    """The round scores of one table: ``seats[i]`` is the player at seat ``i`` of ``result``."""
    return seat_round_scores(seats, result.totals, round=round)


def seat_round_scores(
    seats: Sequence[P], totals: Sequence[SeatTotals], *, round: int
) -> list[RoundScore[P]]:
    """The round scores of one table from its seats' totals: ``seats[i]`` has ``totals[i]``."""
    if len(seats) != len(totals):
        raise ValueError(f"{len(seats)} players given for a table of {len(totals)} seats")
    return [
        RoundScore(
            player=player,
            round=round,
            tournament_points=seat.tournament_points,
            bollen=seat.bollen,
            correct=seat.correct,
            points=seat.points,
        )
        for player, seat in zip(seats, totals, strict=True)
    ]
