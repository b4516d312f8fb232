"""How good a seating is: repeated meetings, larger-table balance, and a lower bound.

Works on any schedule: a sequence of rounds, each a sequence of tables, each a sequence of
hashable player keys. Players may come and go between rounds (late entries, withdrawals).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
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
    tables of two sizes; the "5-table" with the default sizes). ``lower_bound``: no seating of the
    planned rounds, with the same players, table sizes and constraints, can have fewer repeats.
    ``seconds``: time the planner spent (0 when only measured); plans that differ only in it
    compare equal.
    """

    repeats: int
    max_meetings: int
    pairs_repeated: tuple[tuple[P, P, int], ...]
    five_spread: int
    lower_bound: int
    seconds: float = field(default=0.0, compare=False)


def meetings(schedule: Schedule) -> Counter[tuple[P, P]]:
    """How often each pair sat at one table, keyed by the pair in a stable order."""
    met: Counter[tuple[P, P]] = Counter()
    for tables in schedule:
        for table in tables:
            for a, b in combinations(sorted(table, key=_order), 2):
                met[(a, b)] += 1
    return met


def larger_table_counts(schedule: Schedule) -> Counter[P]:
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


def plan_quality(
    schedule: Schedule,
    *,
    played: int = 0,
    apart: Iterable[tuple[P, P]] = (),
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
    spread = max(counts[p] for p in last) - min(counts[p] for p in last) if last else 0
    return PlanQuality(
        repeats=sum(count - 1 for count in met.values() if count > 1),
        max_meetings=max(met.values(), default=0),
        pairs_repeated=tuple(repeated),
        five_spread=spread,
        lower_bound=repeat_lower_bound(schedule, played=played, apart=apart, fixed=fixed or {}),
        seconds=seconds,
    )


def repeat_lower_bound(
    schedule: Schedule,
    *,
    played: int,
    apart: Iterable[tuple[P, P]] = (),
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
    excess = Counter()
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
    return max(bound, history_repeats + forced)


def _order(p: object) -> tuple[str, object]:
    """Sort key for player keys of any hashable type (ints and strings may be mixed)."""
    return (type(p).__name__, p if isinstance(p, int | str | float | tuple) else repr(p))


def _pair(a: P, b: P) -> tuple[P, P]:
    return (a, b) if _order(a) <= _order(b) else (b, a)
