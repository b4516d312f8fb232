"""Tabu search over whole seating plans (moves and costs in ``state``).

Each step looks at the players in a conflict (a repeated pair or an apart pair at their table,
or a player whose larger-table count is at an extreme while the counts spread by two or more),
evaluates every swap of such a player with a player at another table of that round and every
transfer of it to a smaller table, and makes the best move that is not tabu (Dotú and Van
Hentenryck's scheme for the social golfer problem). For a player whose larger-table count is at
an extreme it also tries the transfers that change that count: a tablemate leaving its larger
table, or someone joining its smaller one.

After a long stall it goes back to the best plan and makes a few random moves; after five such
kicks without a better plan it starts afresh (a new greedy start), keeping the best plan seen.
Plans are compared on fewest repeats first and the most even larger-table counts second; under
the even rule on the counts outside their bounds before either. The even rule's greedy start
gives each round's larger seats to the players furthest below their bounds, so it starts
within them, and the players outside them count as conflicts.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from scoring.seating.state import APART, PlanState, Rounds

_CANDIDATES = 24
"""At most this many conflicted (round, player) pairs are tried per step."""

Move = tuple[int, int, int, int]
"""(kind, round, player, other): kind 0 swaps ``player`` with player ``other``, kind 1
transfers ``player`` to table ``other``."""


class TabuSearch(PlanState):
    """One seating search (see ``PlanState`` for the arguments)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        # Tuning knobs, measured on the benchmark (bench/seating.py).
        self.candidates = _CANDIDATES
        self.tenure = (3, 10)
        self.stall_limit = 40 + 4 * self.n
        self.kicks_per_start = 5

    # -- greedy start ----------------------------------------------------------------------

    def greedy_rounds(self, done: Rounds) -> Rounds:
        """Complete ``done`` (possibly empty) round by round, each player to the cheapest table."""
        self.load(done)
        inc, rng = self.inc, self.rng
        is_large = [self.mixed and size == self.big for size in self.sizes]
        for _ in range(len(done), self.n_rounds):
            round_tables: list[list[int]] = [[] for _ in self.sizes]
            for p, t in self.fixed.items():
                round_tables[t].append(p)
            order = [p for p in range(self.n) if self.movable[p]]
            rng.shuffle(order)
            larger_seats = self._larger_seats(order, round_tables, is_large)
            # Players with apart partners first: they have the fewest good tables.
            first_round = not self.tables
            order.sort(
                key=lambda p: (
                    -sum(1 for x in self.base[p] if x >= APART)
                    - (len(self.first_apart[p]) if first_round else 0)
                )
            )
            for p in order:
                row = self.met[p]
                best, best_cost = -1, 0.0
                for t, table in enumerate(round_tables):
                    if len(table) >= self.sizes[t]:
                        continue
                    if larger_seats is not None and is_large[t] != (p in larger_seats):
                        continue
                    cost = sum(inc[row[x]] for x in table) + rng.random()
                    if first_round:
                        cost += self.first_penalty * sum(
                            1 for x in table if x in self.first_apart[p]
                        )
                    if is_large[t]:
                        cost += self.balance_weight * (2 * self.larger[p] + 1)
                    if best < 0 or cost < best_cost:
                        best, best_cost = t, cost
                table = round_tables[best]
                for x in table:
                    row[x] += 1
                    self.met[x][p] += 1
                if is_large[best]:
                    self.larger[p] += 1
                table.append(p)
            self.tables.append(round_tables)
        rounds = self.snapshot()
        self.load(rounds)
        return rounds

    def _larger_seats(
        self, order: list[int], round_tables: list[list[int]], is_large: list[bool]
    ) -> set[int] | None:
        """Under the even rule, who takes this round's free larger seats: the players furthest
        below their lowest count, then below their highest (in the shuffled ``order`` among
        equals). None without the rule."""
        if self.bounds is None or not self.mixed:
            return None
        free = sum(
            self.sizes[t] - len(table) for t, table in enumerate(round_tables) if is_large[t]
        )
        bounds = self.bounds
        neediest = sorted(
            order, key=lambda p: (self.larger[p] - bounds[p][0], self.larger[p] - bounds[p][1])
        )
        return set(neediest[:free])

    # -- moves -----------------------------------------------------------------------------

    def conflicts(self) -> tuple[list[tuple[int, int]], set[tuple[int, int]]]:
        """(round, player) pairs that a move should try to improve, and among them those whose
        larger-table count is at an extreme of a spread of two or more."""
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
        extreme = set()
        if self.mixed and self.bounds is not None:
            for p in range(self.n):
                if not movable[p] or not self.outside(p):
                    continue
                above = self.larger[p] > self.bounds[p][1]
                for r in range(self.n_rounds):
                    if self.large[r][self.where[r][p]] == above:
                        extreme.add((r, p))
                        found.add((r, p))
        elif self.mixed:
            low, high = min(self.larger), max(self.larger)
            if high - low >= 2:
                for r in range(self.n_rounds):
                    where, large = self.where[r], self.large[r]
                    for p in range(self.n):
                        if (self.larger[p] == high and large[where[p]]) or (
                            self.larger[p] == low and not large[where[p]]
                        ):
                            extreme.add((r, p))
                            if movable[p]:
                                found.add((r, p))
        return sorted(found), extreme

    def moves_of(self, r: int, a: int, extreme: bool) -> list[Move]:
        """The swaps and transfers that move ``a`` in round ``r``, and for a player at an
        extreme count the transfers that change their count."""
        where, tables = self.where[r], self.tables[r]
        ta = where[a]
        moves = [
            (0, r, a, b)
            for tb, table in enumerate(tables)
            if tb != ta
            for b in table
            if self.movable[b]
        ]
        moves.extend((1, r, a, tb) for tb in self.transfers_from(r, a))
        if extreme and self.can_transfer and self.resizable[ta]:
            if self.large[r][ta]:
                for x in tables[ta]:
                    if x != a:
                        moves.extend((1, r, x, tb) for tb in self.transfers_from(r, x))
            else:
                for t, table in enumerate(tables):
                    if self.large[r][t]:
                        moves.extend(
                            (1, r, x, ta) for x in table if ta in self.transfers_from(r, x)
                        )
        return moves

    def delta(self, move: Move) -> int:
        kind, r, a, other = move
        return self.swap_delta(r, a, other) if kind == 0 else self.transfer_delta(r, a, other)

    def apply(self, move: Move, delta: int) -> None:
        kind, r, a, other = move
        if kind == 0:
            self.swap(r, a, other, delta)
        else:
            self.transfer(r, a, other, delta)

    # -- the search ------------------------------------------------------------------------

    def run(
        self,
        *,
        target: tuple[int, int, int],
        deadline: float,
        max_iterations: int | None,
        restart: Callable[[], object] | None = None,
        clock: Callable[[], float] = time.perf_counter,
    ) -> tuple[Rounds, int]:
        """Improve the loaded plan until its ``key`` reaches ``target`` (lower bounds on the
        excess, the pair cost and the balance term), time or iterations run out.

        When kicks from the best plan stop paying off, ``restart`` (if given) loads a fresh
        start and the search goes on from there, keeping the best plan seen.
        Returns the best plan found and the number of steps taken.
        """
        rng = self.rng
        best, best_key = self.snapshot(), self.key()
        lowest = self.cost
        tabu: dict[tuple[int, int, int], int] = {}
        stall = 0
        step = 0
        stall_limit = self.stall_limit
        kicks = 0
        while best_key[0] > target[0] or best_key[1] > target[1] or best_key[-1] > target[2]:
            if max_iterations is not None and step >= max_iterations:
                break
            if step % 8 == 0 and clock() > deadline:
                break
            step += 1
            candidates, extreme = self.conflicts()
            if not candidates:
                break
            if len(candidates) > self.candidates:
                candidates = rng.sample(candidates, self.candidates)
            move_delta: int | None = None
            chosen: list[Move] = []
            for r, a in candidates:
                for move in self.moves_of(r, a, (r, a) in extreme):
                    delta = self.delta(move)
                    if move_delta is not None and delta > move_delta:
                        continue
                    if self._tabu(move, tabu, step) and self.cost + delta >= lowest:
                        continue
                    if move_delta is None or delta < move_delta:
                        move_delta, chosen = delta, []
                    chosen.append(move)
            if move_delta is None:
                stall += 1
                continue
            move = chosen[rng.randrange(len(chosen))] if len(chosen) > 1 else chosen[0]
            left = self._left(move)
            self.apply(move, move_delta)
            tenure = rng.randint(*self.tenure)
            for key in left:
                tabu[key] = step + tenure
            lowest = min(lowest, self.cost)
            if self.key() < best_key:
                best, best_key = self.snapshot(), self.key()
                stall = kicks = 0
            else:
                stall += 1
            if stall > stall_limit:
                kicks += 1
                if restart is not None and kicks > self.kicks_per_start:
                    restart()
                    kicks = 0
                    lowest = self.cost
                else:
                    self.load(best)
                    self.kick(max(2, self.n // 8))
                tabu.clear()
                stall = 0
                lowest = min(lowest, self.cost)
                if self.key() < best_key:
                    best, best_key = self.snapshot(), self.key()
        return best, step

    def _tabu(self, move: Move, tabu: dict[tuple[int, int, int], int], step: int) -> bool:
        """Whether the move takes a player back to a table it left a few steps ago."""
        kind, r, a, other = move
        if kind == 1:
            return tabu.get((r, a, other), -1) >= step
        where = self.where[r]
        return (
            tabu.get((r, a, where[other]), -1) >= step or tabu.get((r, other, where[a]), -1) >= step
        )

    def _left(self, move: Move) -> list[tuple[int, int, int]]:
        """(round, player, table) for each player the move takes away from a table."""
        kind, r, a, other = move
        where = self.where[r]
        if kind == 1:
            return [(r, a, where[a])]
        return [(r, a, where[a]), (r, other, where[other])]

    def kick(self, moves: int) -> None:
        """A few random swaps (and transfers) of movable players, to leave a local optimum."""
        rng = self.rng
        players = [p for p in range(self.n) if self.movable[p]]
        for _ in range(moves):
            r = rng.randrange(self.n_rounds)
            where = self.where[r]
            a = rng.choice(players)
            targets = self.transfers_from(r, a)
            if targets and rng.random() < 0.5:
                move: Move = (1, r, a, rng.choice(targets))
            else:
                others = [p for p in players if where[p] != where[a]]
                if not others:
                    return
                move = (0, r, a, rng.choice(others))
            delta = self.delta(move)
            if delta < self.inc[APART]:
                self.apply(move, delta)
