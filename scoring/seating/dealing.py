"""Who deals first at each table: the seats' order so that dealing evens out.

Dealing is a handicap (the dealer may not make the bids add up), and at a table of 4 three
seats deal 3 of the 11 deals and one 2, at a table of 5 one seat 3 and four 2. Turning each
table's clockwise order (the planner's) so that who has dealt most sits where the fewest deals
are dealt keeps everyone within one deal of everyone else over a tournament. Plain Python.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Hashable, Iterable, Sequence
from typing import TypeVar

from scoring.deals import deals_dealt

P = TypeVar("P", bound=Hashable)


def seat_orders(tables: Iterable[Sequence[P]], dealt: Counter[P], *, seed: int) -> list[list[P]]:
    """Each table's clockwise order, the first dealer first, given the deals ``dealt`` so far.

    The planner lists a table's players in registration order, so in round 1 the first club
    typed would deal first at every table. Before anybody has dealt, the players who deal
    equally many deals are shuffled among their seats (the same for the same seed): everyone
    deals what the plan's order would have them deal, so the later rounds, which keep the plan's
    order turned to even out the deals dealt, come out as before. At a table of 4 three seats
    deal 3 deals, so any of three players deals first; at a table of 5 only the first dealer
    deals 3, and that stays the plan's first player.
    """
    if any(dealt.values()):
        return [dealing_balanced(members, dealt) for members in tables]
    rng = random.Random(seed)
    orders = []
    for members in tables:
        order = list(members)
        n = len(order)
        for count in sorted({deals_dealt(seat, n) for seat in range(n)}):
            seats = [seat for seat in range(n) if deals_dealt(seat, n) == count]
            shuffled = rng.sample([order[seat] for seat in seats], len(seats))
            for seat, player in zip(seats, shuffled, strict=True):
                order[seat] = player
        orders.append(order)
    return orders


def dealing_balanced(members: Sequence[P], dealt: Counter[P]) -> list[P]:
    """The table's seating, turned so that the deals dealt so far even out: who has dealt most
    sits where the fewest deals are dealt. The clockwise order of the plan is kept."""
    members = list(members)
    n = len(members)

    def after(start: int) -> list[int]:
        turned = members[start:] + members[:start]
        return sorted(
            (dealt[player] + deals_dealt(seat, n) for seat, player in enumerate(turned)),
            reverse=True,
        )

    start = min(range(n), key=lambda i: (after(i), i))
    return members[start:] + members[:start]


def deals_dealt_at(tables: Iterable[Sequence[P]]) -> Counter[P]:
    """The deals each player deals at these tables (seat 0 dealing first)."""
    dealt: Counter[P] = Counter()
    for members in tables:
        for seat, player in enumerate(members):
            dealt[player] += deals_dealt(seat, len(members))
    return dealt
