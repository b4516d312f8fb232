"""The search state: moves keep their bookkeeping equal to a plan counted afresh."""

import random

import pytest

from scoring.seating.search import TabuSearch
from scoring.seating.state import PlanState


def fresh(state: PlanState) -> PlanState:
    """The same plan loaded into a new state, every count taken from scratch."""
    copy = PlanState(
        n=state.n,
        sizes=state.sizes,
        rounds=state.n_rounds,
        met={},
        larger=state.base_larger,
        apart=[],
        fixed=state.fixed,
        rng=random.Random(0),
        apart_first=[(a, b) for a in range(state.n) for b in state.first_apart[a] if a < b],
        bounds=state.bounds,
    )
    copy.load(state.snapshot())
    return copy


@pytest.mark.parametrize("bounded", [False, True])
@pytest.mark.parametrize("seed", range(5))
def test_swaps_and_transfers_keep_costs_counts_and_meetings_exact(seed, bounded):
    rng = random.Random(seed)
    # 18 players as 5+5+4+4, with history counts, a fixed player and a first-round apart pair.
    state = TabuSearch(
        n=18,
        sizes=(5, 5, 4, 4),
        rounds=4,
        met={},
        larger=[rng.randrange(3) for _ in range(18)],
        apart=[],
        fixed={17: 3},
        rng=rng,
        apart_first=[(0, 1)],
        bounds=[(2, 3)] * 18 if bounded else None,
    )
    state.greedy_rounds([])
    transfers = 0
    for _ in range(300):
        r = rng.randrange(4)
        a = rng.randrange(17)
        targets = state.transfers_from(r, a)
        if targets and rng.random() < 0.5:
            move = (1, r, a, rng.choice(targets))
            transfers += 1
        else:
            b = rng.choice([p for p in range(17) if state.where[r][p] != state.where[r][a]])
            move = (0, r, a, b)
        state.apply(move, state.delta(move))
    again = fresh(state)
    assert transfers > 0
    assert state.cost == again.cost
    assert state.key() == again.key()
    assert state.excess == again.excess
    assert state.larger == again.larger
    assert state.met == again.met
    assert state.large == again.large
    for tables in state.tables:
        assert sorted(map(len, tables), reverse=True) == [5, 5, 4, 4]
        assert 17 in tables[3] and len(tables[3]) == 4


def test_a_transfer_trades_the_sizes_of_two_tables_and_eight_counts():
    state = PlanState(
        n=9,
        sizes=(5, 4),
        rounds=1,
        met={},
        larger=[0] * 9,
        apart=[],
        fixed={},
        rng=random.Random(0),
    )
    state.load([[[0, 1, 2, 3, 4], [5, 6, 7, 8]]])
    assert state.transfers_from(0, 0) == [1]
    assert state.transfers_from(0, 5) == []  # from a smaller table nobody can be transferred
    state.transfer(0, 0, 1, state.transfer_delta(0, 0, 1))
    assert [sorted(t) for t in state.tables[0]] == [[1, 2, 3, 4], [0, 5, 6, 7, 8]]
    assert state.larger == [1, 0, 0, 0, 0, 1, 1, 1, 1]
    assert state.key() == fresh(state).key()
