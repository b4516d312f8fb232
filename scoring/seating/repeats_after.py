"""How many repeated meetings a seating of the rounds still open must give, after the rounds
already played: what a round's page tells the director under "repeated meetings so far".

``quality.repeat_lower_bound`` reasons player by player, and misses the plainest case: the
players of one table of a played round have all met, so when a later round has fewer tables
than there are of them, some must meet again (eight players, two tables of four: whoever sat
together in round 1 cannot all be parted in round 2). ``groups_floor`` counts that, and
``repeats_after`` takes the best of the bounds, never below the repeats already played.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from math import comb
from typing import TypeVar

from scoring.seating.quality import meetings, repeat_lower_bound

P = TypeVar("P", bound=Hashable)


@dataclass(frozen=True, slots=True)
class RepeatsAfter:
    """``repeats``: over all the rounds; ``earlier``: over the played ones; ``least``: no seating
    of the rounds after them (same players, same table sizes) gives fewer repeats in all, and
    it is never below ``earlier``."""

    repeats: int
    earlier: int
    least: int


def repeats_after(schedule: Sequence[Sequence[Sequence[P]]], *, played: int) -> RepeatsAfter:
    """The repeats of ``schedule`` and the fewest any reseating of its rounds after the first
    ``played`` could reach (a lower bound: the best of ``repeat_lower_bound`` with those rounds
    played, with every round open, and ``groups_floor``)."""
    repeats = _repeats(schedule)
    earlier = _repeats(schedule[:played])
    least = max(
        earlier + groups_floor(schedule, played=played),
        repeat_lower_bound(schedule, played=played),
        # Reseating every round is one way to reseat the later ones: its bound holds too.
        repeat_lower_bound(schedule, played=0),
    )
    return RepeatsAfter(repeats=repeats, earlier=earlier, least=least)


def groups_floor(schedule: Sequence[Sequence[Sequence[P]]], *, played: int) -> int:
    """Repeats the rounds after the first ``played`` add at least, by the groups played.

    The players of a table of a played round have all met: in a later round of T tables, the
    k of them present sit together in at least ``_spread(k, T)`` pairs, each a repeat. The
    tables of one played round are disjoint groups, so their pairs add up; each later round
    takes the played round that forces most.
    """
    history, future = schedule[:played], schedule[played:]
    total = 0
    for tables in future:
        present = {p for table in tables for p in table}
        if not tables or not history:
            continue
        total += max(
            sum(_spread(len(present.intersection(group)), len(tables)) for group in earlier)
            for earlier in history
        )
    return total


def _spread(players: int, tables: int) -> int:
    """The fewest pairs at one table when ``players`` sit at ``tables`` tables (as evenly as
    can be: any other way puts more pairs together)."""
    share, rest = divmod(players, tables)
    return rest * comb(share + 1, 2) + (tables - rest) * comb(share, 2)


def _repeats(schedule: Sequence[Sequence[Sequence[P]]]) -> int:
    return sum(count - 1 for count in meetings(schedule).values() if count > 1)
