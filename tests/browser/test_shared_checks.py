"""The sheet scripts' hints on the cases that scoring.check_deal is tested on, as the grid
(sheet.js) and the phone (sheet_phone.js) ask static/sheet_rules.js for them.

The scripts hint only at what can be told while typing: a box out of range, the dealer's
forbidden bid, tricks that do not add up. Boxes still empty are no mistake yet (the sheet is
being typed), so the codes for missing bids and tricks are left to the server; for the codes the
grid hints, the script must find exactly what scoring finds, at the same seats. The phone greys
the dealer's forbidden bid (``scoring.deals.forbidden_bid`` once the others have bid) and tells
it while the dealer has not bid (``scoring.deals.dealer_hint``).
"""

import pytest
from django.contrib.staticfiles import finders

from scoring.deals import bidding_order, forbidden_bid
from scoring.errors import ErrorCode
from tests.cases import problem_key, sheet_check_cases

HINTED = {ErrorCode.BID_RANGE, ErrorCode.DEALER_BID, ErrorCode.TRICKS_RANGE, ErrorCode.TRICKS_SUM}


@pytest.fixture(scope="module")
def rules_script(browser):
    """A page with the rules script loaded and no sheet on it: only its pure functions run."""
    context = browser.new_context()
    page = context.new_page()
    page.set_content("<!doctype html><title>sheet_rules.js</title>")
    page.add_script_tag(path=finders.find("sheet_rules.js"))
    yield page
    context.close()


def _arguments(case) -> list:
    # What the sheet pages give the rules: hand size and bidding order, as in their config.
    order = list(bidding_order(case["deal"], case["seats"]))
    return [case["hand_size"], order, case["bids"], case["tricks"]]


@pytest.mark.parametrize("case", sheet_check_cases())
def test_the_grid_hints_what_scoring_finds(rules_script, case):
    found = rules_script.evaluate(
        "([hand, order, bids, tricks]) => BollenRules.dealProblems(hand, order, bids, tricks)",
        _arguments(case),
    )
    got = sorted(
        ({"code": p["code"], "seat": p["seat"]} for p in found["problems"]), key=problem_key
    )
    assert got == [problem for problem in case["problems"] if problem["code"] in HINTED]
    assert found["forbidden"] == case["forbidden"]


@pytest.mark.parametrize("case", sheet_check_cases())
def test_the_phone_greys_and_tells_the_bid_scoring_forbids(rules_script, case):
    found = rules_script.evaluate(
        "([hand, order, bids]) => BollenRules.dealerBid(hand, order, bids)", _arguments(case)[:3]
    )
    order = bidding_order(case["deal"], case["seats"])
    others = [case["bids"][seat] for seat in order[:-1]]
    greyed = None if None in others else forbidden_bid(case["deal"], others)
    assert (found["dealer"], found["forbidden"], found["hint"]) == (
        order[-1],
        greyed,
        case["forbidden"],
    )
