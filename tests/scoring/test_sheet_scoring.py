"""Points, bollen and totals of a sheet; who loses a casual game; bol-free players."""

import pytest

from scoring.deals import DEALS
from scoring.sheet import (
    BOL_PENALTY,
    CORRECT_BONUS,
    CellState,
    Penalty,
    SeatTotals,
    Sheet,
    bol_free,
    casual_losers,
    score_sheet,
)

HAND_SIZES = [spec.hand_size for spec in DEALS]


def full_game(n_seats, penalties=()):
    """Seat 0 bids 0 and takes nothing, seat 1 bids the whole hand and takes it, the rest bid 1
    and take nothing: seats 0 and 1 keep every bid, the others get a bol every deal."""
    bids = [[0, size] + [1] * (n_seats - 2) for size in HAND_SIZES]
    tricks = [[0, size] + [0] * (n_seats - 2) for size in HAND_SIZES]
    return Sheet.from_rows(n_seats, bids, tricks, penalties)


def totals(bollen=0, points=0, penalty_bollen=0, correct=0):
    return SeatTotals(bollen, penalty_bollen, points, correct, 0, 0)


def test_scoring_constants_follow_the_tournament_form():
    assert (CORRECT_BONUS, BOL_PENALTY) == (2, -2)


def test_a_kept_bid_scores_bid_plus_2_and_a_bol_minus_2():
    result = score_sheet(Sheet.from_rows(3, [[0, 1, 1]], [[0, 1, 0]]))
    kept_zero, kept_one, bol = result.cells[0]
    assert (kept_zero.state, kept_zero.points, kept_zero.tournament_points) == (
        CellState.KEPT, 0, 2,
    )  # fmt: skip
    assert (kept_one.state, kept_one.points, kept_one.tournament_points) == (CellState.KEPT, 1, 3)
    assert (bol.state, bol.points, bol.tournament_points) == (CellState.BOL, 0, -2)


def test_a_kept_five_scores_7():
    bids = [[0, 0, 0]] * 4 + [[5, 0, 1]]
    tricks = [[size, 0, 0] for size in (1, 2, 3, 4)] + [[5, 0, 0]]
    cell = score_sheet(Sheet.from_rows(3, bids, tricks)).cells[4][0]
    assert (cell.state, cell.points, cell.tournament_points) == (CellState.KEPT, 5, 7)


def test_a_complete_game_totals_the_three_columns():
    result = score_sheet(full_game(3))
    assert result.complete
    assert result.deals_complete == 11
    assert result.totals == (
        SeatTotals(bollen=0, penalty_bollen=0, points=0, correct=11, tournament_points=22,
                   deals_played=11),
        SeatTotals(bollen=0, penalty_bollen=0, points=35, correct=11, tournament_points=57,
                   deals_played=11),
        SeatTotals(bollen=11, penalty_bollen=0, points=0, correct=0, tournament_points=-22,
                   deals_played=11),
    )  # fmt: skip


def test_most_bollen_loses_and_a_game_without_bol_is_bol_free():
    result = score_sheet(full_game(3))
    assert result.losers == (2,)
    assert result.bol_free == (0, 1)


def test_equal_bollen_and_equal_points_is_dubbel_zuipen():
    result = score_sheet(full_game(5))
    assert result.losers == (2, 3, 4)


def test_equal_bollen_fewest_points_loses():
    assert casual_losers([totals(bollen=3, points=9), totals(bollen=3, points=4), totals(1)]) == (
        1,
    )


def test_casual_losers_of_no_totals_is_nobody():
    assert casual_losers([]) == ()


def test_bol_free_needs_a_complete_game():
    clean = [totals(), totals(bollen=2)]
    assert bol_free(clean, complete=True) == (0,)
    assert bol_free(clean, complete=False) == ()


def test_a_penalty_is_a_bol_on_top_of_a_kept_deal():
    result = score_sheet(full_game(3, penalties=[Penalty(seat=0, deal=6)]))
    cell = result.cells[5][0]
    assert (cell.state, cell.penalty_bollen, cell.points) == (CellState.KEPT, 1, 0)
    assert cell.tournament_points == 0 + CORRECT_BONUS + BOL_PENALTY
    seat = result.totals[0]
    assert (seat.bollen, seat.penalty_bollen, seat.correct, seat.tournament_points) == (
        1, 1, 11, 20,
    )  # fmt: skip
    assert result.bol_free == (1,)


def test_penalty_bollen_decide_who_loses():
    penalties = [Penalty(seat=1, deal=deal) for deal in range(1, 12)] * 2
    result = score_sheet(full_game(3, penalties=penalties))
    assert [seat.bollen for seat in result.totals] == [0, 22, 11]
    assert result.losers == (1,)


def test_two_penalties_in_one_deal_count_twice():
    result = score_sheet(full_game(4, penalties=[Penalty(2, 3), Penalty(2, 3)]))
    cell = result.cells[2][2]
    assert (cell.state, cell.penalty_bollen, cell.tournament_points) == (CellState.BOL, 2, -6)
    assert result.totals[2].bollen == 13


def test_an_unfinished_sheet_has_every_row_and_no_losers_yet():
    sheet = Sheet.from_rows(4, [[0, 0, 0, 0], [1, None, 0, None]], [[1, 0, 0, 0]])
    result = score_sheet(sheet)
    assert len(result.cells) == 11
    assert [cell.state for cell in result.cells[1]] == [
        CellState.BID, CellState.EMPTY, CellState.BID, CellState.EMPTY,
    ]  # fmt: skip
    assert {cell.state for row in result.cells[2:] for cell in row} == {CellState.EMPTY}
    assert (result.deals_complete, result.complete) == (1, False)
    assert (result.losers, result.bol_free) == ((), ())
    assert [seat.deals_played for seat in result.totals] == [1] * 4


def test_a_deal_being_played_shows_its_bids():
    sheet = Sheet.from_rows(4, [[0, 0, 0, 0], [1, 0, 0, 0]], [[1, 0, 0, 0]])
    row = score_sheet(sheet).cells[1]
    assert [(cell.state, cell.bid, cell.tricks) for cell in row] == [
        (CellState.BID, 1, None), (CellState.BID, 0, None),
        (CellState.BID, 0, None), (CellState.BID, 0, None),
    ]  # fmt: skip


def test_unfinished_cells_score_nothing_but_their_penalties():
    sheet = Sheet.from_rows(3, [[0, 0, 0], [1, 0, 0]], [[1, 0, 0]], [Penalty(2, 2)])
    row = score_sheet(sheet).cells[1]
    assert [cell.points for cell in row] == [0, 0, 0]
    assert [cell.tournament_points for cell in row] == [0, 0, BOL_PENALTY]
    assert score_sheet(sheet).totals[2].bollen == 1


def test_an_empty_sheet_scores_zero():
    result = score_sheet(Sheet(6, ()))
    assert result.totals == (SeatTotals(0, 0, 0, 0, 0, 0),) * 6
    assert (result.deals_complete, result.complete, result.losers) == (0, False, ())


@pytest.mark.parametrize("n_seats", [3, 4, 5, 6])
def test_a_complete_game_has_11_cells_per_seat(n_seats):
    result = score_sheet(full_game(n_seats))
    assert [len(row) for row in result.cells] == [n_seats] * 11
