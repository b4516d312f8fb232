"""Every rule of a sheet, broken once, gives its own code at the right deal and seat."""

import pytest

from scoring.deals import DEAL_COUNT
from scoring.errors import ErrorCode, ScoringError
from scoring.sheet import DealEntry, Penalty, Sheet, check_deal, check_sheet, score_sheet

# A legal 4-seat sheet with deals 1 to 3 complete. Dealers: deal 1 seat 0, deal 2 seat 1,
# deal 3 seat 2.
BIDS = [[0, 0, 0, 0], [1, 1, 1, 0], [1, 0, 1, 0]]
TRICKS = [[1, 0, 0, 0], [1, 0, 1, 0], [1, 1, 1, 0]]


def rows():
    return [list(row) for row in BIDS], [list(row) for row in TRICKS]


def sheet_with(change=None, penalties=(), n_seats=4):
    bids, tricks = rows()
    if change:
        change(bids, tricks)
    return Sheet.from_rows(n_seats, bids, tricks, penalties)


def set_cell(rows_index, deal, seat, value):
    def change(bids, tricks):
        (bids, tricks)[rows_index][deal - 1][seat] = value

    return change


def bid(deal, seat, value):
    return set_cell(0, deal, seat, value)


def took(deal, seat, value):
    return set_cell(1, deal, seat, value)


def both(*changes):
    def change(bids, tricks):
        for one in changes:
            one(bids, tricks)

    return change


def add_deal(bids_row, tricks_row):
    def change(bids, tricks):
        bids.append(bids_row)
        tricks.append(tricks_row)

    return change


def eleven_plus_one(bids, tricks):
    while len(bids) < DEAL_COUNT + 1:
        bids.append([0, 0, 0, 0])
        tricks.append([len(bids) if len(bids) <= 5 else 0, 0, 0, 0])
    # Hand sizes 5, 5, 4, 3, 2, 1 for deals 6 to 11; the extra 12th row stays unchecked.
    for deal, size in zip(range(6, 12), (5, 5, 4, 3, 2, 1), strict=True):
        tricks[deal - 1] = [size, 0, 0, 0]


CASES = {
    "bid above the hand size": (bid(2, 2, 3), (), ErrorCode.BID_RANGE, 2, 2),
    "negative bid": (bid(1, 3, -1), (), ErrorCode.BID_RANGE, 1, 3),
    "bid that is not a number": (bid(2, 0, "1"), (), ErrorCode.BID_RANGE, 2, 0),
    "dealer makes the bids add up": (bid(3, 2, 2), (), ErrorCode.DEALER_BID, 3, 2),
    "tricks without every bid": (bid(3, 1, None), (), ErrorCode.BIDS_INCOMPLETE, 3, 1),
    "tricks above the hand size": (
        both(took(3, 0, 4), took(3, 1, 0), took(3, 2, 0)),
        (),
        ErrorCode.TRICKS_RANGE,
        3,
        0,
    ),
    "negative tricks": (both(took(2, 0, -1), took(2, 1, 2)), (), ErrorCode.TRICKS_RANGE, 2, 0),
    "some tricks missing": (took(3, 3, None), (), ErrorCode.TRICKS_INCOMPLETE, 3, 3),
    "tricks not adding up": (took(2, 3, 1), (), ErrorCode.TRICKS_SUM, 2, None),
    "short bids row": (
        lambda bids, tricks: bids[1].pop(),
        (),
        ErrorCode.ROW_LENGTH,
        2,
        None,
    ),
    "long tricks row": (
        lambda bids, tricks: tricks[0].append(0),
        (),
        ErrorCode.ROW_LENGTH,
        1,
        None,
    ),
    "deal after an unfinished deal": (
        both(*(took(2, seat, None) for seat in range(4))),
        (),
        ErrorCode.DEAL_ORDER,
        3,
        None,
    ),
    "bids after a deal still being bid": (
        both(add_deal([None, None, 1, 0], [None] * 4), add_deal([0] * 4, [None] * 4)),
        (),
        ErrorCode.DEAL_ORDER,
        5,
        None,
    ),
    "penalty for a seat the table lacks": (None, [Penalty(4, 2)], ErrorCode.PENALTY_SEAT, 2, None),
    "penalty in a deal not reached": (None, [Penalty(1, 5)], ErrorCode.PENALTY_DEAL, 5, 1),
    "penalty in deal 12": (None, [Penalty(1, 12)], ErrorCode.PENALTY_DEAL, None, 1),
    "more than 11 deals": (eleven_plus_one, (), ErrorCode.TOO_MANY_DEALS, None, None),
}


@pytest.mark.parametrize(("change", "penalties", "code", "deal", "seat"), CASES.values(), ids=CASES)
def test_a_broken_rule_is_found_once_at_its_place(change, penalties, code, deal, seat):
    problems = check_sheet(sheet_with(change, penalties))
    assert [(p.code, p.deal, p.seat) for p in problems] == [(code, deal, seat)]


