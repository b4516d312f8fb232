"""The score sheet script's hints on the cases that scoring.check_deal is tested on.

The script hints only at what can be told while typing: a box out of range, the dealer's
forbidden bid, tricks that do not add up. Boxes still empty are no mistake yet (the sheet is
being typed), so the codes for missing bids and tricks are left to the server; for the codes it
hints, the script must find exactly what scoring finds, at the same seats.
"""

import pytest
from django.contrib.staticfiles import finders

from scoring.deals import bidding_order
from scoring.errors import ErrorCode
from tests.cases import problem_key, sheet_check_cases

HINTED = {ErrorCode.BID_RANGE, ErrorCode.DEALER_BID, ErrorCode.TRICKS_RANGE, ErrorCode.TRICKS_SUM}


@pytest.fixture(scope="module")
def sheet_script(browser):
    """A page with the sheet script loaded and no sheet on it: only its pure functions run."""
    context = browser.new_context()
    page = context.new_page()
    page.set_content("<!doctype html><title>sheet.js</title>")
    page.add_script_tag(path=finders.find("sheet.js"))
    yield page
    context.close()


def hints(page, case) -> dict:
    # The arguments the sheet page gives it: hand size and bidding order, as in its config.
    order = list(bidding_order(case["deal"], case["seats"]))
    return page.evaluate(
        "([hand, order, bids, tricks]) => BollenSheet.dealProblems(hand, order, bids, tricks)",
        [case["hand_size"], order, case["bids"], case["tricks"]],
    )


@pytest.mark.parametrize("case", sheet_check_cases())
def test_the_script_hints_what_scoring_finds(sheet_script, case):
    found = hints(sheet_script, case)
    got = sorted(
        ({"code": p["code"], "seat": p["seat"]} for p in found["problems"]), key=problem_key
    )
    assert got == [problem for problem in case["problems"] if problem["code"] in HINTED]
    assert found["forbidden"] == case["forbidden"]
