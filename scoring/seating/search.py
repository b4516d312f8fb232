"""Local search over whole seating plans: tabu search on swaps of two players within a round.

The state is every planned round at once (so the last rounds can be repaired too), with the
number of times each pair has met (history included) kept in a matrix. Swapping two players
between two tables of one round changes only the pairs at those two tables, so its cost is
computed from the matrix in O(table size).

The cost of a pair that met m times is ``pair_weight * (m - 1)**3``: a third meeting costs as
much as seven second ones, so no pair meets three times where more pairs meeting twice would do
(with squares a third meeting costs three, and the search still settled for a triple now and
then). Added to that, when a round has tables of two sizes: the sum over players of the square
of how often they sat at a larger table (minimal when those counts differ by at most one). One
repeat always outweighs what a single swap can gain in balance. A pair that must sit apart
starts at a meeting count of ``_APART`` so every meeting of it costs far more than any repeat:
such meetings are repaired first and never reintroduced.

Each step looks at the players in a conflict (a repeated pair or an apart pair at their table,
or a player whose larger-table count is at an extreme while the counts spread by two or more),
evaluates every swap of such a player with a player at another table of that round, and makes
the best one that is not tabu (Dotú and Van Hentenryck's scheme for the social golfer problem).
After a long stall it goes back to the best plan and makes a few random swaps; after five such
kicks without a better plan it starts afresh (a new greedy start), keeping the best plan seen.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

Rounds = list[list[list[int]]]

_APART = 1_000
"""The starting meeting count of a pair that must sit apart."""

_CANDIDATES = 24
"""At most this many conflicted (round, player) pairs are tried per step."""


def meeting_cost(times: int) -> int:
    """The cost, in units of ``pair_weight``, of a pair that met ``times`` times."""
    return max(0, times - 1) ** 3


class TabuSearch:
    """One seating search: ``n`` players numbered 0..n-1, ``rounds`` rounds shaped ``sizes``."""

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
    ) -> None:
        self.n = n
        self.sizes = tuple(sizes)
        self.n_rounds = rounds
        self.rng = rng
        self.fixed = fixed
        self.movable = [p not in fixed for p in range(n)]
        self.mixed = self.sizes[0] != self.sizes[-1]
        self.is_large = [self.mixed and size == self.sizes[0] for size in self.sizes]
        total_rounds = rounds + max(larger, default=0)
        self.pair_weight = 2 * (total_rounds + 2)
        top = _APART + rounds + max(met.values(), default=0) + 2
        # inc[c]: what one more meeting adds to a pair that met c times.
        self.inc = [self.pair_weight * (meeting_cost(c + 1) - meeting_cost(c)) for c in range(top)]
        for c in range(_APART, top):
            self.inc[c] = self.pair_weight * 10_000 * (c - _APART + 1)
        self.base = [[0] * n for _ in range(n)]
        for (a, b), count in met.items():
            self.base[a][b] = self.base[b][a] = count
        for a, b in apart:
            self.base[a][b] = self.base[b][a] = _APART
        # Pairs kept apart in the first planned round only: a penalty as heavy as an apart
        # meeting, checked in round 0 alone.
        self.first_apart: list[set[int]] = [set() for _ in range(n)]
        for a, b in apart_first:
            self.first_apart[a].add(b)
            self.first_apart[b].add(a)
        self.first_penalty = self.inc[_APART]
        self.base_larger = list(larger)
        # Tuning knobs, measured on the benchmark (bench/seating.py).
        self.balance_weight = 1
        self.candidates = _CANDIDATES
        self.tenure = (3, 10)
        self.stall_limit = 40 + 4 * n
        self.kicks_per_start = 5
        self.tables: Rounds = []

    # -- state -----------------------------------------------------------------------------

    def load(self, rounds: Rounds) -> None:
        """Take ``rounds`` (tables shaped like ``sizes``) as the current plan."""
        self.tables = [[list(table) for table in r] for r in rounds]
        self.where = [[0] * self.n for _ in rounds]
        self.met = [row[:] for row in self.base]
        self.larger = self.base_larger[:]
        for r, round_tables in enumerate(self.tables):
            for t, table in enumerate(round_tables):
                for i, a in enumerate(table):
                    self.where[r][a] = t
                    if self.is_large[t]:
                        self.larger[a] += 1
                    row = self.met[a]
                    for b in table[i + 1 :]:
                        row[b] += 1
                        self.met[b][a] += 1
        self.cost = self.full_cost()

    def full_cost(self) -> int:
        cost = 0
        cum = [0]
        for c in range(1, len(self.inc)):
            cum.append(cum[-1] + self.inc[c - 1])
        for a in range(self.n):
            row = self.met[a]
            for b in range(a + 1, self.n):
                cost += cum[row[b]] - cum[self.base[a][b]] if row[b] >= _APART else cum[row[b]]
        if self.tables:
            for table in self.tables[0]:
                for i, a in enumerate(table):
                    cost += self.first_penalty * sum(
                        1 for b in table[i + 1 :] if b in self.first_apart[a]
                    )
        return cost + self.balance_weight * sum(x * x for x in self.larger)

    def pair_cost(self) -> int:
        return self.cost - self.balance_weight * sum(x * x for x in self.larger)

    def snapshot(self) -> Rounds:
        return [[table[:] for table in r] for r in self.tables]

    # -- greedy start ----------------------------------------------------------------------

    def greedy_rounds(self, done: Rounds) -> Rounds:
        """Complete ``done`` (possibly empty) round by round, each player to the cheapest table."""
        self.load(done)
        inc, rng = self.inc, self.rng
        for _ in range(len(done), self.n_rounds):
            round_tables: list[list[int]] = [[] for _ in self.sizes]
            for p, t in self.fixed.items():
                round_tables[t].append(p)
            order = [p for p in range(self.n) if self.movable[p]]
            rng.shuffle(order)
            # Players with apart partners first: they have the fewest good tables.
            first_round = not self.tables
            order.sort(
                key=lambda p: (
                    -sum(1 for x in self.base[p] if x >= _APART)
                    - (len(self.first_apart[p]) if first_round else 0)
                )
            )
            for p in order:
                row = self.met[p]
                best, best_cost = -1, 0.0
                for t, table in enumerate(round_tables):
                    if len(table) >= self.sizes[t]:
                        continue
                    cost = sum(inc[row[x]] for x in table) + rng.random()
                    if first_round:
                        cost += self.first_penalty * sum(
                            1 for x in table if x in self.first_apart[p]
                        )
                    if self.is_large[t]:
                        cost += self.balance_weight * (2 * self.larger[p] + 1)
                    if best < 0 or cost < best_cost:
                        best, best_cost = t, cost
                table = round_tables[best]
                for x in table:
                    row[x] += 1
                    self.met[x][p] += 1
                if self.is_large[best]:
                    self.larger[p] += 1
                table.append(p)
            self.tables.append(round_tables)
        rounds = self.snapshot()
        self.load(rounds)
        return rounds

    # -- moves -----------------------------------------------------------------------------

    def conflicts(self) -> list[tuple[int, int]]:
        """(round, player) pairs that a swap should try to improve."""
        found = set()
        movable = self.movable
        for r, round_tables in enumerate(self.tables):
            for table in round_tables:
                for i, a in enumerate(table):
                    row = self.met[a]
                    for b in table[i + 1 :]:
                        if row[b] >= 2 or (r == 0 and b in self.first_apart[a]):
                            if movable[a]:
                                found.add((r, a))
                            if movable[b]:
                                found.add((r, b))
        if self.mixed:
            low, high = min(self.larger), max(self.larger)
            if high - low >= 2:
                for r in range(self.n_rounds):
                    where = self.where[r]
                    for p in range(self.n):
                        if movable[p] and (
                            (self.larger[p] == high and self.is_large[where[p]])
                            or (self.larger[p] == low and not self.is_large[where[p]])
                        ):
                            found.add((r, p))
        return sorted(found)

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
        if self.is_large[ta] != self.is_large[tb]:
            la, lb = self.larger[a], self.larger[b]
            delta += self.balance_weight * (
                2 * (lb - la + 1) if self.is_large[ta] else 2 * (la - lb + 1)
            )
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
        if self.is_large[ta] != self.is_large[tb]:
            step = 1 if self.is_large[tb] else -1
            self.larger[a] += step
            self.larger[b] -= step
        self.cost += delta

    # -- the search ------------------------------------------------------------------------

    def run(
        self,
        *,
        target: int,
        deadline: float,
        max_iterations: int | None,
        restart: Callable[[], object] | None = None,
        clock=time.perf_counter,
    ) -> tuple[Rounds, int]:
        """Improve the loaded plan until its cost reaches ``target``, time or iterations run out.

        When kicks from the best plan stop paying off, ``restart`` (if given) loads a fresh
        start and the search goes on from there, keeping the best plan seen.
        Returns the best plan found and the number of steps taken.
        """
        rng = self.rng
        best, best_cost = self.snapshot(), self.cost
        tabu: dict[tuple[int, int, int], int] = {}
        stall = 0
        step = 0
        stall_limit = self.stall_limit
        kicks = 0
        while best_cost > target:
            if max_iterations is not None and step >= max_iterations:
                break
            if step % 8 == 0 and clock() > deadline:
                break
            step += 1
            candidates = self.conflicts()
            if not candidates:
                break
            if len(candidates) > self.candidates:
                candidates = rng.sample(candidates, self.candidates)
            move_delta: int | None = None
            moves: list[tuple[int, int, int]] = []
            for r, a in candidates:
                ta = self.where[r][a]
                for tb, table in enumerate(self.tables[r]):
                    if tb == ta:
                        continue
                    for b in table:
                        if not self.movable[b]:
                            continue
                        delta = self.swap_delta(r, a, b)
                        if move_delta is not None and delta > move_delta:
                            continue
                        if (
                            tabu.get((r, a, tb), -1) >= step or tabu.get((r, b, ta), -1) >= step
                        ) and self.cost + delta >= best_cost:
                            continue
                        if move_delta is None or delta < move_delta:
                            move_delta, moves = delta, []
                        moves.append((r, a, b))
            if move_delta is None:
                stall += 1
                continue
            r, a, b = moves[rng.randrange(len(moves))] if len(moves) > 1 else moves[0]
            ta, tb = self.where[r][a], self.where[r][b]
            self.swap(r, a, b, move_delta)
            tenure = rng.randint(*self.tenure)
            tabu[(r, a, ta)] = step + tenure
            tabu[(r, b, tb)] = step + tenure
            if self.cost < best_cost:
                best, best_cost = self.snapshot(), self.cost
                stall = kicks = 0
            else:
                stall += 1
            if stall > stall_limit:
                kicks += 1
                if restart is not None and kicks > self.kicks_per_start:
                    restart()
                    kicks = 0
                else:
                    self.load(best)
                    self.kick(max(2, self.n // 8))
                tabu.clear()
                stall = 0
                if self.cost < best_cost:
                    best, best_cost = self.snapshot(), self.cost
        return best, step

    def kick(self, swaps: int) -> None:
        """A few random swaps of movable players, to leave a local optimum."""
        rng = self.rng
        for _ in range(swaps):
            r = rng.randrange(self.n_rounds)
            where = self.where[r]
            players = [p for p in range(self.n) if self.movable[p]]
            a = rng.choice(players)
            others = [p for p in players if where[p] != where[a]]
            if not others:
                return
            b = rng.choice(others)
            delta = self.swap_delta(r, a, b)
            if delta < self.inc[_APART]:
                self.swap(r, a, b, delta)
