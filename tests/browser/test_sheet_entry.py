"""Entering a score sheet in Chromium: the keyboard, the rule hints, and saving on bad wifi."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext
from playwright.sync_api import expect

from scoring.deals import bidding_order, forbidden_bid
from scoring.errors import ErrorCode
from tests.factories import played_tournament
from tournament.adapter import table_sheet
from tournament.errors import RULE_MESSAGES
from tournament.models import SheetVersion, Table

pytestmark = pytest.mark.django_db(transaction=True)


def dutch(text: str, **params) -> str:
    with translation.override("nl"):
        return gettext(text) % params if params else gettext(text)


@pytest.fixture
def sheet_page(signed_in, live_server):
    """The signed-in director on the sheet of table 1 (not started) of an 8-player round."""
    tournament = played_tournament(8, 1, last_round=[0, 3], director=signed_in.user)
    table = Table.objects.get(round__tournament=tournament, number=1)
    signed_in.goto(live_server.url + reverse("sheet_edit", args=[tournament.slug, 1, 1]))
    signed_in.table = table
    return signed_in


def box(page, deal: int, seat: int, kind: str):
    return page.locator(f'input[data-deal="{deal}"][data-seat="{seat}"][data-kind="{kind}"]')


def focused(page) -> tuple[int, str, int]:
    deal, kind, seat = page.evaluate(
        "() => { const e = document.activeElement;"
        " return [e.dataset.deal, e.dataset.kind, e.dataset.seat]; }"
    )
    return int(deal), kind, int(seat)


def stored(table) -> dict[tuple[int, int], tuple[int | None, int | None]]:
    sheet = table_sheet(table).sheet
    return {
        (deal, seat): (entry.bids[seat], entry.tricks[seat])
        for deal, entry in enumerate(sheet.deals, start=1)
        for seat in range(sheet.n_seats)
    }


# Two legal deals at a table of 4, in the order they are typed: (deal, kind, seat, digit).
DEAL_1 = [("bid", 1, 0), ("bid", 2, 1), ("bid", 3, 0), ("bid", 0, 1)]
DEAL_1 += [("tricks", 0, 0), ("tricks", 1, 0), ("tricks", 2, 1), ("tricks", 3, 0)]
DEAL_2 = [("bid", 2, 1), ("bid", 3, 0), ("bid", 0, 0), ("bid", 1, 0)]
DEAL_2 += [("tricks", 0, 0), ("tricks", 1, 1), ("tricks", 2, 1), ("tricks", 3, 0)]


def in_bidding_order(deal: int, steps):
    """``steps`` reordered as the focus moves: bids in bidding order, then tricks the same."""
    order = bidding_order(deal, 4)
    return sorted(steps, key=lambda step: (step[0] != "bid", order.index(step[1])))


def test_a_sheet_is_typed_deal_by_deal_with_digits_only(sheet_page, screenshot):
    page = sheet_page
    assert (
        page.locator("[tabindex]").evaluate_all("nodes => nodes.filter(n => n.tabIndex > 0).length")
        == 0
    )
    box(page, 1, 1, "bid").focus()  # left of the dealer: the first box of the sheet
    typed = [(1, *step) for step in in_bidding_order(1, DEAL_1)]
    typed += [(2, *step) for step in in_bidding_order(2, DEAL_2)]
    for index, (deal, kind, seat, digit) in enumerate(typed):
        assert focused(page) == (deal, kind, seat)
        page.keyboard.type(str(digit))  # the focus moves on by itself, in bidding order
        if index + 1 < len(typed):
            assert focused(page) == typed[index + 1][:3]
    assert focused(page) == (3, "bid", bidding_order(3, 4)[0])  # on to deal 3
    expect(page.locator("#sync")).to_have_attribute("data-state", "saved")
    expected = {(deal, seat): None for deal in (1, 2) for seat in range(4)}
    for deal, kind, seat, digit in typed:
        bid, tricks = expected[deal, seat] or (None, None)
        expected[deal, seat] = (digit, tricks) if kind == "bid" else (bid, digit)
    assert stored(page.table) == expected
    # The totals come from the server's scoring after the save.
    totals = table_sheet(page.table).result().totals
    for seat in range(4):
        total = page.locator(f'td[data-total="tournament_points"][data-seat="{seat}"]')
        expect(total).to_have_text(str(totals[seat].tournament_points))
    screenshot(page, "sheet-two-deals-typed")


def test_the_dealers_forbidden_bid_is_shown_before_it_is_typed_and_refused_after(
    sheet_page, screenshot
):
    page = sheet_page
    others = bidding_order(4, 4)[:-1]
    dealer = bidding_order(4, 4)[-1]
    # Deals 1-3 first, so that deal 4 (4 cards) is open.
    for deal, steps in ((1, DEAL_1), (2, DEAL_2)):
        for kind, seat, digit in steps:
            box(page, deal, seat, kind).fill(str(digit))
    for seat, (bid, tricks) in enumerate([(1, 1), (0, 0), (0, 1), (1, 1)]):
        box(page, 3, seat, "bid").fill(str(bid))
        box(page, 3, seat, "tricks").fill(str(tricks))
    bids = {others[0]: 1, others[1]: 0, others[2]: 2}
    for seat, bid in bids.items():
        box(page, 4, seat, "bid").fill(str(bid))
    forbidden = forbidden_bid(4, list(bids.values()))
    hint = page.locator(f"#msg-4-{dealer} .hint")
    expect(hint).to_have_text(dutch("not %(bid)s", bid=forbidden))
    screenshot(page, "sheet-forbidden-bid-hint")

    box(page, 4, dealer, "bid").fill(str(forbidden))
    expect(box(page, 4, dealer, "bid")).to_have_attribute("aria-invalid", "true")
    with translation.override("nl"):
        message = str(RULE_MESSAGES[ErrorCode.DEALER_BID]) % {"bid": forbidden, "hand_size": 4}
    expect(page.locator(f"#msg-4-{dealer} .error.local")).to_have_text(message)
    expect(hint).to_have_count(0)

    page.get_by_role("button", name=dutch("Save"), exact=True).click()
    expect(page.locator("#sync")).to_have_attribute("data-state", "held")
    expect(page.locator("#sync")).to_contain_text("Spel 1-3 opgeslagen · spel 4:")
    expect(page.locator(f"#msg-4-{dealer} .error.server")).to_have_text(message)
    expect(page.locator("#problems li")).to_contain_text(message)
    screenshot(page, "sheet-forbidden-bid-held")
    assert stored(page.table)[3, 0] == (1, 1)  # deals 1-3 are counted
    leaving = "() => { const e = new Event('beforeunload', {cancelable: true});"
    leaving += " window.dispatchEvent(e); return e.defaultPrevented; }"
    assert page.evaluate(leaving)  # leaving with held input asks first
    assert stored(page.table).get((4, dealer), (None, None))[0] is None


def test_input_typed_offline_is_kept_and_saved_when_the_connection_is_back(
    sheet_page, context, screenshot
):
    page = sheet_page
    context.set_offline(True)
    for kind, seat, digit in DEAL_1[:4]:
        box(page, 1, seat, kind).click()
        page.keyboard.type(str(digit))
    sync = page.locator("#sync")
    expect(sync).to_have_attribute("data-state", "offline")
    expect(sync).to_contain_text(
        dutch(
            "Not connected — your input is kept on this device and will be sent as soon as "
            "there is a connection again."
        )
    )
    kept = page.evaluate("() => Object.keys(localStorage)")
    assert any(key.startswith("bollen-sheet:") for key in kept)
    assert not SheetVersion.objects.filter(table=page.table).exists()
    screenshot(page, "sheet-offline-kept")

    context.set_offline(False)
    expect(sync).to_have_attribute("data-state", "saved")
    expect(sync).to_contain_text(dutch("Saved"))
    assert stored(page.table) == {
        (1, 0): (1, None),
        (1, 1): (0, None),
        (1, 2): (1, None),
        (1, 3): (0, None),
    }
    # One version or two: an autosave that fell due while the digits were typed took part of
    # them in the air, and the rest follows at once; either way all four are counted now.
    assert page.evaluate("() => Object.keys(localStorage).length") == 0
    screenshot(page, "sheet-online-saved")


def test_input_kept_on_the_device_is_sent_when_the_page_is_opened_again(
    sheet_page, context, live_server
):
    page = sheet_page
    address = page.url
    context.set_offline(True)
    for kind, seat, digit in DEAL_1:
        box(page, 1, seat, kind).fill(str(digit))
    expect(page.locator("#sync")).to_have_attribute("data-state", "offline")
    page.close()
    context.set_offline(False)

    again = context.new_page()
    again.goto(address)
    expect(again.locator("#sync")).to_have_attribute("data-state", "saved")
    assert stored(sheet_page.table)[1, 2] == (1, 1)
    expect(box(again, 1, 2, "tricks")).to_have_value("1")


def test_two_directors_save_the_same_sheet_and_the_second_chooses(
    sheet_page, browser, live_server, screenshot, settings
):
    # The second page must still show version 0 when it saves: an idle page asks for the
    # sheet now and then (15-19 s), and taking the first save in would leave no conflict.
    settings.SHEET_POLL_SECONDS = 0
    page = sheet_page
    other_context = browser.new_context(locale="nl-NL", viewport={"width": 1280, "height": 900})
    other = other_context.new_page()
    other_context.add_cookies(page.context.cookies())
    other.goto(page.url)
    box(page, 1, 1, "bid").fill("1")
    expect(page.locator("#sync")).to_have_attribute("data-state", "saved")

    box(other, 1, 1, "bid").fill("0")
    other.get_by_role("button", name=dutch("Save"), exact=True).click()
    expect(other.locator("#sync")).to_have_attribute("data-state", "conflict")
    expect(other.locator("#conflict table")).to_be_visible()
    screenshot(other, "sheet-conflict")
    assert stored(page.table)[1, 1] == (1, None)

    other.locator('[data-action="keep-mine"]').click()
    expect(other.locator("#sync")).to_have_attribute("data-state", "saved")
    assert stored(page.table)[1, 1] == (0, None)
    assert SheetVersion.objects.filter(table=page.table, number__isnull=True).count() == 1

    other.get_by_role("link", name=dutch("History")).click()
    rows = other.locator("table.history tbody tr")
    expect(rows).to_have_count(3)  # version 2 (mine), the refused submission, version 1
    expect(rows.nth(1)).to_have_class("conflict-row")
    screenshot(other, "sheet-history")
    other_context.close()


def test_the_sheet_fits_a_phone_by_scrolling_sideways(
    phone, live_server, django_user_model, screenshot
):
    user = django_user_model.objects.create_user(username="tafel", password="kaart-en-bol-2026")
    tournament = played_tournament(8, 1, last_round=[11, 5], director=user)
    phone.goto(f"{live_server.url}/login/")
    phone.get_by_label("Gebruikersnaam").fill("tafel")
    phone.get_by_label("Wachtwoord").fill("kaart-en-bol-2026")
    phone.get_by_role("button", name="Aanmelden").click()
    phone.goto(live_server.url + reverse("sheet_edit", args=[tournament.slug, 1, 2]))
    screenshot(phone, "sheet-phone")
    scroller = phone.locator(".sheet-scroll")
    widths = scroller.evaluate("e => [e.scrollWidth, e.clientWidth]")
    assert widths[0] > widths[1]  # the grid scrolls inside its box ...
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= 390  # ... not the page
    expect(phone.locator("th.name").nth(1)).to_be_visible()


def test_a_penalty_bol_is_added_and_removed_on_the_page(sheet_page, screenshot):
    page = sheet_page
    for kind, seat, digit in DEAL_1:
        box(page, 1, seat, kind).fill(str(digit))
    expect(page.locator("#sync")).to_have_attribute("data-state", "saved")
    fresh = page.locator("#penalties tr.penalty-new")
    fresh.locator("select").nth(0).select_option("2")
    fresh.locator("select").nth(1).select_option("1")
    expect(page.locator("#penalties")).to_have_attribute("data-penalties", "[[1,2]]")
    assert [(p.seat, p.deal) for p in table_sheet(page.table).sheet.penalties] == [(2, 1)]
    expect(page.locator('td[data-deal="1"][data-seat="2"] .score')).to_have_attribute(
        "data-penalties", "1"
    )
    screenshot(page, "sheet-penalty-added")

    page.locator("#penalties input[type=checkbox]").first.check()
    expect(page.locator("#penalties")).to_have_attribute("data-penalties", "[]")
    assert table_sheet(page.table).sheet.penalties == ()
    expect(page.locator("#penalties tbody tr")).to_have_count(1)


def test_the_sheet_works_without_javascript(browser, live_server, django_user_model, screenshot):
    user = django_user_model.objects.create_user(username="zonder", password="kaart-en-bol-2026")
    tournament = played_tournament(8, 1, last_round=[0, 3], director=user)
    context = browser.new_context(locale="nl-NL", java_script_enabled=False)
    page = context.new_page()
    page.goto(f"{live_server.url}/login/")
    page.get_by_label("Gebruikersnaam").fill("zonder")
    page.get_by_label("Wachtwoord").fill("kaart-en-bol-2026")
    page.get_by_role("button", name="Aanmelden").click()
    page.goto(live_server.url + reverse("sheet_edit", args=[tournament.slug, 1, 1]))
    dealer_bid = forbidden_bid(1, [0, 1, 0])
    for seat, bid in ((1, 0), (2, 1), (3, 0), (0, dealer_bid)):
        box(page, 1, seat, "bid").fill(str(bid))
    page.get_by_role("button", name=dutch("Save"), exact=True).click()
    expect(page.locator("#msg-1-0 .error.server")).to_be_visible()  # the server refused it
    table = Table.objects.get(round__tournament=tournament, number=1)
    assert not SheetVersion.objects.filter(table=table).exists()

    box(page, 1, 0, "bid").fill(str(1 - dealer_bid))
    page.get_by_role("button", name=dutch("Save"), exact=True).click()
    expect(page.locator(".messages")).to_contain_text(
        dutch("Saved (version %(number)s).", number=1)
    )
    assert stored(table)[1, 0] == (1 - dealer_bid, None)
    screenshot(page, "sheet-without-javascript")
    context.close()


def test_input_typed_after_the_session_ended_is_sent_once_signed_in_again(
    sheet_page, context, live_server
):
    page = sheet_page
    context.clear_cookies()  # the session ran out (or someone signed out elsewhere)
    for kind, seat, digit in DEAL_1[:2]:
        box(page, 1, seat, kind).fill(str(digit))
    sync = page.locator("#sync")
    expect(sync).to_have_attribute("data-state", "signed-out")
    assert not SheetVersion.objects.filter(table=page.table).exists()

    other_tab = context.new_page()
    other_tab.goto(f"{live_server.url}/login/")
    other_tab.get_by_label("Gebruikersnaam").fill("leiding")
    other_tab.get_by_label("Wachtwoord").fill("kaart-en-bol-2026")
    other_tab.get_by_role("button", name="Aanmelden").click()
    other_tab.wait_for_url(f"{live_server.url}/")
    other_tab.close()

    page.evaluate("() => window.dispatchEvent(new Event('focus'))")  # back to the sheet's tab
    expect(sync).to_have_attribute("data-state", "saved")
    assert stored(page.table)[1, 1] == (0, None)
    assert stored(page.table)[1, 2] == (1, None)


def test_a_filled_box_is_corrected_by_clicking_it_and_typing(sheet_page):
    page = sheet_page
    target = box(page, 1, 1, "bid")
    target.click()
    page.keyboard.type("1")
    expect(target).to_have_value("1")
    box(page, 1, 2, "bid").click()
    target.click()  # back with the mouse (or a tap): the digit is selected, not kept
    page.keyboard.type("0")
    expect(target).to_have_value("0")


def test_tricks_that_do_not_add_up_are_told_as_typed_even_beside_a_bid_out_of_range(sheet_page):
    """The page tells the same problems as the server: a bid too high does not hide that the
    tricks do not add up (scoring/ only leaves the sum out when a tricks box is out of range)."""
    page = sheet_page
    for seat, (bid, tricks) in enumerate([(5, 1), (0, 1), (0, 0), (0, 0)]):
        box(page, 1, seat, "bid").fill(str(bid))
        box(page, 1, seat, "tricks").fill(str(tricks))
    with translation.override("nl"):
        tricks_sum = str(RULE_MESSAGES[ErrorCode.TRICKS_SUM]) % {"sum": 2, "hand_size": 1}
        bid_range = str(RULE_MESSAGES[ErrorCode.BID_RANGE]) % {"hand_size": 1}
    expect(page.locator("#deal-msg-1 .error.local")).to_have_text(tricks_sum)
    expect(page.locator("#msg-1-0 .error.local")).to_have_text(bid_range)
    page.get_by_role("button", name=dutch("Save"), exact=True).click()
    expect(page.locator("#sync")).to_have_attribute("data-state", "held")
    expect(page.locator("#deal-msg-1 .error.server")).to_have_text(tricks_sum)
