"""What a change of the evenings does to the season standings: the two standings compared
member by member (who moves up or down, who becomes unranked or ranked, who appears in the
season or leaves it, whose points change), for the preview before an evening is taken out or
put back.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Generic, TypeVar

from scoring.season import SeasonRow

M = TypeVar("M", bound=Hashable)


class Move(StrEnum):
    """How a member's line changes (the first that applies, in this order)."""

    APPEARS = "appears"
    """Not in the season before, in it after."""
    LEAVES = "leaves"
    """In the season before, no evening left after."""
    UNRANKED = "unranked"
    """Ranked before, below the minimum of evenings after."""
    RANKED = "ranked"
    """Unranked before, ranked after."""
    UP = "up"
    DOWN = "down"
    POINTS = "points"
    """The same rank, other points (or evenings)."""


@dataclass(frozen=True, slots=True)
class LineChange(Generic[M]):
    """One member's line before and after (``None``: not in that season)."""

    member: M
    name: str
    move: Move
    before: SeasonRow[M] | None
    after: SeasonRow[M] | None


@dataclass(frozen=True, slots=True)
class SeasonChange(Generic[M]):
    """The members whose line changes, in the order of the standings after (those who leave
    the season last), and how many stay as they are."""

    changes: tuple[LineChange[M], ...]
    unchanged: int

    def of(self, move: Move) -> tuple[LineChange[M], ...]:
        return tuple(c for c in self.changes if c.move is move)


def _move(before: SeasonRow[M] | None, after: SeasonRow[M] | None) -> Move | None:
    if before is None:
        return Move.APPEARS
    if after is None:
        return Move.LEAVES
    if before.ranked and not after.ranked:
        return Move.UNRANKED
    if after.ranked and not before.ranked:
        return Move.RANKED
    if before.rank is not None and after.rank is not None and before.rank != after.rank:
        return Move.UP if after.rank < before.rank else Move.DOWN
    if (before.points, before.played) != (after.points, after.played):
        return Move.POINTS
    return None


def season_change(before: Sequence[SeasonRow[M]], after: Sequence[SeasonRow[M]]) -> SeasonChange[M]:
    """Compare two season standings of one competition (see the module)."""
    old = {row.member: row for row in before}
    new = {row.member: row for row in after}
    changes: list[LineChange[M]] = []
    unchanged = 0
    ordered = [*after, *(row for row in before if row.member not in new)]
    for row in ordered:
        was, now = old.get(row.member), new.get(row.member)
        move = _move(was, now)
        if move is None:
            unchanged += 1
            continue
        changes.append(LineChange(row.member, row.name, move, was, now))
    return SeasonChange(tuple(changes), unchanged)
