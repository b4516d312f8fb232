"""Exact seatings from finite geometry, used to seed the search where the numbers fit.

A *resolvable transversal design* RTD(k, q) seats k*q players at q tables of k for q rounds so
that no two players ever meet twice; it exists for every prime power q >= k and is built here from
the lines of the plane over the field GF(q): player (g, x) sits in round a at table
x - a*alpha_g, for k distinct field elements alpha_g. The k "groups" {(g, x)} never meet, so when
q is a multiple of k one more round seats each group at its own tables: with q == k that extra
round makes the affine plane AG(2, q) (16 players in 4s over 5 rounds, 25 in 5s over 6).

Removing s players of one group from an RTD(k, q) leaves, in every round, q - s tables of k and s
tables of k - 1, still without a repeat: that seats 23 players as 5+5+5+4+4 for 5 rounds.

32 players in 4s over 10 rounds (the social golfer instance 8-4-10, known to exist since Aguado,
2004) is a stored schedule, ``GOLF_8_4_10``, that this planner's tabu search found: started from
the 9 rounds of a partial spread of planes of GF(2)^5 (cosets of 2-dimensional subspaces that
share no non-zero vector) plus one greedy round, seed 0 reached zero repeats in 629 steps. Other
seeds stop at 8 or 16 within the default time, hence the stored copy.

24 players in 4s over 7 rounds (the social golfer instance 6-4-7) come from a resolvable group
divisible design of type 3^8 (``RGDD_3_8``): the points are Z7 x {0, 1, 2} and three points
"infinity"; one round of six tables, moved on by adding 1 to the Z7 part, gives the other six.
Every two points of different groups meet once, so each player meets 21 of the 23 others once
and the two of their own group never. The base round was found by a backtracking search over
the pure and mixed differences (each needed exactly once; each infinity with three points of
different levels).

Designs are plain lists of rounds of tables of point numbers 0..n-1; the planner maps its players
onto the points.
"""

from __future__ import annotations

from functools import cache
from itertools import product

Schedule = list[list[list[int]]]

GOLF_8_4_10 = (
    "AABABABBCCCDEFFFEFEEDDCDGHHHGGGH",
    "ABCDAEFDAECDAECDFGHBFGHBFGHECGHB",
    "ABCDBEDFCDEBDCBEAGFHGAHFFHEGHCGA",
    "ABCDEFABFCAABBFCGGEDEDHHDCGHGHFE",
    "ABCDDCEFFBGHHGEACDAEBFDCGHFEBAHG",
    "ABCDEFGHBADCFEHGBADCFEHGABCDEFGH",
    "ABACDEFECGBGHFHDDEFEABACHFHDCGBG",
    "ABBCDEEFGDFGHACHCBBAFEEDGFDGHCAH",
    "ABCDEFGHGHEFCDABHGFEDCBABADCFEHG",
    "ABCCDDBAEFGHGHFEHGFEEFHGDDBAABCC",
)
"""32 players, 10 rounds of 8 tables of 4, no pair twice: in each round player p sits at the
table lettered at position p. Everyone meets everyone except the player p XOR 26."""


RGDD_3_8 = (
    ((0, 0), (1, 1), (3, 2), 0),
    ((1, 0), (3, 1), (0, 2), 1),
    ((3, 0), (0, 1), (1, 2), 2),
    ((2, 0), (4, 0), (5, 0), (6, 2)),
    ((6, 0), (2, 1), (4, 1), (5, 1)),
    ((6, 1), (2, 2), (4, 2), (5, 2)),
)
"""The base round of the 6-4-7 design: finite points (x, level) with x in Z7, and 0, 1, 2 for
the infinite points. Point (x, level) is number 7 * level + x, infinity i is 21 + i."""


def _prime_power(q: int) -> tuple[int, int] | None:
    """(p, m) with q == p**m for a prime p, or None."""
    if q < 2:
        return None
    p = next(d for d in range(2, q + 1) if q % d == 0)
    m, rest = 0, q
    while rest % p == 0:
        rest //= p
        m += 1
    return (p, m) if rest == 1 else None


