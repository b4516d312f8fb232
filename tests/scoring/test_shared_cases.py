"""scoring.check_deal on the cases that the score sheet script's hints are tested on too."""

import pytest

from scoring.checks import check_deal
from scoring.deals import DEALS, bidding_order, dealer_hint, dealer_seat, forbidden_bid
from scoring.errors import ErrorCode
from tests.cases import problem_key, sheet_check_cases

CASES = sheet_check_cases()


def test_the_cases_cover_every_rule_of_one_deal_and_every_table_size():
    codes = {problem["code"] for case in CASES for problem in case.values[0]["problems"]}
    assert codes == {
        ErrorCode.BID_RANGE,
        ErrorCode.DEALER_BID,
        ErrorCode.BIDS_INCOMPLETE,
        ErrorCode.TRICKS_RANGE,
        ErrorCode.TRICKS_INCOMPLETE,
        ErrorCode.TRICKS_SUM,
    }
    assert {case.values[0]["seats"] for case in CASES} == {3, 4, 5, 6}
    assert any(case.values[0]["forbidden"] is not None for case in CASES)


@pytest.mark.parametrize("case", CASES)
def test_a_case_states_its_deal_as_the_schedule_does(case):
    assert case["hand_size"] == DEALS[case["deal"] - 1].hand_size
    assert case["dealer"] == dealer_seat(case["deal"], case["seats"])
    assert len(case["bids"]) == len(case["tricks"]) == case["seats"]


@pytest.mark.parametrize("case", CASES)
def test_check_deal_finds_the_problems_of_the_case(case):
    found = check_deal(case["deal"], case["bids"], case["tricks"], case["seats"])
    assert {problem.deal for problem in found} <= {case["deal"]}
    got = sorted(({"code": p.code, "seat": p.seat} for p in found), key=problem_key)
    assert got == case["problems"]


@pytest.mark.parametrize("case", CASES)
def test_the_dealer_is_told_the_forbidden_bid_of_the_case(case):
    assert dealer_hint(case["deal"], case["bids"]) == case["forbidden"]


@pytest.mark.parametrize("case", CASES)
def test_the_dealer_bid_refused_is_the_forbidden_one(case):
    """``check_deal`` refuses the dealer's bid exactly when it is ``forbidden_bid``."""
    order = bidding_order(case["deal"], case["seats"])
    others = [case["bids"][seat] for seat in order[:-1]]
    dealer_bid = case["bids"][order[-1]]
    refused = {"code": ErrorCode.DEALER_BID, "seat": order[-1]} in case["problems"]
    if None in others or dealer_bid is None or any(b > case["hand_size"] for b in case["bids"]):
        assert not refused
    else:
        assert refused == (dealer_bid == forbidden_bid(case["deal"], others))
