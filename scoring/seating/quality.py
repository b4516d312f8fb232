"""How good a seating is: repeated meetings, larger-table balance, and a lower bound.

Works on any schedule: a sequence of rounds, each a sequence of tables, each a sequence of
hashable player keys. Players may come and go between rounds (late entries, withdrawals).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from itertools import combinations
from math import comb
from typing import Generic, TypeVar

P = TypeVar("P", bound=Hashable)

Schedule = Sequence[Sequence[Sequence[P]]]


@dataclass(frozen=True, slots=True)
class PlanQuality(Generic[P]):
    """The numbers by which seatings are compared, counted over the whole tournament.

    ``repeats``: over all pairs, the times they met minus one (0 when nobody met anyone twice).
    ``max_meetings``: the most times any one pair met. ``pairs_repeated``: each pair that met more
    than once with how often, most often first. ``five_spread``: among the players of the last
    round, the most minus the fewest times a player sat at a larger table of a round (one with
    tables of two sizes; the "5-table" with the default sizes), a player who missed rounds
    credited with their share of those rounds' larger seats (``fair_larger_counts``).
    ``larger_counts``: each player of the last round with the times they really sat at a larger
    table, most first. ``lower_bound``: no seating of the planned rounds, with the same players,
    table sizes and constraints, can have fewer repeats. ``seconds``: time the planner spent (0
    when only measured); plans that differ only in it compare equal.
    """

    repeats: int
    max_meetings: int
    pairs_repeated: tuple[tuple[P, P, int], ...]
    five_spread: int
    lower_bound: int
    seconds: float = field(default=0.0, compare=False)
    larger_counts: tuple[tuple[P, int], ...] = ()


def meetings(schedule: Schedule[P]) -> Counter[tuple[P, P]]:
    """How often each pair sat at one table, keyed by the pair in a stable order."""
    met: Counter[tuple[P, P]] = Counter()
    for tables in schedule:
        for table in tables:
            for a, b in combinations(sorted(table, key=_order), 2):
                met[(a, b)] += 1
    return met


def larger_table_counts(schedule: Schedule[P]) -> Counter[P]:
    """How often each player sat at a table larger than the smallest of that round."""
    counts: Counter[P] = Counter()
    for tables in schedule:
        for p in (p for table in tables for p in table):
            counts[p] += 0
        if not tables:
            continue
        sizes = [len(table) for table in tables]
        smallest = min(sizes)
        if max(sizes) == smallest:
            continue
        for table in tables:
            if len(table) > smallest:
                counts.update(table)
    return counts


def fair_larger_counts(schedule: Schedule[P], players: Iterable[P]) -> dict[P, int]:
    """``larger_table_counts`` for ``players``, each credited for the rounds they missed with
    that round's share of larger seats (seats over players, summed and rounded half up): the
    counts that the even rule compares, so a late entry is not owed every larger seat."""
    counts = larger_table_counts(schedule)
    credit: dict[P, Fraction] = {}
    players = list(players)
    for tables in schedule:
        present = {p for table in tables for p in table}
        if not tables or len({len(table) for table in tables}) < 2:
            continue
        smallest = min(len(table) for table in tables)
        seats = sum(len(table) for table in tables if len(table) > smallest)
        for p in players:
            if p not in present:
                credit[p] = credit.get(p, Fraction(0)) + Fraction(seats, len(present))
    return {p: counts[p] + int(credit.get(p, Fraction(0)) + Fraction(1, 2)) for p in players}


def plan_quality(
    schedule: Schedule[P],
    *,
    played: int = 0,
    apart: Iterable[Iterable[P]] = (),
    fixed: Mapping[P, int] | None = None,
    seconds: float = 0.0,
) -> PlanQuality[P]:
    """Measure a schedule; rounds after the first ``played`` count as free for the lower bound.

    ``apart`` and ``fixed`` only sharpen the lower bound (the planner passes its constraints).
    """
    met = meetings(schedule)
    repeated = sorted(
        ((a, b, count) for (a, b), count in met.items() if count > 1),
        key=lambda item: (-item[2], _order(item[0]), _order(item[1])),
    )
    counts = larger_table_counts(schedule)
    last = [p for table in schedule[-1] for p in table] if schedule else []
    fair = fair_larger_counts(schedule, last)
    spread = max(fair.values()) - min(fair.values()) if last else 0
    return PlanQuality(
        repeats=sum(count - 1 for count in met.values() if count > 1),
        max_meetings=max(met.values(), default=0),
        pairs_repeated=tuple(repeated),
        five_spread=spread,
        lower_bound=repeat_lower_bound(schedule, played=played, apart=apart, fixed=fixed or {}),
        seconds=seconds,
        larger_counts=tuple(
            sorted(((p, counts[p]) for p in last), key=lambda c: (-c[1], _order(c[0])))
        ),
    )


def repeat_lower_bound(
    schedule: Schedule[P],
    *,
    played: int,
    apart: Iterable[Iterable[P]] = (),
    fixed: Mapping[P, int] | None = None,
) -> int:
    """A lower bound on the repeats of any reseating of the rounds after ``played``.

    Who sits where in the free rounds is open, but each free round keeps its players and its
    table sizes. A player p who meets ``d`` opponents (with multiplicity) among ``k`` possible
    ones repeats at least ``d - k`` times; each repeat is counted by both players of its pair.
    History repeats stay as they are. In free rounds a player meets at least (smallest table - 1)
    players; the extra seats at larger tables go first to players who still have room for new
    opponents. Pairs that ``fixed`` keeps at one table meet in every free round.
    """
    history, future = schedule[:played], schedule[played:]
    fixed = fixed or {}
    forbidden = {frozenset(pair) for pair in apart}
    met_before = meetings(history)
    known: dict[P, set[P]] = {}
    excess: Counter[P] = Counter()
    for (a, b), count in met_before.items():
        known.setdefault(a, set()).add(b)
        known.setdefault(b, set()).add(a)
        excess[a] += count - 1
        excess[b] += count - 1
    base: Counter[P] = Counter()
    room: Counter[P] = Counter()
    reachable: dict[P, set[P]] = {}
    extra = 0
    for tables in future:
        present = [p for table in tables for p in table]
        if not present:
            continue
        sizes = [len(table) for table in tables]
        smallest, largest = min(sizes), max(sizes)
        extra += sum(size * (size - smallest) for size in sizes)
        for p in present:
            base[p] += smallest - 1
            room[p] += largest - smallest
            reachable.setdefault(p, set()).update(present)
    total = sum(excess.values())
    slack_total = 0
    for p, others in reachable.items():
        new = sum(
            1
            for q in others
            if q != p and q not in known.get(p, ()) and frozenset((p, q)) not in forbidden
        )
        slack = new - base[p]
        if slack < 0:
            total -= slack
        slack_total += min(room[p], max(0, slack))
    total += max(0, extra - slack_total)
    bound = (total + 1) // 2
    # Pairs fixed to one table meet in every free round, whatever else happens.
    by_table: dict[int, list[P]] = {}
    for p, t in fixed.items():
        by_table.setdefault(t, []).append(p)
    forced = sum(
        max(0, met_before[_pair(a, b)] + len(future) - 1) - max(0, met_before[_pair(a, b)] - 1)
        for group in by_table.values()
        for a, b in combinations(group, 2)
    )
    history_repeats = sum(count - 1 for count in met_before.values() if count > 1)
    return max(bound, history_repeats + forced, history_repeats + _twice_bound(future))


def _twice_bound(future: Schedule[P]) -> int:
    """Repeats forced among the free rounds by ``overlap_floor``: pairs that sit together in
    two of them. A pair meeting m times in F free rounds is together in m(m-1)/2 pairs of rounds
    for m - 1 repeats, at most F/2 such pairs per repeat."""
    rounds = [
        (frozenset(p for table in tables for p in table), tuple(sorted(map(len, tables))))
        for tables in future
    ]
    together = 0
    for (players_r, sizes_r), (players_s, sizes_s) in combinations(rounds, 2):
        if players_r == players_s:
            floors = [overlap_floor(sizes_r, k) for k in range(len(players_r) + 1)]
            if sizes_r == sizes_s and any(f is not None for f in floors):
                together += min(f for f in floors if f is not None)
    return -(-2 * together // len(future)) if together else 0


@cache
def overlap_floor(sizes: tuple[int, ...], overlap: int) -> int | None:
    """The fewest pairs at one table in both of two rounds of the same players at tables of
    ``sizes``, when ``overlap`` players sit at a larger table in both (None if impossible).

    With M[i][j] players at table i of one round and table j of the other, that is the sum of
    M[i][j](M[i][j] - 1)/2; rows and columns sum to the table sizes, so a table larger than the
    number of tables always keeps a pair together. The larger-by-larger block of M sums to
    ``overlap`` (with one size, every player is "larger"); spreading each block's sum as evenly
    as its cells allow gives the least.
    """
    big = max(sizes)
    n_large = sizes.count(big)
    large = n_large * big
    small_tables = len(sizes) - n_large
    small = sum(sizes) - large
    cross = large - overlap
    if overlap < 0 or cross < 0 or cross > small or (not small_tables and cross):
        return None
    if len(set(sizes)) > 2:
        return 0
    floor = _even(overlap, n_large * n_large)
    if small_tables:
        floor += 2 * _even(cross, n_large * small_tables) + _even(
            small - cross, small_tables * small_tables
        )
    return floor


def spread_floor(sizes: tuple[int, ...], rounds: int, spread: int | None = None) -> int | None:
    """The fewest pairs that meet twice in any ``rounds`` rounds of the same players at tables
    of ``sizes`` where no pair meets three times and the players' larger-table counts differ by
    at most ``spread`` (None: any spread). None when no such counts exist.

    Over any two rounds, the players at a larger table in both number ``overlap``; summed over
    all pairs of rounds that is the sum over players of C(count, 2), fixed by the counts. So the
    least is the best split of that sum over the pairs of rounds, each costing ``overlap_floor``.
    """
    n, big = sum(sizes), max(sizes)
    pairs = comb(rounds, 2)
    costs = {k: f for k in range(n + 1) if (f := overlap_floor(sizes, k)) is not None}
    if spread is None or len(set(sizes)) == 1:
        return pairs * min(costs.values())
    seats = rounds * big * sizes.count(big)
    shared = set()
    for low in range(rounds + 1):
        shared |= _count_sums(n, seats, low, min(rounds, low + spread))
    if not shared:
        return None
    # reach[s]: the least cost of the pairs of rounds so far with overlaps summing to s.
    reach = {0: 0}
    top = max(shared)
    for _ in range(pairs):
        step: dict[int, int] = {}
        for s, cost in reach.items():
            for k, f in costs.items():
                if s + k <= top and cost + f < step.get(s + k, cost + f + 1):
                    step[s + k] = cost + f
        reach = step
    return min((reach[s] for s in shared if s in reach), default=None)


def _count_sums(n: int, seats: int, low: int, high: int) -> set[int]:
    """Every sum of C(count, 2) over ``n`` counts in low..high that add up to ``seats``."""
    found: set[int] = set()

    def fill(value: int, left: int, seats_left: int, total: int) -> None:
        if value == high:
            if left * value == seats_left:
                found.add(total + left * comb(value, 2))
            return
        for count in range(left + 1):
            rest = seats_left - count * value
            if rest >= 0:
                fill(value + 1, left - count, rest, total + count * comb(value, 2))

    if low <= high:
        fill(low, n, seats, 0)
    return found


def _even(total: int, cells: int) -> int:
    """The least sum of C(x, 2) over ``cells`` non-negative integers x that add up to ``total``."""
    if not cells:
        return 0
    share, rest = divmod(total, cells)
    return rest * comb(share + 1, 2) + (cells - rest) * comb(share, 2)


def _order(p: object) -> tuple[str, object]:
    """Sort key for player keys of any hashable type (ints and strings may be mixed)."""
    return (type(p).__name__, p if isinstance(p, int | str | float | tuple) else repr(p))


def _pair(a: P, b: P) -> tuple[P, P]:
    return (a, b) if _order(a) <= _order(b) else (b, a)