@cache
def _field(q: int) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]:
    """Addition and multiplication tables of GF(q), elements numbered 0..q-1 (0 and 1 as usual).

    An element is the polynomial whose base-p digits are its coefficients; products are reduced
    modulo the first monic irreducible polynomial of degree m.
    """
    p, m = _prime_power(q) or (0, 0)
    if not p:
        raise ValueError(f"{q} is not a prime power")

    def digits(x: int) -> list[int]:
        return [(x // p**i) % p for i in range(m)]

    def number(coefficients: list[int]) -> int:
        return sum(c * p**i for i, c in enumerate(coefficients))

    def poly_mul_mod(a: list[int], b: list[int], modulus: list[int]) -> list[int]:
        product_ = [0] * (2 * m - 1)
        for i, ai in enumerate(a):
            for j, bj in enumerate(b):
                product_[i + j] = (product_[i + j] + ai * bj) % p
        for i in range(len(product_) - 1, m - 1, -1):
            c = product_[i]
            if c:
                for j in range(m + 1):
                    product_[i - m + j] = (product_[i - m + j] - c * modulus[j]) % p
        return product_[:m]

    modulus = [1] if m == 1 else None
    if m > 1:
        # A monic polynomial of degree m is irreducible when it has no product equal to zero
        # among the non-zero residues, i.e. the residues form a field; test that directly.
        for tail in product(range(p), repeat=m):
            candidate = [*tail, 1]
            if candidate[0] == 0:
                continue
            nonzero = [digits(x) for x in range(1, q)]
            if all(any(poly_mul_mod(a, b, candidate)) for a in nonzero for b in nonzero):
                modulus = candidate
                break
    add = tuple(
        tuple(
            number([(u + v) % p for u, v in zip(digits(a), digits(b), strict=True)])
            for b in range(q)
        )
        for a in range(q)
    )
    if m == 1:
        mul = tuple(tuple(a * b % p for b in range(q)) for a in range(q))
    else:
        assert modulus is not None
        mul = tuple(
            tuple(number(poly_mul_mod(digits(a), digits(b), modulus)) for b in range(q))
            for a in range(q)
        )
    return add, mul


def transversal_design(k: int, q: int, rounds: int) -> Schedule | None:
    """Up to ``rounds`` rounds of an RTD(k, q), or None when q is no prime power or q < k.

    Point g*q + x is player x of group g. At most q rounds come from the field, one more from the
    groups when k divides q; fewer than asked come back when the design has no more.
    """
    if _prime_power(q) is None or k > q or k < 2:
        return None
    rounds = min(rounds, q + (1 if q % k == 0 else 0))
    add, mul = _field(q)
    negate = [next(y for y in range(q) if add[x][y] == 0) for x in range(q)]
    schedule: Schedule = []
    for a in range(min(rounds, q)):
        tables: list[list[int]] = [[] for _ in range(q)]
        for g in range(k):
            shift = mul[a][g]  # alpha_g = g as a field element
            for x in range(q):
                tables[add[x][negate[shift]]].append(g * q + x)
        schedule.append(tables)
    if rounds > q:
        schedule.append(
            [
                [g * q + x for x in range(start, start + k)]
                for g in range(k)
                for start in range(0, q, k)
            ]
        )
    return schedule


def design_for(sizes: tuple[int, ...], rounds: int) -> Schedule | None:
    """Repeat-free rounds for the round shape ``sizes`` (larger first), at most ``rounds``, or None.

    The design may have fewer rounds than asked; the planner then seats the rest by search.
    Tables of one size k: RTD(k, q) with q tables, or several disjoint copies when the number of
    tables is a multiple of a usable q. Sizes k and k-1: an RTD(k, q) less points of one group.
    Every returned schedule has tables ordered as ``sizes`` in every round.
    """
    if not sizes or rounds < 1:
        return None
    big, small = sizes[0], sizes[-1]
    tables = len(sizes)
    if big == small:
        # Disjoint copies of one design when the tables do not make one; the fewest copies of
        # the design with the most rounds wins.
        found: list[Schedule] = []
        for copies in range(1, tables + 1):
            if tables % copies:
                continue
            per_copy = tables // copies
            base = transversal_design(big, per_copy, rounds)
            stored = {8: _golf_8_4_10, 6: _rgdd_3_8}.get(per_copy) if big == 4 else None
            if stored is not None:
                golf = stored(rounds)
                base = golf if base is None or len(golf) > len(base) else base
            if base is not None:
                found.append(_copies(base, copies, big * per_copy))
        return max(found, key=len) if found else None
    if big - small != 1:
        return None
    short = sizes.count(small)
    base = transversal_design(big, tables, min(rounds, tables))
    if base is None:
        return None
    # Drop players 0..short-1 of group 0; renumber the rest densely.
    dropped = set(range(short))
    numbering: dict[int, int] = {}
    for point in range(big * tables):
        if point not in dropped:
            numbering[point] = len(numbering)
    schedule = []
    for round_tables in base:
        kept = [[numbering[p] for p in table if p not in dropped] for table in round_tables]
        kept.sort(key=len, reverse=True)
        schedule.append(kept)
    return schedule


def _copies(schedule: Schedule, copies: int, size: int) -> Schedule:
    """``copies`` disjoint copies of a schedule on ``size`` points, seated side by side."""
    return [
        [[point + c * size for point in table] for c in range(copies) for table in tables]
        for tables in schedule
    ]


def _golf_8_4_10(rounds: int) -> Schedule:
    schedule = []
    for row in GOLF_8_4_10[:rounds]:
        tables: dict[str, list[int]] = {}
        for player, letter in enumerate(row):
            tables.setdefault(letter, []).append(player)
        schedule.append([tables[letter] for letter in sorted(tables)])
    return schedule


def _rgdd_3_8(rounds: int) -> Schedule:
    def number(point: tuple[int, int] | int, shift: int) -> int:
        if isinstance(point, int):
            return 21 + point
        x, level = point
        return 7 * level + (x + shift) % 7

    return [
        [sorted(number(point, shift) for point in table) for table in RGDD_3_8]
        for shift in range(min(rounds, 7))
    ]
