"""The drawn first dealer: the rows of the sheet stay, the dealer and the bidding order move."""

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.checks import check_deal
from scoring.deals import DEAL_COUNT, bidding_order, dealer_seat, deals_dealt
from scoring.errors import ErrorCode, ScoringError
from scoring.sheet import Sheet, check_sheet, score_sheet
from tests.scoring.sheet_strategies import legal_sheets, permuted


def turned(sheet: Sheet, by: int) -> Sheet:
    """The same game written with the rows turned: new row ``j`` is old row ``j + by``, and the
    first dealer is the same player, now in row ``first - by``."""
    n = sheet.n_seats
    rows = permuted(sheet, [(seat + by) % n for seat in range(n)])
    return replace(rows, first_dealer=(sheet.first_dealer - by) % n)


@pytest.mark.parametrize("n_seats", [3, 4, 5, 6])
@pytest.mark.parametrize("first", range(6))
def test_the_first_dealer_deals_deal_1_and_the_deal_passes_clockwise(n_seats, first):
    if first >= n_seats:
        return
    dealers = [dealer_seat(deal, n_seats, first) for deal in range(1, DEAL_COUNT + 1)]
    assert dealers == [(first + deal - 1) % n_seats for deal in range(1, DEAL_COUNT + 1)]
    for deal in range(1, DEAL_COUNT + 1):
        order = bidding_order(deal, n_seats, first)
        assert order[-1] == dealers[deal - 1]
        assert order[0] == (dealers[deal - 1] + 1) % n_seats


def test_the_first_dealer_at_a_table_of_5_deals_three_deals_and_the_others_two():
    assert [deals_dealt(seat, 5, 2) for seat in range(5)] == [2, 2, 3, 2, 2]
    assert [deals_dealt(seat, 4, 2) for seat in range(4)] == [3, 2, 3, 3]


@pytest.mark.parametrize("first", [-1, 4, True, "1"])
def test_a_first_dealer_that_is_not_a_seat_is_refused(first):
    with pytest.raises(ScoringError) as caught:
        dealer_seat(1, 4, first)
    assert caught.value.codes == (ErrorCode.FIRST_DEALER,)
    sheet = Sheet(4, (), first_dealer=first)
    (problem,) = check_sheet(sheet)
    assert problem.code == ErrorCode.FIRST_DEALER
    assert "seats 1 to 4" in problem.message


def test_the_dealers_forbidden_bid_is_at_the_drawn_dealer():
    # Deal 1 with seat 2 dealing first: seats 3, 0, 1 bid 0 and seat 2 may not bid 1.
    assert check_deal(1, [0, 0, 0, 0], [None] * 4, 4, first_dealer=2) == []
    (problem,) = check_deal(1, [0, 0, 1, 0], [None] * 4, 4, first_dealer=2)
    assert (problem.code, problem.seat) == (ErrorCode.DEALER_BID, 2)
    assert "the dealer (seat 3) may not bid 1" in problem.message
    # The same bids with seat 0 dealing: the dealer who made the sum is seat 0.
    (problem,) = check_deal(1, [0, 0, 1, 0], [None] * 4, 4)
    assert (problem.code, problem.seat) == (ErrorCode.DEALER_BID, 0)


@given(legal_sheets(), st.integers(0, 5))
def test_turning_the_rows_and_the_first_dealer_together_gives_the_same_scores(sheet, by):
    by %= sheet.n_seats
    other = turned(sheet, by)
    assert check_sheet(other) == []
    before, after = score_sheet(sheet), score_sheet(other)
    n = sheet.n_seats
    assert [after.totals[(seat - by) % n] for seat in range(n)] == list(before.totals)
    assert [[row[(seat - by) % n] for seat in range(n)] for row in after.cells] == [
        list(row) for row in before.cells
    ]
    assert after.complete == before.complete
    assert {(seat + by) % n for seat in after.losers} == set(before.losers)


@given(legal_sheets(), st.integers(1, 5))
def test_a_sheet_checked_with_another_first_dealer_finds_the_dealer_bid_at_that_dealer(sheet, by):
    first = by % sheet.n_seats
    for problem in check_sheet(replace(sheet, first_dealer=first)):
        assert problem.code == ErrorCode.DEALER_BID
        assert problem.seat == dealer_seat(problem.deal, sheet.n_seats, first)
