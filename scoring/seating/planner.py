"""Plan the seating of one or more tournament rounds at once, and check a plan.

The planner seats the present players at tables of the tournament's sizes (``scoring.tables``
decides how many of each), for every remaining round together, so that as few pairs as possible
meet again (counting the rounds already played) and, next, everyone sits at a larger table about
equally often. Hard constraints: pairs that must sit apart, players fixed to a table.

Rounds are seeded from an exact design where the numbers fit (``designs``), otherwise greedily
round by round, and then improved by a tabu search over all planned rounds (``search``) until
the plan provably cannot get better, the time limit or the iteration budget is reached.
"""

from __future__ import annotations

import heapq
import random
import time
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import combinations
from types import MappingProxyType
from typing import Generic, TypeVar

from scoring.seating.designs import design_for
from scoring.seating.quality import (
    PlanQuality,
    larger_table_counts,
    meetings,
    plan_quality,
    repeat_lower_bound,
)
from scoring.seating.search import TabuSearch
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


@dataclass(frozen=True, slots=True)
class SeatingPlan(Generic[P]):
    """The planned rounds (round -> tables, larger tables first -> players) and their quality.

    Table index i means the same table (size and place) in every planned round. The quality is
    counted over the history passed in plus these rounds.
    """

    rounds: tuple[tuple[tuple[P, ...], ...], ...]
    quality: PlanQuality[P]


def plan_seating(
    players: Sequence[P],
    *,
    rounds: int = 1,
    history: Sequence[Sequence[Sequence[P]]] = (),
    table_sizes: Sequence[int] = (4, 5),
    prefer: int = 4,
    apart: Iterable[tuple[P, P]] = (),
    fixed: Mapping[P, int] = MappingProxyType({}),
    seed: int = 0,
    time_limit: float = 5.0,
    max_iterations: int | None = None,
    start: Sequence[Sequence[Sequence[P]]] = (),
) -> SeatingPlan[P]:
    """Seat ``players`` for the next ``rounds`` rounds, given the rounds already played.

    ``history`` holds every played round as tables of player keys, withdrawn players included:
    their meetings count in the quality, and only pairs of present players can still be kept
    apart. Late entries simply have no history. ``apart`` and ``fixed`` entries that name absent
    players are ignored. The search stops at the first of: a plan that cannot be improved,
    ``time_limit`` seconds, ``max_iterations`` search steps (set it for results that do not depend
    on the machine's speed). Same arguments and seed, same plan, given enough time.

    Raises SeatingError when the constraints cannot be met, ScoringError (``scoring.errors``)
    for a player count or table sizes the game does not allow.
    """
    started = time.perf_counter()
    if rounds < 1:
        raise SeatingError(SeatingProblem.ROUNDS, f"Cannot plan {rounds} rounds; plan at least 1.")
    players = list(players)
    index = _index_players(players)
    sizes = table_split(len(players), sizes=table_sizes, prefer=prefer).sizes
    history = [[list(table) for table in tables] for tables in history]
    for number, tables in enumerate(history, start=1):
        _check_round_unique(tables, f"round {number} of the history")
    apart_pairs = _present_apart(apart, index)
    fixed_tables = _present_fixed(fixed, index, sizes, apart_pairs, players)
    _check_apart_feasible(apart_pairs, players, sizes)

    met = {
        (index[a], index[b]) if index[a] < index[b] else (index[b], index[a]): count
        for (a, b), count in meetings(history).items()
        if a in index and b in index
    }
    sat_larger = larger_table_counts(history)
    larger = [sat_larger[p] for p in players]
    search = TabuSearch(
        n=len(players),
        sizes=sizes,
        rounds=rounds,
        met=met,
        larger=larger,
        apart=[(index[a], index[b]) for a, b in apart_pairs],
        fixed={index[p]: t for p, t in fixed_tables.items()},
        rng=random.Random(seed),
    )

    # A stand-in for the free rounds: the lower bound only needs who plays and at what sizes.
    stand_in = [_fit([list(range(len(players)))], sizes, {})] * rounds
    planned_shape = [[[players[i] for i in table] for table in r] for r in stand_in]
    bound = repeat_lower_bound(
        history + planned_shape, played=len(history), apart=apart_pairs, fixed=fixed_tables
    )
    absent_repeats = sum(
        count - 1
        for (a, b), count in meetings(history).items()
        if count > 1 and (a not in index or b not in index)
    )
    history_surplus = sum((c - 1) ** 2 - (c - 1) for c in met.values() if c > 1)
    target = search.pair_weight * (bound - absent_repeats + history_surplus) + _balance_floor(
        larger,
        rounds * sum(1 for size in sizes if size == sizes[0]) * sizes[0]
        if sizes[0] != sizes[-1]
        else 0,
        rounds,
    )

    if start:
        seeded = [
            _fit([[index[p] for p in table if p in index] for table in tables], sizes, search.fixed)
            for tables in list(start)[:rounds]
        ]
    else:
        played = [[[index[p] for p in table if p in index] for table in r] for r in history]
        seeded = [_fit(r, sizes, search.fixed) for r in _design_start(sizes, rounds, played)]
    search.greedy_rounds(seeded)
    best, _steps = search.run(
        target=target,
        deadline=started + time_limit,
        max_iterations=max_iterations,
    )

    plan = tuple(
        tuple(tuple(players[i] for i in sorted(table)) for table in round_tables)
        for round_tables in best
    )
    for number, round_tables in enumerate(plan, start=len(history) + 1):
        for table in round_tables:
            for a, b in combinations(table, 2):
                if frozenset((a, b)) in apart_pairs:
                    raise SeatingError(
                        SeatingProblem.APART_IMPOSSIBLE,
                        f"Could not keep {a!r} and {b!r} apart in round {number}; "
                        "the apart pairs leave no seating.",
                        (a, b),
                    )
    quality = plan_quality(
        [*history, *plan],
        played=len(history),
        apart=[tuple(pair) for pair in apart_pairs],
        fixed=fixed_tables,
        seconds=time.perf_counter() - started,
    )
    return SeatingPlan(rounds=plan, quality=quality)


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


