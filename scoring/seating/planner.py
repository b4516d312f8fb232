"""Plan the seating of one or more tournament rounds at once.

The planner seats the present players at tables of the tournament's sizes (``scoring.tables``
decides how many of each), for every remaining round together, with two goals: as few pairs as
possible meet again (counting the rounds already played), and everyone sits at a larger table
about equally often. Hard constraints: pairs that must sit apart, players fixed to a table.

The two goals can conflict: with tables of 5 and 4, a round with no more tables than a table has
seats keeps pairs of every 5-table together in every other round, and an even share of the
5-tables fixes how often that happens (``quality.spread_floor``: 18 players over 5 rounds at
5+5+4+4 repeat 20 times at least, 34 times with a spread of one). ``Balance`` says which wins:
``EVEN`` (the default) makes the larger-table counts differ by at most one as a hard rule (or as
little as the rounds played allow) and then seats for the fewest repeats; ``REPEATS`` seats for
the fewest repeats and evens the counts out only where that costs no repeat.

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
    fair_larger_counts,
    meetings,
    plan_quality,
    repeat_lower_bound,
    spread_floor,
)
from scoring.seating.search import TabuSearch
from scoring.seating.state import meeting_cost
from scoring.seating.validation import (
    SeatingError,
    SeatingProblem,
    check_apart_feasible,
    check_round_unique,
    index_players,
    present_apart,
    present_fixed,
)
from scoring.tables import table_split

P = TypeVar("P", bound=Hashable)


class Balance(StrEnum):
    """Which goal comes first when fewer repeats and even larger-table counts conflict."""

    EVEN = "even"
    """Larger-table counts differ by at most one (a hard rule), then the fewest repeats."""
    REPEATS = "repeats"
    """The fewest repeats, then larger-table counts as even as that allows."""


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
    apart_first_round: Iterable[tuple[P, P]] = (),
    balance: Balance | str = Balance.EVEN,
) -> SeatingPlan[P]:
    """Seat ``players`` for the next ``rounds`` rounds, given the rounds already played.

    ``history`` holds every played round as tables of player keys, withdrawn players included:
    their meetings count in the quality, and only pairs of present players can still be kept
    apart. Late entries simply have no history. ``apart`` pairs never share a table in any
    planned round, ``apart_first_round`` pairs (e.g. players of one club, at the start of a
    tournament) only in the first; entries of these and of ``fixed`` that name absent players
    are ignored. ``balance`` (a ``Balance`` or its value) orders the goals; under ``EVEN`` a
    player who missed rounds counts their share of those rounds' larger seats
    (``quality.fair_larger_counts``), and fixed players are left out of the rule.

    The first round is never the order given: a design (which maps players onto its points in
    that order) is renamed to start from a shuffled first round, and found again in the history
    of the next rounds, so replanning each round from the history keeps following it.

    The search stops at the first of: a plan that cannot be improved, ``time_limit`` seconds,
    ``max_iterations`` search steps (set it for results that do not depend on the machine's
    speed). Same arguments and seed, same plan, given enough time.

    ``start`` is an earlier plan for these rounds (e.g. the stored plan before a withdrawal or a
    late entry): the search starts from it instead of from scratch, with absent players dropped
    and new ones seated where there is room, so a small change gives a small replan.

    Raises SeatingError when the constraints cannot be met, ScoringError (``scoring.errors``)
    for a player count or table sizes the game does not allow.
    """
    started = time.perf_counter()
    balance = Balance(balance)
    if rounds < 1:
        raise SeatingError(SeatingProblem.ROUNDS, f"Cannot plan {rounds} rounds; plan at least 1.")
    players = list(players)
    index = index_players(players)
    sizes = table_split(len(players), sizes=table_sizes, prefer=prefer).sizes
    history = [[list(table) for table in tables] for tables in history]
    for number, tables in enumerate(history, start=1):
        check_round_unique(tables, f"round {number} of the history")
    apart_pairs = present_apart(apart, index)
    first_pairs = present_apart(apart_first_round, index) - apart_pairs
    fixed_tables = present_fixed(fixed, index, sizes, apart_pairs | first_pairs, players)
    check_apart_feasible(apart_pairs | first_pairs, players, sizes)

    met = {
        (index[a], index[b]) if index[a] < index[b] else (index[b], index[a]): count
        for (a, b), count in meetings(history).items()
        if a in index and b in index
    }
    sat_larger = fair_larger_counts(history, players)
    larger = [sat_larger[p] for p in players]
    mixed = sizes[0] != sizes[-1]
    larger_seats = rounds * sum(1 for size in sizes if size == sizes[0]) * sizes[0] if mixed else 0
    bounds = None
    if balance == Balance.EVEN and mixed:
        fixed_larger = sum(1 for t in fixed_tables.values() if sizes[t] == sizes[0])
        bounds = _even_bounds(
            larger,
            [p not in fixed_tables for p in players],
            rounds,
            larger_seats - rounds * fixed_larger,
        )
    search = TabuSearch(
        n=len(players),
        sizes=sizes,
        rounds=rounds,
        met=met,
        larger=larger,
        apart=[(index[a], index[b]) for a, b in apart_pairs],
        fixed={index[p]: t for p, t in fixed_tables.items()},
        rng=random.Random(seed),
        apart_first=[(index[a], index[b]) for a, b in first_pairs],
        bounds=bounds,
    )

    # A stand-in for the free rounds: the lower bound only needs who plays and at what sizes.
    stand_in = [_fit([list(range(len(players)))], sizes, {})] * rounds
    planned_shape = [[[players[i] for i in table] for table in r] for r in stand_in]
    bound = repeat_lower_bound(
        [*history, *planned_shape], played=len(history), apart=apart_pairs, fixed=fixed_tables
    )
    absent_repeats = sum(
        count - 1
        for (a, b), count in meetings(history).items()
        if count > 1 and (a not in index or b not in index)
    )
    # Pairs that met more than twice already cost more than their repeats.
    history_surplus = sum(meeting_cost(c) - (c - 1) for c in met.values() if c > 1)
    pair_floor = bound - absent_repeats + history_surplus
    if bounds is not None and not history and not fixed_tables:
        # Under the even rule no plan beats the spread floor (a pair meeting m times is
        # together in C(m, 2) <= (m - 1)**3 pairs of rounds).
        pair_floor = max(pair_floor, spread_floor(tuple(sizes), rounds, 1) or 0)
    target = (0, search.pair_weight * pair_floor, _balance_floor(larger, larger_seats, rounds))

    if start:
        seeded = [
            _fit([[index[p] for p in table if p in index] for table in tables], sizes, search.fixed)
            for tables in list(start)[:rounds]
        ]
    else:
        played = [[[index[p] for p in table if p in index] for table in r] for r in history]
        # A design for two sizes seats some players at the larger tables in every round.
        design = _design_start(sizes, rounds, played) if bounds is None else []
        if design and not played:
            design = _relabel_to(design, search.greedy_rounds([])[0]) or []
        seeded = [_fit(r, sizes, search.fixed) for r in design]
    search.greedy_rounds(seeded)
    # A design for tables of two sizes is repeat-free but seats a few players at the larger
    # tables every round, and no single move leaves it without a repeat; fresh starts look for
    # an equally good plan with a better spread (the design stays the best until one is found).
    again = seeded if start or not search.mixed else []
    best, _steps = search.run(
        target=target,
        deadline=started + time_limit,
        max_iterations=max_iterations,
        restart=lambda: search.greedy_rounds(again),
    )

    plan = tuple(
        tuple(
            tuple(players[i] for i in sorted(table))
            for table in _arrange(round_tables, sizes, set(search.fixed.values()))
        )
        for round_tables in best
    )
    for number, round_tables in enumerate(plan, start=len(history) + 1):
        kept_apart = apart_pairs | first_pairs if number == len(history) + 1 else apart_pairs
        for table in round_tables:
            for a, b in combinations(table, 2):
                if frozenset((a, b)) in kept_apart:
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


# -- helpers ------------------------------------------------------------------------------------


def _design_start(
    sizes: tuple[int, ...], rounds: int, played: Sequence[Sequence[Sequence[int]]]
) -> list[list[list[int]]]:
    """Repeat-free rounds from a design, when one fits and the rounds played are its first ones.

    Players are the design's points in the order given, so a tournament that replans every
    round from its history, with the same players in the same order, keeps following the
    design. A design with fewer rounds than asked leaves the search the rest to fill.
    """
    design = design_for(sizes, len(played) + rounds)
    if not design:
        return []
    if played:
        design = _relabel_to(design, played[0])
        if design is None:
            return []
    for tables, design_tables in zip(played, design, strict=False):
        if {frozenset(t) for t in tables} != {frozenset(t) for t in design_tables}:
            return []
    return design[len(played) :]


def _relabel_to(
    design: list[list[list[int]]], first: Sequence[Sequence[int]]
) -> list[list[list[int]]] | None:
    """Rename the design's points so that its first round is ``first``, or None when ``first``
    seats other players or at other sizes.

    Renaming keeps a design repeat-free, so a shuffled first round, or one that honours
    constraints of its own (apart in the first round only), comes with the design's later
    rounds for free. The renaming depends on the tables of ``first`` alone (tables in order of
    size and lowest player, each in order of player), so it can be found again from the first
    round as played.
    """

    def canonical(tables: Sequence[Sequence[int]]) -> list[list[int]]:
        return sorted((sorted(table) for table in tables), key=lambda t: (-len(t), t[0]))

    points, players = canonical(design[0]), canonical(first)
    if [len(t) for t in points] != [len(t) for t in players] or sorted(
        p for t in players for p in t
    ) != list(range(sum(map(len, players)))):
        return None
    name: dict[int, int] = {}
    for point_table, player_table in zip(points, players, strict=True):
        name.update(zip(point_table, player_table, strict=True))
    return [[[name[point] for point in table] for table in tables] for tables in design]


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


def _arrange(
    tables: Sequence[Sequence[int]], sizes: Sequence[int], fixed_tables: set[int]
) -> list[Sequence[int]]:
    """The tables of one round in the order of ``sizes``: larger first, fixed tables in place.

    The search may trade the sizes of two tables of a round (never of a table with a fixed
    player), so the others are put back in order of size.
    """
    loose = sorted(
        (table for t, table in enumerate(tables) if t not in fixed_tables), key=len, reverse=True
    )
    order = iter(loose)
    return [tables[t] if t in fixed_tables else next(order) for t in range(len(sizes))]


def _even_bounds(
    larger: Sequence[int], movable: Sequence[bool], rounds: int, seats: int
) -> list[tuple[int, int]]:
    """Each player's (lowest, highest) larger-table count under the even rule: the narrowest
    window [m, m + spread] that the movable players can all reach from their counts so far by
    sharing ``seats`` more over ``rounds`` rounds (at most one a round each). Fixed players are
    not bound."""
    counts = [c for c, free in zip(larger, movable, strict=True) if free]
    unbound = (0, max(larger, default=0) + rounds + 1)
    if not counts:
        return [unbound] * len(larger)
    total = sum(counts) + seats
    for spread in range(rounds + max(counts) - min(counts) + 1):
        for low in range(min(counts), max(counts) + rounds + 1):
            lows = [max(low, c) for c in counts]
            highs = [min(low + spread, c + rounds) for c in counts]
            if all(a <= b for a, b in zip(lows, highs, strict=True)) and (
                sum(lows) <= total <= sum(highs)
            ):
                window = iter(zip(lows, highs, strict=True))
                return [next(window) if free else unbound for free in movable]
    return [unbound] * len(larger)


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