def test_the_base_sheet_is_legal():
    assert check_sheet(sheet_with()) == []


@pytest.mark.parametrize("n_seats", [2, 7])
def test_a_table_outside_3_to_6_seats_is_refused(n_seats):
    problems = check_sheet(Sheet(n_seats, ()))
    assert [(p.code, p.deal, p.seat) for p in problems] == [(ErrorCode.SEAT_COUNT, None, None)]


@pytest.mark.parametrize("deal", [0, 12])
def test_check_deal_refuses_a_deal_outside_1_to_11(deal):
    problems = check_deal(deal, [0, 0, 0], [None] * 3, 3)
    assert [(p.code, p.params["deal"]) for p in problems] == [(ErrorCode.DEAL_NUMBER, deal)]


def test_dealer_bid_message_names_the_deal_the_dealer_and_the_forbidden_bid():
    (problem,) = check_sheet(sheet_with(bid(3, 2, 2)))
    assert problem.message == (
        "Deal 3 (3 cards): the dealer (seat 3) may not bid 2, because the bids would add up to 3."
    )
    assert problem.params == {
        "deal": 3, "label": "3", "hand_size": 3, "seat_number": 3, "bid": 2, "sum": 3,
    }  # fmt: skip


def test_tricks_sum_message_names_the_sum_and_the_hand_size():
    (problem,) = check_sheet(sheet_with(took(2, 3, 1)))
    assert problem.message == (
        "Deal 2 (2 cards): the tricks add up to 3, but every deal has exactly 2 tricks."
    )
    assert (problem.params["sum"], problem.params["hand_size"]) == (3, 2)


def test_penalty_problems_name_the_seat_and_the_deal_reached():
    (problem,) = check_sheet(sheet_with(penalties=[Penalty(1, 5)]))
    assert problem.message == (
        "Deal 5 (5 cards): seat 2 has a revoke penalty, but the game has only reached deal 4."
    )
    assert problem.params == {"deal": 5, "current_deal": 4, "seat_number": 2}


def test_every_problem_is_reported_not_just_the_first():
    sheet = sheet_with(both(bid(1, 0, 2), took(2, 3, 1), bid(3, 2, 2)), [Penalty(9, 1)])
    found = [(p.code, p.deal, p.seat) for p in check_sheet(sheet)]
    assert found == [
        (ErrorCode.BID_RANGE, 1, 0),
        (ErrorCode.TRICKS_SUM, 2, None),
        (ErrorCode.DEALER_BID, 3, 2),
        (ErrorCode.PENALTY_SEAT, 1, None),
    ]


def test_score_sheet_raises_with_every_problem():
    with pytest.raises(ScoringError) as caught:
        score_sheet(sheet_with(both(took(2, 3, 1), bid(3, 2, 2))))
    assert caught.value.codes == (ErrorCode.TRICKS_SUM, ErrorCode.DEALER_BID)


@pytest.mark.parametrize(
    ("bids_row", "tricks_row"),
    [
        ([None] * 4, [None] * 4),  # deal 4 not started
        ([1, None, None, None], [None] * 4),  # bidding under way
        ([None, None, None, 1], [None] * 4),  # the dealer's bid written first: still under way
        ([1, 1, 1, 2], [None] * 4),  # all bids in, deal being played
    ],
)
def test_in_progress_states_are_legal(bids_row, tricks_row):
    assert check_sheet(sheet_with(add_deal(bids_row, tricks_row))) == []


def test_partial_bids_that_reach_the_hand_size_wait_for_the_dealer():
    # Deal 4 is dealt by seat 3; the others' bids may add up to 4 as long as the dealer has not bid.
    assert check_sheet(sheet_with(add_deal([2, 1, 1, None], [None] * 4))) == []


def test_trailing_empty_deals_are_not_played_yet():
    sheet = Sheet(4, (*sheet_with().deals, DealEntry.empty(4), DealEntry.empty(4)))
    assert check_sheet(sheet) == []


def test_a_penalty_may_precede_the_replay_of_the_deal_being_played():
    assert check_sheet(sheet_with(penalties=[Penalty(0, 4), Penalty(3, 1), Penalty(3, 1)])) == []


def test_from_rows_pads_missing_tricks_rows():
    sheet = Sheet.from_rows(3, [[0, 0, 0], [1, 0, 0]], [[1, 0, 0]])
    assert sheet.deals[1] == DealEntry((1, 0, 0), (None, None, None))
    assert check_sheet(sheet) == []


def test_from_rows_keeps_tricks_that_have_no_bids_row():
    sheet = Sheet.from_rows(3, [[0, 0, 0]], [[1, 0, 0], [2, 0, 0]])
    assert sheet.deals[1] == DealEntry((None, None, None), (2, 0, 0))
    assert [(p.code, p.deal, p.seat) for p in check_sheet(sheet)] == [
        (ErrorCode.BIDS_INCOMPLETE, 2, seat) for seat in range(3)
    ]