# -- checks of the request ---------------------------------------------------------------------


def _index_players(players: list[P]) -> dict[P, int]:
    index: dict[P, int] = {}
    for p in players:
        if p in index:
            raise SeatingError(
                SeatingProblem.DUPLICATE_PLAYER, f"Player {p!r} is listed twice.", (p,)
            )
        index[p] = len(index)
    return index


def _check_round_unique(tables: Sequence[Sequence[P]], where: str) -> None:
    seen: set[P] = set()
    for table in tables:
        for p in table:
            if p in seen:
                raise SeatingError(
                    SeatingProblem.DUPLICATE_PLAYER, f"Player {p!r} sits twice in {where}.", (p,)
                )
            seen.add(p)


def _present_apart(apart: Iterable[tuple[P, P]], index: Mapping[P, int]) -> set[frozenset[P]]:
    pairs: set[frozenset[P]] = set()
    for a, b in apart:
        if a == b:
            raise SeatingError(
                SeatingProblem.APART_SELF, f"Player {a!r} cannot sit apart from themselves.", (a,)
            )
        if a in index and b in index:
            pairs.add(frozenset((a, b)))
    return pairs


def _present_fixed(
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


def _check_apart_feasible(
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
    # A group that must all sit apart needs a table each: look for one greedily.
    for p in sorted(players, key=lambda q: -len(neighbours[q])):
        group = [p]
        for q in sorted(neighbours[p], key=lambda q: -len(neighbours[q])):
            if all(q in neighbours[g] for g in group):
                group.append(q)
        if len(group) > len(sizes):
            raise SeatingError(
                SeatingProblem.APART_IMPOSSIBLE,
                f"{len(group)} players must all sit apart but there are only {len(sizes)} "
                f"tables: {', '.join(map(repr, group))}.",
                group,
            )


# -- helpers ------------------------------------------------------------------------------------


def _design_start(
    sizes: tuple[int, ...], rounds: int, played: Sequence[Sequence[Sequence[int]]]
) -> list[list[list[int]]]:
    """Repeat-free rounds from a design, when one fits and the rounds played are its first ones.

    Players are the design's points in the order given, so a tournament that replans every
    round from its history, with the same players in the same order, keeps following the
    design. A design that covers every round is the answer. One that falls short leaves the
    search its last rounds to fill, and those fill better (32 players over 10 rounds: 12
    repeats instead of 16) when the last two design rounds are left open as well.
    """
    design = design_for(sizes, len(played) + rounds)
    if not design:
        return []
    for tables, design_tables in zip(played, design, strict=False):
        if {frozenset(t) for t in tables} != {frozenset(t) for t in design_tables}:
            return []
    if len(design) < len(played) + rounds:
        design = design[: max(len(played), len(design) - 2)]
    return design[len(played) :]


def _fit(
    tables: Sequence[Sequence[int]], sizes: Sequence[int], fixed: Mapping[int, int]
) -> list[list[int]]:
    """Reshape one round to ``sizes``: fixed players at their tables, others kept where they can.

    Players 0..sum(sizes)-1 missing from ``tables`` (late entries) fill the free seats.
    """
    new: list[list[int]] = [[] for _ in sizes]
    for p, t in fixed.items():
        new[t].append(p)
    overflow = []
    seen = set(fixed)
    for t, table in enumerate(tables):
        for p in table:
            if p in seen:
                continue
            seen.add(p)
            if t < len(new) and len(new[t]) < sizes[t]:
                new[t].append(p)
            else:
                overflow.append(p)
    overflow.extend(p for p in range(sum(sizes)) if p not in seen)
    for p in overflow:
        t = next(t for t, table in enumerate(new) if len(table) < sizes[t])
        new[t].append(p)
    return new


def _balance_floor(larger: Sequence[int], seats: int, rounds: int) -> int:
    """The least sum of squared larger-table counts reachable by giving out ``seats`` more.

    Each player can take at most one larger seat per round; the lowest counts are filled first.
    """
    heap = [(count, 0) for count in larger]
    heapq.heapify(heap)
    full = []
    for _ in range(seats):
        count, taken = heapq.heappop(heap)
        while taken >= rounds:
            full.append(count)
            count, taken = heapq.heappop(heap)
        heapq.heappush(heap, (count + 1, taken + 1))
    return sum(count * count for count in full) + sum(count * count for count, _ in heap)
