"""Problems and ScoringError: codes, places, messages."""

import pickle

import pytest

from scoring.errors import ErrorCode, Problem, ScoringError


@pytest.fixture
def problem():
    return Problem(
        ErrorCode.TRICKS_SUM,
        "Deal 2 (2 cards): the tricks add up to 3, but every deal has exactly 2 tricks.",
        deal=2,
        params={"sum": 3, "hand_size": 2},
    )


def test_located_sets_round_and_table_and_keeps_the_rest(problem):
    located = problem.located(round=3, table=5)
    assert (located.round, located.table) == (3, 5)
    assert (located.code, located.deal, located.seat) == (ErrorCode.TRICKS_SUM, 2, None)
    assert located.message == problem.message
    assert problem.round is None


def test_a_located_problem_reads_with_its_place(problem):
    assert str(problem) == problem.message
    assert str(problem.located(round=3, table=5)) == f"Round 3, table 5: {problem.message}"


def test_error_str_joins_the_messages_and_codes_list_them(problem):
    other = Problem(ErrorCode.DEAL_ORDER, "Deal 4 (4 cards) has entries.", deal=4)
    error = ScoringError([problem, other])
    assert isinstance(error, ValueError)
    assert str(error) == f"{problem.message}\n{other.message}"
    assert error.codes == (ErrorCode.TRICKS_SUM, ErrorCode.DEAL_ORDER)


def test_error_located_places_every_problem(problem):
    error = ScoringError(problem).located(round=2, table=1)
    assert [(p.round, p.table) for p in error.problems] == [(2, 1)]
    assert str(error).startswith("Round 2, table 1: Deal 2")


def test_error_survives_pickling(problem):
    # Caches and worker processes pickle errors; this one round-trips our own object.
    error = pickle.loads(pickle.dumps(ScoringError(problem)))  # noqa: S301
    assert error.problems == (problem,)


def test_error_without_problems_is_a_bug():
    with pytest.raises(TypeError):
        ScoringError([])


def test_codes_are_stable_strings():
    assert ErrorCode.DEALER_BID == "dealer_bid"
    assert len({code.value for code in ErrorCode}) == len(ErrorCode)
