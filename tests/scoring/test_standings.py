"""Standings: summing rounds, tie-breaks, shared ranks, and independence of input order."""

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.errors import ErrorCode, ScoringError
from scoring.sheet import Sheet, score_sheet
from scoring.standings import (
    DEFAULT_ORDER,
    RoundScore,
    StandingRow,
    TieBreak,
    round_scores,
    standings,
    tie_break_order,
)
from tests.scoring.sheet_strategies import legal_sheets

CRITERIA = {
    TieBreak.TOURNAMENT_POINTS: lambda row: -row.tournament_points,
    TieBreak.FEWER_BOLLEN: lambda row: row.bollen,
    TieBreak.MORE_CORRECT: lambda row: -row.correct,
    TieBreak.MORE_POINTS: lambda row: -row.points,
}


def score(player, round, tournament_points, bollen=0, correct=0, points=0):
    return RoundScore(player, round, tournament_points, bollen, correct, points)


@st.composite
def round_score_lists(draw):
    """Scores of up to 8 players over up to 4 rounds, each player at most once per round; small
    ranges so that ties are common."""
    pairs = draw(st.sets(st.tuples(st.sampled_from("abcdefgh"), st.integers(1, 4)), max_size=24))
    return [
        RoundScore(
            player,
            round,
            tournament_points=draw(st.integers(-4, 6)),
            bollen=draw(st.integers(0, 3)),
            correct=draw(st.integers(0, 3)),
            points=draw(st.integers(0, 3)),
        )
        for player, round in sorted(pairs)
    ]


tie_break_orders = st.lists(st.sampled_from(list(TieBreak)), min_size=1, unique=True)


def merit(row, order):
    return tuple(CRITERIA[tie_break](row) for tie_break in order)


def test_default_order_is_points_then_fewer_bollen():
    assert DEFAULT_ORDER == (TieBreak.TOURNAMENT_POINTS, TieBreak.FEWER_BOLLEN)


def test_rounds_add_up_per_player():
    rows = standings(
        [score("ann", 1, 20, 3, 8, 14), score("bob", 1, 10, 5, 6, 10), score("ann", 2, 5, 4, 7, 5)]
    )
    assert rows[0] == StandingRow(
        rank=1, player="ann", tournament_points=25, bollen=7, correct=15, points=19,
        per_round={1: 20, 2: 5}, rounds_played=2, name="ann",
    )  # fmt: skip
    assert (rows[1].player, rows[1].rank, rows[1].per_round) == ("bob", 2, {1: 10})


def test_equal_points_fewer_bollen_wins_then_ranks_are_shared():
    rows = standings(
        [
            score("a", 1, 10, bollen=4),
            score("b", 1, 10, bollen=2),
            score("c", 1, 10, bollen=4),
            score("d", 1, 3, bollen=0),
        ]
    )
    assert [(row.rank, row.player) for row in rows] == [(1, "b"), (2, "a"), (2, "c"), (4, "d")]


def test_a_tournament_may_break_ties_on_correct_deals():
    scores = [score("a", 1, 10, bollen=2, correct=7), score("b", 1, 10, bollen=2, correct=9)]
    assert [row.player for row in standings(scores)] == ["a", "b"]
    rows = standings(scores, order=["tournament_points", "more_correct"])
    assert [(row.rank, row.player) for row in rows] == [(1, "b"), (2, "a")]


def test_shared_ranks_are_listed_by_name():
    rows = standings(
        [score(2, 1, 5), score(1, 1, 5), score(3, 1, 5)],
        names={1: "Zoë", 2: "anna", 3: "Bram"},
    )
    assert [(row.rank, row.name) for row in rows] == [(1, "anna"), (1, "Bram"), (1, "Zoë")]


def test_listed_players_without_scores_appear_with_zeros():
    rows = standings([score("a", 1, -4, bollen=6)], players=["a", "late"])
    assert [(row.rank, row.player, row.tournament_points) for row in rows] == [
        (1, "late", 0),
        (2, "a", -4),
    ]
    assert (rows[0].per_round, rows[0].rounds_played) == ({}, 0)


