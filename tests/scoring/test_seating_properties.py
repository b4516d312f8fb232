"""Properties of every seating plan, for generated tournaments: validity, constraints, bound."""

import random
from itertools import combinations, product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.seating import (
    Balance,
    SeatingError,
    SeatingProblem,
    plan_quality,
    plan_seating,
    validate_plan,
)
from scoring.seating.quality import spread_floor
from scoring.tables import table_split


@st.composite
def tournaments(draw):
    """Players, played rounds (with withdrawn players), apart pairs and a fixed player."""
    n_players = draw(st.integers(min_value=8, max_value=30))
    prefer = draw(st.sampled_from([4, 5]))
    everyone = list(range(n_players + 3))
    rng = random.Random(draw(st.integers(min_value=0, max_value=10_000)))
    history = []
    for _ in range(draw(st.integers(min_value=0, max_value=2))):
        present = rng.sample(everyone, n_players)
        sizes = table_split(n_players, prefer=prefer).sizes
        tables, start = [], 0
        for size in sizes:
            tables.append(present[start : start + size])
            start += size
        history.append(tables)
    players = rng.sample(everyone, n_players)
    pairs = draw(
        st.lists(st.tuples(st.sampled_from(players), st.sampled_from(players)), max_size=4)
    )
    apart = [(a, b) for a, b in pairs if a != b]
    first_pairs = draw(
        st.lists(st.tuples(st.sampled_from(players), st.sampled_from(players)), max_size=4)
    )
    apart_first = [(a, b) for a, b in first_pairs if a != b]
    fixed = {players[0]: draw(st.integers(min_value=0, max_value=1))}
    rounds = draw(st.integers(min_value=1, max_value=4))
    return players, history, apart, apart_first, fixed, prefer, rounds


@settings(max_examples=40, deadline=None)
@given(tournaments(), st.integers(min_value=0, max_value=3))
def test_every_plan_is_valid_honours_its_constraints_and_respects_its_bound(tournament, seed):
    players, history, apart, apart_first, fixed, prefer, rounds = tournament
    try:
        plan = plan_seating(
            players,
            rounds=rounds,
            history=history,
            prefer=prefer,
            apart=apart,
            apart_first_round=apart_first,
            fixed=fixed,
            seed=seed,
            time_limit=60.0,
            max_iterations=10,
        )
    except SeatingError as error:
        # Only a genuinely crowded set of apart pairs may be refused.
        assert error.code == SeatingProblem.APART_IMPOSSIBLE
        return
    validate_plan(plan.rounds, players=players, prefer=prefer, apart=apart, fixed=fixed)
    validate_plan(plan.rounds[:1], players=players, prefer=prefer, apart=apart + apart_first)
    quality = plan.quality
    measured = plan_quality([*history, *plan.rounds])
    assert (quality.repeats, quality.max_meetings, quality.pairs_repeated) == (
        measured.repeats,
        measured.max_meetings,
        measured.pairs_repeated,
    )
    assert quality.five_spread == measured.five_spread
    assert 0 <= quality.lower_bound <= quality.repeats


def _all_rounds(players, sizes):
    """Every way to seat ``players`` at tables of ``sizes``, each seating once."""
    if not sizes:
        yield []
        return
    first, rest = players[0], players[1:]
    for size in set(sizes):
        others_sizes = list(sizes)
        others_sizes.remove(size)
        for mates in combinations(rest, size - 1):
            remaining = [p for p in rest if p not in mates]
            for tail in _all_rounds(remaining, others_sizes):
                yield sorted([[first, *mates], *tail], key=len, reverse=True)


def _weighted_repeats(schedule):
    """The planner's first objective: a pair that met m times counts (m - 1) cubed."""
    return sum((times - 1) ** 3 for *_, times in plan_quality(schedule).pairs_repeated)


@pytest.mark.parametrize("balance", list(Balance))
@pytest.mark.parametrize(("n_players", "rounds"), [(8, 3), (9, 2), (10, 2)])
def test_on_tiny_tournaments_the_plan_is_the_best_possible(n_players, rounds, balance):
    # Brute force over every later round; the first is fixed, as relabelling the players turns
    # any first round into it. Under the even rule only spreads of at most one compete.
    players = list(range(n_players))
    seatings = list(_all_rounds(players, table_split(n_players).sizes))
    schedules = [[seatings[0], *later] for later in product(seatings, repeat=rounds - 1)]
    fewest = min(plan_quality(schedule).repeats for schedule in schedules)
    if balance == Balance.EVEN:
        schedules = [s for s in schedules if plan_quality(s).five_spread <= 1]
    best = min(map(_weighted_repeats, schedules))
    plan = plan_seating(
        players, rounds=rounds, balance=balance, time_limit=60.0, max_iterations=300
    )
    assert _weighted_repeats(plan.rounds) == best
    assert plan.quality.lower_bound <= fewest
    if balance == Balance.EVEN:
        assert plan.quality.five_spread <= 1


@pytest.mark.parametrize(("n_players", "rounds"), [(8, 3), (9, 2), (10, 2), (9, 3)])
def test_on_tiny_tournaments_no_plan_without_triples_beats_the_spread_floor(n_players, rounds):
    players = list(range(n_players))
    sizes = table_split(n_players).sizes
    seatings = list(_all_rounds(players, sizes))
    fewest: dict[int | None, int] = {}
    for later in product(seatings, repeat=rounds - 1):
        quality = plan_quality([seatings[0], *later])
        if quality.max_meetings > 2:
            continue
        for spread in (None, 0, 1, 2):
            if spread is None or quality.five_spread <= spread:
                fewest[spread] = min(fewest.get(spread, quality.repeats), quality.repeats)
    for spread, repeats in fewest.items():
        assert spread_floor(sizes, rounds, spread) <= repeats
    if (n_players, rounds) == (9, 2):
        # The floor is exact here: 6 repeats, or 12 with everyone at the 5-table once or twice.
        assert fewest[None] == spread_floor(sizes, rounds) == 6
        assert fewest[1] == spread_floor(sizes, rounds, 1) == 12
