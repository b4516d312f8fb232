"""The rules' choice of a sheet's digits from hand-made readings of its boxes: the box alone
would be wrong, the rules put it right, and say how sure they are."""

from __future__ import annotations

from scoring.deals import DEALS
from scoring.reading import BoxBelief, DealBeliefs, choose_sheet

SURE = 0.995


def digit(value: int, sure: float = SURE, *, other: int | None = None) -> BoxBelief:
    """A box read as ``value`` with probability ``sure``, the rest on ``other`` (or spread)."""
    probabilities = [0.0] * 10
    probabilities[value] = sure
    if other is None:
        for v in range(10):
            if v != value:
                probabilities[v] = (1 - sure) / 9
    else:
        probabilities[other] = 1 - sure
    return BoxBelief(empty=0.001, digits=tuple(probabilities))


EMPTY = BoxBelief(empty=0.999, digits=(0.1,) * 10)


def deal(bids, tricks) -> DealBeliefs:
    as_box = lambda v: v if isinstance(v, BoxBelief) else (EMPTY if v is None else digit(v))  # noqa: E731
    return DealBeliefs(bids=tuple(map(as_box, bids)), tricks=tuple(map(as_box, tricks)))


def played(n_deals: int, n_seats: int = 4) -> list[DealBeliefs]:
    """A sheet whose first ``n_deals`` deals are played by the rules: every bid 0 but the last
    row's 1 (0 in deal 1, whose hand is 1), the first row takes every trick."""
    deals = []
    for spec in DEALS:
        if spec.number <= n_deals:
            bids = [0] * (n_seats - 1) + [1 if spec.hand_size != 1 else 0]
            tricks = [spec.hand_size] + [0] * (n_seats - 1)
            deals.append(deal(bids, tricks))
        else:
            deals.append(deal([None] * n_seats, [None] * n_seats))
    return deals


def test_a_clear_sheet_is_read_as_it_is_and_certain():
    chosen = choose_sheet(played(5))
    assert chosen[0].bids == (0, 0, 0, 0) and chosen[0].tricks == (1, 0, 0, 0)
    assert chosen[4].bids == (0, 0, 0, 1) and chosen[4].tricks == (5, 0, 0, 0)
    assert chosen[5].bids == (None,) * 4 and chosen[10].tricks == (None,) * 4
    assert min(c for d in chosen for c in d.bid_certainty + d.tricks_certainty) > 0.98


def test_tricks_that_must_add_up_put_a_misread_box_right_and_the_rules_are_sure():
    deals = played(4)
    # Deal 4 (4 cards), tricks 4 0 0 0: the second box looks more like a 7 than a 0.
    deals[3] = deal([0, 0, 0, 1], [4, digit(7, 0.7, other=0), 0, 0])
    chosen = choose_sheet(deals)
    assert chosen[3].tricks == (4, 0, 0, 0)
    assert chosen[3].tricks_certainty[1] > 0.99


def test_a_box_above_the_hand_size_is_never_chosen():
    deals = played(2)
    deals[0] = deal([0, 0, 0, digit(7, 0.9, other=0)], [1, 0, 0, 0])  # deal 1 has one card
    assert choose_sheet(deals)[0].bids == (0, 0, 0, 0)


def test_bids_that_would_add_up_change_the_least_certain_box_and_say_it_is_doubtful():
    deals = played(3)
    # Deal 3 (3 cards): read 1 1 0 1 = 3, forbidden; the third box could be a 6 or a 0... or 2.
    deals[2] = deal([1, 1, digit(0, 0.6, other=2), 1], [3, 0, 0, 0])
    chosen = choose_sheet(deals)
    assert chosen[2].bids == (1, 1, 2, 1)
    assert chosen[2].bid_certainty[2] > 0.9
    assert chosen[2].bid_certainty[0] > 0.98


def test_an_even_doubt_stays_doubtful_unless_the_rules_settle_it():
    deals = played(3)
    deals[2] = deal([0, digit(1, 0.5, other=2), 0, 0], [3, 0, 0, 0])  # 1 or 2: both allowed
    chosen = choose_sheet(deals)
    assert chosen[2].bids[1] in (1, 2)
    assert 0.3 < chosen[2].bid_certainty[1] < 0.7
    deals[2] = deal([1, digit(1, 0.5, other=2), 0, 0], [3, 0, 0, 0])  # 1 + 2 would be 3
    chosen = choose_sheet(deals)
    assert chosen[2].bids[1] == 1 and chosen[2].bid_certainty[1] > 0.99


def test_deals_in_order_fill_a_faint_deal_between_two_written_ones():
    deals = played(6)
    faint = BoxBelief(empty=0.7, digits=digit(0).digits)
    faint_one = BoxBelief(empty=0.7, digits=digit(1).digits)
    faint_two = BoxBelief(empty=0.7, digits=digit(2).digits)
    deals[1] = deal([faint, faint, faint, faint_one], [faint_two, faint, faint, faint])
    chosen = choose_sheet(deals)
    assert chosen[1].bids == (0, 0, 0, 1) and chosen[1].tricks == (2, 0, 0, 0)


def test_the_deal_being_played_has_its_bids_and_no_tricks_yet():
    deals = played(3, n_seats=5)
    deals[3] = deal([1, 0, 2, 0, 0], [None] * 5)
    chosen = choose_sheet(deals)
    assert chosen[3].bids == (1, 0, 2, 0, 0) and chosen[3].tricks == (None,) * 5
    assert min(chosen[3].tricks_certainty) > 0.98
    assert chosen[4].bids == (None,) * 5