def test_two_scores_in_one_round_are_refused():
    with pytest.raises(ScoringError) as caught:
        standings([score("a", 1, 3), score("a", 2, 3), score("a", 1, 4)])
    (problem,) = caught.value.problems
    assert (problem.code, problem.round, problem.params["player"]) == (
        ErrorCode.DUPLICATE_SCORE, 1, "a",
    )  # fmt: skip


@pytest.mark.parametrize(
    "order",
    [(), (TieBreak.FEWER_BOLLEN, TieBreak.FEWER_BOLLEN), ("tournament_points", "no_such_thing")],
)
def test_an_empty_repeated_or_unknown_order_is_refused(order):
    with pytest.raises(ScoringError) as caught:
        standings([score("a", 1, 3)], order=order)
    assert caught.value.codes == (ErrorCode.TIE_BREAK_ORDER,)


def test_tie_break_order_accepts_the_stored_strings():
    assert tie_break_order(["more_points", "fewer_bollen"]) == (
        TieBreak.MORE_POINTS, TieBreak.FEWER_BOLLEN,
    )  # fmt: skip


@given(round_score_lists(), tie_break_orders, st.randoms(use_true_random=False))
def test_standings_do_not_depend_on_the_order_of_the_scores(scores, order, random):
    shuffled = list(scores)
    random.shuffle(shuffled)
    assert standings(shuffled, order=order) == standings(scores, order=order)


@given(round_score_lists(), st.permutations(list(TieBreak)[1:]))
def test_more_tournament_points_is_never_ranked_worse(scores, rest):
    order = (TieBreak.TOURNAMENT_POINTS, *rest)
    rows = standings(scores, order=order)
    for better, worse in itertools.combinations(rows, 2):
        assert better.tournament_points >= worse.tournament_points
        if better.tournament_points > worse.tournament_points:
            assert better.rank < worse.rank


@given(round_score_lists(), tie_break_orders)
def test_equal_rank_exactly_when_equal_on_every_criterion(scores, order):
    rows = standings(scores, order=order)
    for one, other in itertools.combinations(rows, 2):
        assert (one.rank == other.rank) == (merit(one, order) == merit(other, order))
    # Standard competition ranking: a rank is one more than the number of rows ahead of it.
    for row in rows:
        ahead = sum(merit(other, order) < merit(row, order) for other in rows)
        assert row.rank == ahead + 1


@given(round_score_lists())
def test_round_points_add_up_to_the_total(scores):
    for row in standings(scores):
        assert sum(row.per_round.values()) == row.tournament_points
        assert row.rounds_played == len(row.per_round)


@given(st.lists(legal_sheets(n_seats=4, complete=True), min_size=1, max_size=3))
def test_sheets_feed_the_standings(sheets):
    players = ["p1", "p2", "p3", "p4"]
    scores = [
        one
        for number, sheet in enumerate(sheets, start=1)
        for one in round_scores(players, score_sheet(sheet), round=number)
    ]
    rows = standings(scores)
    assert sorted(row.player for row in rows) == players
    assert sum(row.tournament_points for row in rows) == sum(
        totals.tournament_points for sheet in sheets for totals in score_sheet(sheet).totals
    )
    assert all(row.rounds_played == len(sheets) for row in rows)


def test_round_scores_need_a_player_per_seat():
    with pytest.raises(ValueError, match="3 players given for a table of 4 seats"):
        round_scores(["a", "b", "c"], score_sheet(Sheet(4, ())), round=1)


def test_tied_rows_follow_the_name_keys_the_caller_gives():
    scores = [score(p, 1, 5) for p in ("a", "b", "c")]
    names = {"a": "Jan van der Meer", "b": "Anna Zwart", "c": "Piet Aarts"}
    keys = {"a": ("meer",), "b": ("zwart",), "c": ("aarts",)}
    rows = standings(scores, names=names, name_keys=keys)
    assert [row.player for row in rows] == ["c", "a", "b"]
    assert [row.player for row in standings(scores, names=names)] == ["b", "a", "c"]
    assert {row.rank for row in rows} == {1}
