"""A seating plan under local search: who sits where, how often each pair met, what it costs.

The state is every planned round at once, with the number of times each pair has met (history
included) kept in a matrix, so that a move's change of cost is computed in O(table size).

Two moves. A *swap* exchanges two players of one round between their tables. A *transfer*
moves one player of a round from a larger table to a smaller one (sizes k and k - 1), so the two
tables trade sizes: it changes the larger-table counts of eight players at once where a swap
changes two, which is what lets the search even those counts out without undoing a good
seating. Tables with a fixed player never change size, so the fixed player keeps their table.

The cost of a pair that met m times is ``pair_weight * (m - 1)**3``: a third meeting costs as
much as seven second ones, so no pair meets three times where more pairs meeting twice would do
(with squares a third meeting costs three, and the search still settled for a triple now and
then). Added to that, when a round has tables of two sizes: the sum over players of the square
of how often they sat at a larger table (minimal when those counts differ by at most one). The
search weighs the two terms so that it can trade them while it moves; plans are compared on the
pair term first, the spread of the counts next and the balance term last (``key``). Under the
even rule (``bounds``: each player's lowest and highest count) every count outside its bounds
adds a third term, compared before all others. A pair that
must sit apart starts at a meeting count of ``APART`` so every meeting of it costs far more than
any repeat.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

Rounds = list[list[list[int]]]

APART = 1_000
"""The starting meeting count of a pair that must sit apart."""


def meeting_cost(times: int) -> int:
    """The cost, in units of ``pair_weight``, of a pair that met ``times`` times."""
    return max(0, times - 1) ** 3


class PlanState:
    """``n`` players numbered 0..n-1 over ``rounds`` rounds of tables sized ``sizes``."""

    def __init__(
        self,
        *,
        n: int,
        sizes: Sequence[int],
        rounds: int,
        met: dict[tuple[int, int], int],
        larger: Sequence[int],
        apart: Sequence[tuple[int, int]],
        fixed: dict[int, int],
        rng: random.Random,
        apart_first: Sequence[tuple[int, int]] = (),
        bounds: Sequence[tuple[int, int]] | None = None,
    ) -> None:
        self.n = n
        self.sizes = tuple(sizes)
        self.n_rounds = rounds
        self.rng = rng
        self.fixed = fixed
        self.movable = [p not in fixed for p in range(n)]
        self.mixed = self.sizes[0] != self.sizes[-1]
        self.big = self.sizes[0]
        # Transfers need exactly two sizes one apart, and tables free of fixed players.
        self.can_transfer = self.mixed and set(self.sizes) == {self.big, self.big - 1}
        self.resizable = [t not in set(fixed.values()) for t in range(len(self.sizes))]
        total_rounds = rounds + max(larger, default=0)
        self.pair_weight = 2 * (total_rounds + 2)
        top = APART + rounds + max(met.values(), default=0) + 2
        # inc[c]: what one more meeting adds to a pair that met c times.
        self.inc = [self.pair_weight * (meeting_cost(c + 1) - meeting_cost(c)) for c in range(top)]
        for c in range(APART, top):
            self.inc[c] = self.pair_weight * 10_000 * (c - APART + 1)
        self.base = [[0] * n for _ in range(n)]
        for (a, b), count in met.items():
            self.base[a][b] = self.base[b][a] = count
        for a, b in apart:
            self.base[a][b] = self.base[b][a] = APART
        # Pairs kept apart in the first planned round only: a penalty as heavy as an apart
        # meeting, checked in round 0 alone.
        self.first_apart: list[set[int]] = [set() for _ in range(n)]
        for a, b in apart_first:
            self.first_apart[a].add(b)
            self.first_apart[b].add(a)
        self.first_penalty = self.inc[APART]
        self.base_larger = list(larger)
        self.balance_weight = 1
        # The even rule: each player's larger-table count within bounds[p] (lowest, highest).
        # Every count outside costs ``excess_weight``, about two repeats: heavy enough that the
        # search comes back quickly, light enough that it may pass through a plan outside the
        # bounds on the way to a better one. Plans are compared on the excess first (``key``).
        self.bounds = list(bounds) if bounds is not None else None
        self.excess_weight = 2 * self.pair_weight if bounds is not None else 0
        top_count = max(larger, default=0) + rounds + 2
        # bal[p][c]: the balance cost of player p sitting c times at a larger table.
        self.bal = [
            [self.balance_weight * c * c + self.excess_weight * self._outside(p, c)
             for c in range(top_count)]
            for p in range(n)
        ]  # fmt: skip
        self.tables: Rounds = []

    # -- the plan and its cost -------------------------------------------------------------

    def load(self, rounds: Rounds) -> None:
        """Take ``rounds`` as the current plan: each round's tables sized as ``sizes`` in some
        order, fixed players at their tables."""
        self.tables = [[list(table) for table in r] for r in rounds]
        self.where = [[0] * self.n for _ in rounds]
        self.large = [[self.mixed and len(t) == self.big for t in r] for r in self.tables]
        self.met = [row[:] for row in self.base]
        self.larger = self.base_larger[:]
        for r, round_tables in enumerate(self.tables):
            for t, table in enumerate(round_tables):
                for i, a in enumerate(table):
                    self.where[r][a] = t
                    if self.large[r][t]:
                        self.larger[a] += 1
                    row = self.met[a]
                    for b in table[i + 1 :]:
                        row[b] += 1
                        self.met[b][a] += 1
        self.balance = sum(x * x for x in self.larger)
        self.excess = sum(self._outside(p, c) for p, c in enumerate(self.larger))
        self.cost = self.full_cost()

    def full_cost(self) -> int:
        cost = 0
        cum = [0]
        for c in range(1, len(self.inc)):
            cum.append(cum[-1] + self.inc[c - 1])
        for a in range(self.n):
            row = self.met[a]
            for b in range(a + 1, self.n):
                cost += cum[row[b]] - cum[self.base[a][b]] if row[b] >= APART else cum[row[b]]
        if self.tables:
            for table in self.tables[0]:
                for i, a in enumerate(table):
                    cost += self.first_penalty * sum(
                        1 for b in table[i + 1 :] if b in self.first_apart[a]
                    )
        return cost + sum(self.bal[p][c] for p, c in enumerate(self.larger))

    def pair_cost(self) -> int:
        return self.cost - self.balance_weight * self.balance - self.excess_weight * self.excess

    def key(self) -> tuple[int, int, int, int]:
        """How good the plan is: the counts outside the even rule's bounds first (always 0
        without the rule), then the pair term, then the spread of the larger-table counts (what
        players see), then their sum of squares (which also rewards evening out a count that is
        not at an extreme)."""
        larger = self.larger
        spread = max(larger, default=0) - min(larger, default=0)
        return (self.excess, self.pair_cost(), spread, self.balance)

    def snapshot(self) -> Rounds:
        return [[table[:] for table in r] for r in self.tables]

    # -- moves -----------------------------------------------------------------------------

    def swap_delta(self, r: int, a: int, b: int) -> int:
        ta, tb = self.where[r][a], self.where[r][b]
        inc, met = self.inc, self.met
        row_a, row_b = met[a], met[b]
        delta = 0
        for x in self.tables[r][ta]:
            if x != a:
                delta += inc[row_b[x]] - inc[row_a[x] - 1]
        for y in self.tables[r][tb]:
            if y != b:
                delta += inc[row_a[y]] - inc[row_b[y] - 1]
        if r == 0:
            first_a, first_b = self.first_apart[a], self.first_apart[b]
            if first_a or first_b:
                for x in self.tables[0][ta]:
                    if x != a:
                        delta += self.first_penalty * ((x in first_b) - (x in first_a))
                for y in self.tables[0][tb]:
                    if y != b:
                        delta += self.first_penalty * ((y in first_a) - (y in first_b))
        large = self.large[r]
        if large[ta] != large[tb]:
            up, down = (b, a) if large[ta] else (a, b)
            delta += self.bal_step(up, 1) + self.bal_step(down, -1)
        return delta

    def swap(self, r: int, a: int, b: int, delta: int) -> None:
        where = self.where[r]
        ta, tb = where[a], where[b]
        table_a, table_b = self.tables[r][ta], self.tables[r][tb]
        met = self.met
        row_a, row_b = met[a], met[b]
        for x in table_a:
            if x != a:
                row_a[x] -= 1
                met[x][a] -= 1
                row_b[x] += 1
                met[x][b] += 1
        for y in table_b:
            if y != b:
                row_b[y] -= 1
                met[y][b] -= 1
                row_a[y] += 1
                met[y][a] += 1
        table_a[table_a.index(a)] = b
        table_b[table_b.index(b)] = a
        where[a], where[b] = tb, ta
        if self.large[r][ta] != self.large[r][tb]:
            up, down = (a, b) if self.large[r][tb] else (b, a)
            self._count(up, 1)
            self._count(down, -1)
        self.cost += delta

    def transfer_delta(self, r: int, x: int, tb: int) -> int:
        """Moving ``x`` from its larger table to the smaller table ``tb`` of round ``r``."""
        ta = self.where[r][x]
        inc, row = self.inc, self.met[x]
        delta = 0
        for y in self.tables[r][ta]:
            if y != x:
                delta += self.bal_step(y, -1) - inc[row[y] - 1]
        for z in self.tables[r][tb]:
            delta += inc[row[z]] + self.bal_step(z, 1)
        if r == 0 and self.first_apart[x]:
            first = self.first_apart[x]
            delta += self.first_penalty * (
                sum(1 for z in self.tables[0][tb] if z in first)
                - sum(1 for y in self.tables[0][ta] if y in first)
            )
        return delta

    def transfer(self, r: int, x: int, tb: int, delta: int) -> None:
        ta = self.where[r][x]
        table_a, table_b = self.tables[r][ta], self.tables[r][tb]
        met, row = self.met, self.met[x]
        table_a.remove(x)
        for y in table_a:
            row[y] -= 1
            met[y][x] -= 1
            self._count(y, -1)
        for z in table_b:
            row[z] += 1
            met[z][x] += 1
            self._count(z, 1)
        table_b.append(x)
        self.where[r][x] = tb
        self.large[r][ta], self.large[r][tb] = False, True
        self.cost += delta

    def transfers_from(self, r: int, x: int) -> list[int]:
        """The tables of round ``r`` that ``x`` can be transferred to (none if it cannot move)."""
        ta = self.where[r][x]
        if not (self.can_transfer and self.movable[x] and self.large[r][ta]):
            return []
        if not self.resizable[ta]:
            return []
        large, resizable = self.large[r], self.resizable
        return [t for t in range(len(large)) if not large[t] and resizable[t]]

    def bal_step(self, p: int, step: int) -> int:
        """What one more (step 1) or one fewer (step -1) larger seat costs player ``p``."""
        c = self.larger[p]
        return self.bal[p][c + step] - self.bal[p][c]

    def outside(self, p: int) -> int:
        """How far player ``p``'s larger-table count is outside the even rule's bounds."""
        return self._outside(p, self.larger[p])

    def _outside(self, p: int, c: int) -> int:
        if self.bounds is None:
            return 0
        low, high = self.bounds[p]
        return low - c if c < low else c - high if c > high else 0

    def _count(self, p: int, step: int) -> None:
        before = self.larger[p]
        self.larger[p] = before + step
        self.balance += 2 * before * step + 1
        self.excess += self._outside(p, before + step) - self._outside(p, before)
