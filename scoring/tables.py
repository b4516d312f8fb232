"""How many tables of which size seat a number of players.

A tournament allows some table sizes (4 and 5 by default) and prefers one of them. The split uses
only allowed sizes when it can, with as many tables of the preferred size as possible. Some counts
cannot be split that way (with 4 and 5: only 3, 6, 7 and 11); then, because the game itself allows
3 to 6 players, the split takes as few tables of another size as it can and says so in
``message``.

Among splits with the same number of odd-size tables and preferred tables, the one whose tables
are nearest the preferred size wins, then the one with fewer tables, then the most even one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from scoring.deals import MAX_SEATS, MIN_SEATS
from scoring.errors import ErrorCode, Problem, ScoringError

GAME_SIZES = tuple(range(MIN_SEATS, MAX_SEATS + 1))
"""The table sizes the game allows: 3 to 6 players."""


@dataclass(frozen=True, slots=True)
class TableSplit:
    """Table sizes for one round, larger tables first.

    ``fallback`` is True when a size outside the allowed ones had to be used; ``message`` then
    explains it (and is empty otherwise).
    """

    sizes: tuple[int, ...]
    fallback: bool
    message: str


def _and_list(numbers: Sequence[int]) -> str:
    words = [str(number) for number in numbers]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _check_sizes(sizes: Sequence[int]) -> tuple[int, ...]:
    allowed = tuple(sorted(set(sizes)))
    wrong = [size for size in allowed if size not in GAME_SIZES]
    if not allowed or wrong:
        raise ScoringError(
            Problem(
                ErrorCode.TABLE_SIZES,
                f"Table sizes must be chosen from {MIN_SEATS} to {MAX_SEATS} players; got "
                f"{', '.join(map(str, sizes)) or 'none'}.",
                params={"sizes": ",".join(map(str, sizes)), "min": MIN_SEATS, "max": MAX_SEATS},
            )
        )
    return allowed


def table_split(n_players: int, *, sizes: Sequence[int] = (4, 5), prefer: int = 4) -> TableSplit:
    """Split ``n_players`` into tables of the allowed ``sizes``, as many of ``prefer`` as can be.

    A ``prefer`` that is not among ``sizes`` has no effect beyond the nearest-size tie-break.
    ScoringError PLAYER_COUNT for fewer than 3 players, TABLE_SIZES for sizes outside 3..6.
    """
    if n_players < MIN_SEATS:
        raise ScoringError(
            Problem(
                ErrorCode.PLAYER_COUNT,
                f"{n_players} players are too few for a table: the game needs at least "
                f"{MIN_SEATS}.",
                params={"players": n_players, "min": MIN_SEATS},
            )
        )
    allowed = _check_sizes(sizes)
    split = _best_split(n_players, allowed, prefer)
    fallback = any(size not in allowed for size in split)
    message = ""
    if fallback:
        message = (
            f"{n_players} players cannot be split into tables of {_and_list(allowed)}; "
            f"using {'+'.join(map(str, split))}"
        )
    return TableSplit(split, fallback, message)


@cache
def _best_split(n_players: int, allowed: tuple[int, ...], prefer: int) -> tuple[int, ...]:
    # Each table adds its cost; sums of cost tuples compare lexicographically, and that order is
    # kept under addition, so the best split of n is one table plus the best split of the rest.
    def cost(size: int) -> tuple[int, ...]:
        return (size not in allowed, -(size == prefer), abs(size - prefer), 1, size * size)

    best: list[tuple[tuple[int, ...], tuple[int, ...]] | None] = [((0,) * 5, ())]
    for total in range(1, n_players + 1):
        options = []
        for size in GAME_SIZES:
            rest = best[total - size] if size <= total else None
            if rest is not None:
                rest_cost, rest_split = rest
                total_cost = tuple(a + b for a, b in zip(rest_cost, cost(size), strict=True))
                options.append((total_cost, tuple(sorted((*rest_split, size), reverse=True))))
        best.append(min(options) if options else None)
    # Every count from 3 up is a sum of 3s, 4s and 5s, so there is always a split.
    split = best[n_players]
    assert split is not None
    return split[1]
