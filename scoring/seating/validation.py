"""Checks of a seating request and of a finished plan, and the error they raise.

Every refusal is a :class:`SeatingError` with a stable ``code`` and the players involved, so the
site can translate it and point at the right names.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from enum import StrEnum
from itertools import combinations
from types import MappingProxyType
from typing import TypeVar

from scoring.tables import table_split

P = TypeVar("P", bound=Hashable)


class SeatingProblem(StrEnum):
    """The stable code of each way a seating request or plan can be wrong."""

    ROUNDS = "rounds"
    """Fewer than one round to plan."""
    DUPLICATE_PLAYER = "duplicate_player"
    """A player listed twice (in ``players`` or in one round)."""
    APART_SELF = "apart_self"
    """A player asked to sit apart from themselves."""
    FIXED_TABLE = "fixed_table"
    """A player fixed to a table the round does not have."""
    FIXED_FULL = "fixed_full"
    """More players fixed to a table than it has seats."""
    APART_FIXED = "apart_fixed"
    """Two players who must sit apart are fixed to the same table."""
    APART_IMPOSSIBLE = "apart_impossible"
    """The apart pairs cannot all be honoured (too many players apart from each other)."""
    INVALID_PLAN = "invalid_plan"
    """A plan that does not seat everyone once per round at allowed tables, or breaks a rule."""


class SeatingError(ValueError):
    """A seating request that cannot be met, or a plan that breaks a rule.

    ``code`` says which rule, ``players`` who is involved; the message names them.
    """

    def __init__(self, code: SeatingProblem, message: str, players: Sequence[Hashable] = ()):
        super().__init__(message)
        self.code = code
        self.players = tuple(players)


def validate_plan(
    plan: Sequence[Sequence[Sequence[P]]],
    *,
    players: Sequence[P],
    table_sizes: Sequence[int] = (4, 5),
    prefer: int = 4,
    apart: Iterable[tuple[P, P]] = (),
    fixed: Mapping[P, int] = MappingProxyType({}),
) -> None:
    """Raise SeatingError (INVALID_PLAN) unless every round of ``plan`` is a valid seating.

    Valid: each of ``players`` sits exactly once per round and nobody else does, every table has
    an allowed size (the split's sizes when ``table_sizes`` cannot seat this many), no ``apart``
    pair shares a table and every ``fixed`` player sits at their table index. All faults found
    are listed in the message.
    """
    split = table_split(len(players), sizes=table_sizes, prefer=prefer)
    allowed = set(split.sizes) if split.fallback else set(table_sizes)
    expected = set(players)
    forbidden = {frozenset(pair) for pair in apart}
    faults: list[str] = []
    for number, tables in enumerate(plan, start=1):
        seated = [p for table in tables for p in table]
        doubles = sorted({repr(p) for p in seated if seated.count(p) > 1})
        missing = sorted(repr(p) for p in expected - set(seated))
        extra = sorted(repr(p) for p in set(seated) - expected)
        if doubles:
            faults.append(f"round {number}: seated twice: {', '.join(doubles)}")
        if missing:
            faults.append(f"round {number}: not seated: {', '.join(missing)}")
        if extra:
            faults.append(f"round {number}: not a player: {', '.join(extra)}")
        for t, table in enumerate(tables):
            if len(table) not in allowed:
                faults.append(f"round {number}, table {t}: {len(table)} players")
            faults.extend(
                f"round {number}, table {t}: {a!r} and {b!r} must sit apart"
                for a, b in combinations(table, 2)
                if frozenset((a, b)) in forbidden
            )
        for p, t in fixed.items():
            if p in expected and not (t < len(tables) and p in tables[t]):
                faults.append(f"round {number}: {p!r} must sit at table {t}")
    if faults:
        raise SeatingError(
            SeatingProblem.INVALID_PLAN, "Invalid seating plan: " + "; ".join(faults)
        )


def index_players(players: list[P]) -> dict[P, int]:
    index: dict[P, int] = {}
    for p in players:
        if p in index:
            raise SeatingError(
                SeatingProblem.DUPLICATE_PLAYER, f"Player {p!r} is listed twice.", (p,)
            )
        index[p] = len(index)
    return index


def check_round_unique(tables: Sequence[Sequence[P]], where: str) -> None:
    seen: set[P] = set()
    for table in tables:
        for p in table:
            if p in seen:
                raise SeatingError(
                    SeatingProblem.DUPLICATE_PLAYER, f"Player {p!r} sits twice in {where}.", (p,)
                )
            seen.add(p)


def present_apart(apart: Iterable[tuple[P, P]], index: Mapping[P, int]) -> set[frozenset[P]]:
    pairs: set[frozenset[P]] = set()
    for a, b in apart:
        if a == b:
            raise SeatingError(
                SeatingProblem.APART_SELF, f"Player {a!r} cannot sit apart from themselves.", (a,)
            )
        if a in index and b in index:
            pairs.add(frozenset((a, b)))
    return pairs


def present_fixed(
    fixed: Mapping[P, int],
    index: Mapping[P, int],
    sizes: Sequence[int],
    apart: set[frozenset[P]],
    players: Sequence[P],
) -> dict[P, int]:
    present = {p: t for p, t in fixed.items() if p in index}
    for p, t in present.items():
        if not 0 <= t < len(sizes):
            raise SeatingError(
                SeatingProblem.FIXED_TABLE,
                f"Player {p!r} is fixed to table {t}, but {len(players)} players sit at tables "
                f"0 to {len(sizes) - 1}.",
                (p,),
            )
    for t, size in enumerate(sizes):
        at_table = [p for p in players if present.get(p) == t]
        if len(at_table) > size:
            raise SeatingError(
                SeatingProblem.FIXED_FULL,
                f"{len(at_table)} players are fixed to table {t}, which seats {size}: "
                f"{', '.join(map(repr, at_table))}.",
                at_table,
            )
        for a, b in combinations(at_table, 2):
            if frozenset((a, b)) in apart:
                raise SeatingError(
                    SeatingProblem.APART_FIXED,
                    f"Players {a!r} and {b!r} must sit apart but are both fixed to table {t}.",
                    (a, b),
                )
    return present


def check_apart_feasible(
    apart: set[frozenset[P]], players: Sequence[P], sizes: Sequence[int]
) -> None:
    """Refuse what is clearly impossible; the search reports anything subtler."""
    neighbours: dict[P, set[P]] = {p: set() for p in players}
    for pair in apart:
        a, b = tuple(pair)
        neighbours[a].add(b)
        neighbours[b].add(a)
    need = min(sizes) - 1
    for p in players:
        if len(players) - 1 - len(neighbours[p]) < need:
            raise SeatingError(
                SeatingProblem.APART_IMPOSSIBLE,
                f"Player {p!r} must sit apart from {len(neighbours[p])} of the "
                f"{len(players) - 1} other players, leaving too few to fill a table.",
                (p,),
            )
    # A group that must all sit apart needs a table each: look for one greedily (in the order
    # of ``players`` among equals, so the message is the same every time).
    position = {p: i for i, p in enumerate(players)}
    for p in sorted(players, key=lambda q: -len(neighbours[q])):
        group = [p]
        for q in sorted(neighbours[p], key=lambda q: (-len(neighbours[q]), position[q])):
            if all(q in neighbours[g] for g in group):
                group.append(q)
        if len(group) > len(sizes):
            raise SeatingError(
                SeatingProblem.APART_IMPOSSIBLE,
                f"{len(group)} players must all sit apart but there are only {len(sizes)} "
                f"tables: {', '.join(map(repr, group))}.",
                group,
            )
