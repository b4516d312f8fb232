"""The worked example of rules.md: one 4-player deal 4, seats A B C D clockwise, dealer B."""

from scoring.deals import bidding_order, deal_spec, dealer_seat, forbidden_bid
from scoring.errors import ErrorCode
from scoring.sheet import CellState, DealEntry, Sheet, check_deal, score_sheet

# Deal 4 is dealt by seat (4 - 1) % 4 = 3. For B to deal it, the clockwise seats must start
# at C: seat 0 = C, 1 = D, 2 = A, 3 = B (still A B C D clockwise).
SEATS = ("C", "D", "A", "B")
C, D, A, B = range(4)


def by_seat(**values):
    return [values[name] for name in SEATS]


def by_name(values):
    return {SEATS[seat]: value for seat, value in enumerate(values)}


def test_b_deals_deal_4_and_bidding_runs_c_d_a_b():
    assert deal_spec(4).hand_size == 4
    assert dealer_seat(4, 4) == B
    assert [SEATS[seat] for seat in bidding_order(4, 4)] == ["C", "D", "A", "B"]


def test_b_may_not_bid_1_after_c1_d0_a2():
    assert forbidden_bid(4, [1, 0, 2]) == 1


def test_b_bidding_1_is_the_dealer_bid_error_at_seat_b():
    problems = check_deal(4, by_seat(C=1, D=0, A=2, B=1), [None] * 4, 4)
    assert [(p.code, p.deal, p.seat) for p in problems] == [(ErrorCode.DEALER_BID, 4, B)]
    assert problems[0].params["bid"] == 1
    assert problems[0].message == (
        "Deal 4 (4 cards): the dealer (seat 4) may not bid 1, because the bids would add up to 4."
    )


def test_worked_example_scores():
    # Deals 1 to 3 only have to be legal: everybody bids 0 and seat 0 takes every trick.
    earlier = [DealEntry((0,) * 4, (deal, 0, 0, 0)) for deal in (1, 2, 3)]
    example = DealEntry(tuple(by_seat(C=1, D=0, A=2, B=0)), tuple(by_seat(C=1, D=1, A=2, B=0)))
    result = score_sheet(Sheet(4, (*earlier, example)))
    cells = result.cells[3]

    assert by_name(cell.state for cell in cells) == {
        "C": CellState.KEPT,
        "D": CellState.BOL,
        "A": CellState.KEPT,
        "B": CellState.KEPT,
    }
    assert by_name(cell.tournament_points for cell in cells) == {"C": 3, "D": -2, "A": 4, "B": 2}
    assert by_name(cell.points for cell in cells) == {"C": 1, "D": 0, "A": 2, "B": 0}
