"""The repeats a round's seating must give after the rounds played: never below what was
played, never above what the best reseating of the round reaches (checked by trying every
reseating of small rounds)."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from scoring.seating.quality import meetings, plan_quality
from scoring.seating.repeats_after import RepeatsAfter, groups_floor, repeats_after

A, B = [0, 1, 2, 3], [4, 5, 6, 7]


def test_the_groups_of_a_played_round_must_meet_again_at_fewer_tables():
    """Eight players who sat A|B twice: a third round of two tables of four puts at least two
    pairs of A and two of B together again, however it is seated. Every round open, the
    player-by-player bound says 8: less than the 12 repeats already played."""
    parted = [*[[A, B]] * 2, [[0, 1, 4, 5], [2, 3, 6, 7]]]
    assert plan_quality(parted).lower_bound == 8
    assert groups_floor(parted, played=2) == 4
    assert repeats_after(parted, played=2) == RepeatsAfter(16, 12, 16)  # the best there is
    again = [*[[A, B]] * 3]
    assert repeats_after(again, played=2) == RepeatsAfter(24, 12, 16)


def every_reseating(players: list[int], sizes: list[int]):
    """Every way to seat ``players`` at tables of ``sizes`` (as sets: order at a table and of
    tables of one size does not matter for meetings)."""
    if not sizes:
        yield []
        return
    first, rest = players[0], players[1:]
    size, *others = sizes
    for mates in combinations(rest, size - 1):
        table = [first, *mates]
        left = [p for p in rest if p not in mates]
        for tables in every_reseating(left, others):
            yield [table, *tables]


def repeats(schedule) -> int:
    return sum(count - 1 for count in meetings(schedule).values() if count > 1)


def random_round(players: list[int], sizes: list[int], rng: random.Random) -> list[list[int]]:
    shuffled = rng.sample(players, len(players))
    tables, start = [], 0
    for size in sizes:
        tables.append(shuffled[start : start + size])
        start += size
    return tables


@pytest.mark.parametrize(("n", "sizes"), [(8, [4, 4]), (9, [5, 4]), (10, [5, 5]), (12, [4, 4, 4])])
@pytest.mark.parametrize("played", [1, 3])
def test_the_least_lies_between_the_played_repeats_and_the_best_reseating(n, sizes, played):
    rng = random.Random(n * 10 + played)
    players = list(range(n))
    for _ in range(3):
        history = [random_round(players, sizes, rng) for _ in range(played)]
        seated = random_round(players, sizes, rng)
        counted = repeats_after([*history, seated], played=played)
        best = min(repeats([*history, tables]) for tables in every_reseating(players, sizes))
        assert counted.earlier <= counted.least <= best <= counted.repeats
        assert counted.earlier == plan_quality(history).repeats
