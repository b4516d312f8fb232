"""A table enters its own sheet on a phone through its private link, on bad venue wifi; and a
director confirms a sheet by re-typing the paper form."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext
from playwright.sync_api import expect

from scoring.deals import DEAL_COUNT
from tests.factories import played_tournament
from tournament.adapter import table_sheet
from tournament.models import SheetConfirmation, Table
from tournament.sheets.submission import SheetSubmission
from tournament.sheets.table_links import (
    LinkRefusal,
    table_link_issue,
    table_link_revoke,
    table_link_sheet_record,
)

pytestmark = pytest.mark.django_db(transaction=True)

# Deal 1 at a table of 4 (seat 0 deals, so seat 1 bids first), as typed: (kind, seat, digit).
BIDS_1 = [("bid", 1, 0), ("bid", 2, 1), ("bid", 3, 0), ("bid", 0, 1)]
TRICKS_1 = [("tricks", 0, 0), ("tricks", 1, 0), ("tricks", 2, 1), ("tricks", 3, 0)]


def dutch(text: str) -> str:
    with translation.override("nl"):
        return gettext(text)


def box(page, deal: int, seat: int, kind: str):
    return page.locator(f'input[data-deal="{deal}"][data-seat="{seat}"][data-kind="{kind}"]')


def stored(table: Table) -> dict[tuple[int, int], tuple[int | None, int | None]]:
    sheet = table_sheet(table).sheet
    return {
        (deal, seat): (entry.bids[seat], entry.tricks[seat])
        for deal, entry in enumerate(sheet.deals, start=1)
        for seat in range(sheet.n_seats)
    }


@pytest.fixture
def at_the_table(phone, live_server):
    """A phone on table 1's link (the table has not started) of an 8-player round."""
    tournament = played_tournament(8, 1, last_round=[0, 3])
    table = Table.objects.get(round__tournament=tournament, number=1)
    link = table_link_issue(table=table)
    phone.goto(live_server.url + reverse("table_entry", args=[link.token]))
    phone.table = table
    return phone


def tap_and_type(page, steps) -> None:
    """On a phone the sheet is tapped in deal by deal (tests/browser/test_phone_sheet.py)."""
    for kind, seat, digit in steps:
        page.locator(
            f'#phone-sheet button[data-deal="1"][data-seat="{seat}"][data-kind="{kind}"]'
            f'[data-value="{digit}"]'
        ).tap()


def test_the_phone_page_opens_at_the_deal_in_play(phone, live_server, screenshot):
    tournament = played_tournament(8, 1, last_round=[11, 7])
    table = Table.objects.get(round__tournament=tournament, number=2)
    link = table_link_issue(table=table)
    phone.goto(live_server.url + reverse("table_entry", args=[link.token]))
    expect(phone.locator("h1")).to_contain_text("2")
    expect(phone.locator(".sheet-scroll")).to_be_hidden()  # the deal by deal view instead
    expect(phone.locator("#phone-deal-title")).to_contain_text(
        dutch("Deal %(number)s (%(label)s)") % {"number": 8, "label": "4"}
    )  # deal 8, the first one not played
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= 390
    expect(phone.locator("a[href^='/t/']")).to_have_count(0)
    screenshot(phone, "table-link-phone-deal-8")


def test_after_the_link_is_revoked_the_phone_keeps_its_input_and_says_why(at_the_table):
    page = at_the_table
    tap_and_type(page, BIDS_1[:2])
    expect(page.locator("#sync")).to_have_attribute("data-state", "saved")
    table_link_revoke(table=page.table)
    tap_and_type(page, BIDS_1[2:])
    sync = page.locator("#sync")
    expect(sync).to_have_attribute("data-state", "refused")
    expect(sync).to_contain_text(str(LinkRefusal.REVOKED.label)[:20])
    kept = page.evaluate(
        "() => JSON.parse(localStorage.getItem(Object.keys(localStorage)[0])).fields"
    )
    assert ["cell-3-bid", "0"] in kept and ["cell-0-bid", "1"] in kept
    assert stored(page.table)[1, 0] == (None, None)


def test_a_director_retypes_the_paper_form_and_is_shown_the_box_that_differs(
    signed_in, live_server, screenshot
):
    page = signed_in
    tournament = played_tournament(8, 1, last_round=[11, 3], director=page.user)
    table = Table.objects.get(round__tournament=tournament, number=1)
    paper = {cell: value for cell, value in stored(table).items()}
    table_link_sheet_record(
        link=table_link_issue(table=table),
        submission=SheetSubmission(cells=paper, penalties=[], base_version=0, idempotency_key=None),
    )  # entered at the table, without the penalty bollen the import had
    page.goto(live_server.url + reverse("round_detail", args=[tournament.slug, 1]))
    page.locator('[data-table-card="1"]').get_by_role(
        "link", name=dutch("Re-type to confirm")
    ).click()
    for (deal, seat), (bid, tricks) in paper.items():
        box(page, deal, seat, "bid").fill(str(bid))
        typo = (tricks + 1) % 2 if (deal, seat) == (DEAL_COUNT, 1) else tricks
        box(page, deal, seat, "tricks").fill(str(typo))
    page.get_by_role("button", name=dutch("Compare with the stored sheet")).click()
    rows = page.locator("section.differences tbody tr")
    expect(rows).to_have_count(1)
    expect(box(page, DEAL_COUNT, 1, "tricks")).to_have_attribute("aria-invalid", "true")
    screenshot(page, "retype-difference")
    assert not SheetConfirmation.objects.exists()

    box(page, DEAL_COUNT, 1, "tricks").fill(str(paper[DEAL_COUNT, 1][1]))
    page.get_by_role("button", name=dutch("Compare with the stored sheet")).click()
    expect(page.locator('[data-table-card="1"] .sheet-review')).to_have_attribute(
        "data-confirmed", "yes"
    )
    confirmation = SheetConfirmation.objects.get()
    assert (confirmation.user, confirmation.method) == (page.user, "retype")
    screenshot(page, "round-sheet-confirmed")
