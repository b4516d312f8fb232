"""The deal schedule, the dealer, the bidding order and the dealer's forbidden bid."""

from itertools import pairwise

import pytest

from scoring.deals import (
    DEAL_COUNT,
    DEALS,
    bidding_order,
    deal_spec,
    dealer_seat,
    deals_dealt,
    forbidden_bid,
)
from scoring.errors import ErrorCode, ScoringError


def test_schedule_matches_the_form():
    assert DEAL_COUNT == len(DEALS) == 11
    assert [spec.label for spec in DEALS] == [
        "1", "2", "3", "4", "5", "5Z", "5B", "4", "3", "2", "1",
    ]  # fmt: skip
    assert [spec.hand_size for spec in DEALS] == [1, 2, 3, 4, 5, 5, 5, 4, 3, 2, 1]
    assert [spec.number for spec in DEALS] == list(range(1, 12))


def test_only_5z_and_5b_are_without_trump_and_only_5b_is_blind():
    assert [spec.number for spec in DEALS if not spec.trump] == [6, 7]
    assert [spec.number for spec in DEALS if spec.blind] == [7]


def test_deal_titles_name_number_and_kind():
    assert deal_spec(1).title == "Deal 1 (1 card)"
    assert deal_spec(6).title == "Deal 6 (5Z: 5 cards, no trump)"
    assert deal_spec(7).title == "Deal 7 (5B: 5 cards, blind, no trump)"


@pytest.mark.parametrize("deal", [0, 12, -1, True, "4"])
def test_deal_spec_refuses_what_is_not_a_deal(deal):
    with pytest.raises(ScoringError) as caught:
        deal_spec(deal)
    assert caught.value.codes == (ErrorCode.DEAL_NUMBER,)


@pytest.mark.parametrize("n_seats", [3, 4, 5, 6])
def test_seat_0_deals_deal_1_and_the_deal_passes_clockwise(n_seats):
    dealers = [dealer_seat(deal, n_seats) for deal in range(1, 12)]
    assert dealers[0] == 0
    assert all(after == (before + 1) % n_seats for before, after in pairwise(dealers))


@pytest.mark.parametrize("n_seats", [3, 4, 5, 6])
@pytest.mark.parametrize("deal", range(1, 12))
def test_bidding_starts_left_of_the_dealer_and_the_dealer_bids_last(deal, n_seats):
    order = bidding_order(deal, n_seats)
    dealer = dealer_seat(deal, n_seats)
    assert sorted(order) == list(range(n_seats))
    assert order[-1] == dealer
    assert order[0] == (dealer + 1) % n_seats


@pytest.mark.parametrize("n_seats", [0, 2, 7])
def test_seat_count_outside_3_to_6_is_refused(n_seats):
    with pytest.raises(ScoringError) as caught:
        dealer_seat(1, n_seats)
    assert caught.value.codes == (ErrorCode.SEAT_COUNT,)


@pytest.mark.parametrize(
    ("deal", "other_bids", "forbidden"),
    [
        (1, [0, 0], 1),
        (1, [1, 0], 0),
        (1, [1, 1], None),  # the others already bid more than the hand: the dealer is free
        (5, [2, 2, 0], 1),
        (7, [0, 0, 0, 0, 0], 5),
        (11, [0, 0, 0], 1),
    ],
)
def test_forbidden_bid_completes_the_hand_size(deal, other_bids, forbidden):
    assert forbidden_bid(deal, other_bids) == forbidden


@pytest.mark.parametrize(
    "n_seats,expected",
    [(3, [4, 4, 3]), (4, [3, 3, 3, 2]), (5, [3, 2, 2, 2, 2]), (6, [2, 2, 2, 2, 2, 1])],
)
def test_how_many_deals_each_seat_deals(n_seats, expected):
    assert [deals_dealt(seat, n_seats) for seat in range(n_seats)] == expected
    assert sum(expected) == DEAL_COUNT
