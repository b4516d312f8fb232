"""Properties of every seating plan, for generated tournaments: validity, constraints, bound."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.seating import SeatingError, SeatingProblem, plan_quality, plan_seating, validate_plan
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
    fixed = {players[0]: draw(st.integers(min_value=0, max_value=1))}
    rounds = draw(st.integers(min_value=1, max_value=4))
    return players, history, apart, fixed, prefer, rounds


@settings(max_examples=40, deadline=None)
@given(tournaments(), st.integers(min_value=0, max_value=3))
def test_every_plan_is_valid_honours_its_constraints_and_respects_its_bound(tournament, seed):
    players, history, apart, fixed, prefer, rounds = tournament
    try:
        plan = plan_seating(
            players,
            rounds=rounds,
            history=history,
            prefer=prefer,
            apart=apart,
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
    quality = plan.quality
    measured = plan_quality([*history, *plan.rounds])
    assert (quality.repeats, quality.max_meetings, quality.pairs_repeated) == (
        measured.repeats,
        measured.max_meetings,
        measured.pairs_repeated,
    )
    assert quality.five_spread == measured.five_spread
    assert 0 <= quality.lower_bound <= quality.repeats
