"""A table's scorer fills the sheet deal by deal on a phone, by taps only: the table link on a
narrow screen shows the deal being played instead of the eleven-column grid."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext
from playwright.sync_api import expect

from scoring.deals import DEAL_COUNT, bidding_order, deal_spec
from tests.browser.conftest import SCREENSHOTS
from tests.browser.test_table_entry import BROKEN_WORDS, SIDEWAYS
from tests.factories import played_tournament
from tournament.adapter import table_sheet
from tournament.models import Player, SheetVersion, Table, Tournament
from tournament.sheets.submission import SheetSubmission
from tournament.sheets.table_links import table_link_issue, table_link_sheet_record

pytestmark = pytest.mark.django_db(transaction=True)

PHONES = {"360x740": (360, 740), "390x844": (390, 844)}

Sheet = dict[tuple[int, int], tuple[int, int]]


def dutch(text: str) -> str:
    with translation.override("nl"):
        return gettext(text)


def deal_title(deal: int) -> str:
    label = deal_spec(deal).label
    return dutch("Deal %(number)s (%(label)s)") % {"number": deal, "label": label}


def paper_sheet(n_seats: int) -> Sheet:
    """A sheet that keeps the rules: small bids, the dealer never on the forbidden bid, the
    tricks handed out so that they add up to the hand size."""
    sheet = {}
    for deal in range(1, DEAL_COUNT + 1):
        hand = deal_spec(deal).hand_size
        order = bidding_order(deal, n_seats)
        bids = {seat: (deal + i) % 2 for i, seat in enumerate(order[:-1])}
        bids[order[-1]] = next(b for b in range(hand + 1) if sum(bids.values()) + b != hand)
        tricks, left = {}, hand
        for seat in order:
            tricks[seat] = min(bids[seat], left)
            left -= tricks[seat]
        tricks[order[-1]] += left
        for seat in order:
            sheet[deal, seat] = (bids[seat], tricks[seat])
    return sheet


def stored(table: Table) -> dict[tuple[int, int], tuple[int | None, int | None]]:
    sheet = table_sheet(table).sheet
    return {
        (deal, seat): (entry.bids[seat], entry.tricks[seat])
        for deal, entry in enumerate(sheet.deals, start=1)
        for seat in range(sheet.n_seats)
    }


def tap_target(page, deal: int, seat: int, kind: str, value: int):
    return page.locator(
        f'#phone-sheet button.phone-tap[data-deal="{deal}"][data-seat="{seat}"]'
        f'[data-kind="{kind}"][data-value="{value}"]'
    )


def assert_fits(page, width: int) -> None:
    """Nothing wider than the screen, and nothing in the page that scrolls sideways."""
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    assert page.evaluate(SIDEWAYS, width) == []


def tap_deal(page, sheet: Sheet, deal: int, n_seats: int) -> None:
    """Taps one deal in: the bids in bidding order, then the tricks."""
    order = bidding_order(deal, n_seats)
    for seat in order:
        tap_target(page, deal, seat, "bid", sheet[deal, seat][0]).tap()
    for seat in order:
        tap_target(page, deal, seat, "tricks", sheet[deal, seat][1]).tap()


def settle_under_status_line(page, selector: str, slack: float) -> None:
    """Wait (up to the expect timeout) until the sticky status line ends above `selector`'s top."""
    page.wait_for_function(
        """([selector, slack]) => {
            const node = document.querySelector(selector), sync = document.getElementById("sync");
            if (!node || !sync) return false;
            return sync.getBoundingClientRect().bottom <= node.getBoundingClientRect().top + slack;
        }""",
        arg=[selector, slack],
        timeout=5000,
    )


def overview_state(page, deal: int):
    return page.locator(f'#phone-sheet button.phone-jump[data-deal="{deal}"]')


@pytest.fixture(params=list(PHONES), ids=list(PHONES))
def at_the_table(request, browser, live_server):
    """A phone of the size given on table 1's link; the table has not started."""
    width, height = PHONES[request.param]
    context = browser.new_context(
        locale="nl-NL",
        viewport={"width": width, "height": height},
        is_mobile=True,
        has_touch=True,
    )
    context.set_default_timeout(10_000)
    page = context.new_page()
    tournament = played_tournament(8, 1, last_round=[0, 0])
    table = Table.objects.get(round__tournament=tournament, number=1)
    page.goto(live_server.url + reverse("table_entry", args=[table_link_issue(table=table).token]))
    page.table = table
    page.width = width
    page.size = request.param
    page.n_seats = table.seats.count()
    yield page
    context.close()


# At the smallest phone: what differs at other widths (nothing wider than the screen, the
# contrast) is checked at each by tests/browser/test_accessibility.py.
@pytest.mark.parametrize("at_the_table", ["360x740"], indirect=True)
def test_a_whole_sheet_is_tapped_in_deal_by_deal(at_the_table, screenshot):
    page, n = at_the_table, at_the_table.n_seats
    sheet = paper_sheet(n)
    expect(page.locator("#phone-sheet")).to_be_visible()
    expect(page.locator(".sheet-scroll")).to_be_hidden()
    expect(page.locator(".legend")).to_be_hidden()  # the grid's help about Tab
    expect(page.locator("#sync")).to_be_visible()
    screenshot(page, f"phone-{page.size}-deal-1")

    title = page.locator("#phone-deal-title")
    for deal in range(1, DEAL_COUNT + 1):
        expect(title).to_contain_text(deal_title(deal))
        assert_fits(page, page.width)
        order = bidding_order(deal, n)
        for seat in order[:-1]:
            tap_target(page, deal, seat, "bid", sheet[deal, seat][0]).tap()
        hand = deal_spec(deal).hand_size
        forbidden = hand - sum(sheet[deal, seat][0] for seat in order[:-1])
        if 0 <= forbidden <= hand:  # the dealer may not make the bids add up
            expect(tap_target(page, deal, order[-1], "bid", forbidden)).to_be_disabled()
            hint = page.locator(f'.phone-player[data-seat="{order[-1]}"] .phone-hint')
            expect(hint).to_have_text(dutch("not %(bid)s") % {"bid": forbidden})
            if deal == 3:
                shot = SCREENSHOTS / f"phone-{page.size}-forbidden-bid-screen.png"
                page.screenshot(path=str(shot))  # what the scorer sees, before the whole page
                screenshot(page, f"phone-{page.size}-forbidden-bid")
        tap_target(page, deal, order[-1], "bid", sheet[deal, order[-1]][0]).tap()
        # Each player's bid beside the name in the tricks: no scrolling back up to see it.
        bids_shown = page.locator('#phone-sheet [data-kind="tricks"] .phone-player .phone-bid-was')
        expect(bids_shown).to_have_text(
            [dutch("bid %(n)s") % {"n": sheet[deal, seat][0]} for seat in order]
        )
        if deal == 3:
            page.locator("#phone-tricks-title").scroll_into_view_if_needed()
            page.screenshot(path=str(SCREENSHOTS / f"phone-{page.size}-tricks-screen.png"))
        for seat in order:
            tap_target(page, deal, seat, "tricks", sheet[deal, seat][1]).tap()
        assert_fits(page, page.width)
        if deal < DEAL_COUNT:
            page.locator('#phone-sheet [data-move="next"]').tap()

    for deal in range(1, DEAL_COUNT + 1):
        expect(overview_state(page, deal)).to_have_attribute("data-state", "saved")
    expect(page.locator("#sync")).to_have_attribute("data-state", "saved")
    assert stored(page.table) == sheet
    totals = table_sheet(page.table).result().totals
    strip = page.locator(".phone-totals li .phone-total-points")
    expect(strip).to_have_text([str(t.tournament_points) for t in totals])
    # The next step in words, with each player's total, bollen and correct bids.
    done = page.locator("#phone-done")
    expect(done).to_be_visible()
    expect(done).to_contain_text(
        "Het formulier is compleet en opgeslagen. Geef het papieren formulier aan de "
        "wedstrijdleiding."
    )
    rows = done.locator("tbody tr")
    expect(rows).to_have_count(n)
    names = list(page.table.seats.order_by("position").values_list("player__name", flat=True))
    for seat, t in enumerate(totals):
        cells = rows.nth(seat).locator("th, td")
        expect(cells).to_have_text(
            [names[seat], str(t.tournament_points), str(t.bollen), str(t.correct)]
        )
    assert page.evaluate(
        "() => [...document.querySelectorAll('#phone-done .phone-done-name')]"
        ".every(n => n.scrollWidth <= n.clientWidth)"
    )  # no name cut off: they wrap
    assert_fits(page, page.width)
    screenshot(page, f"phone-{page.size}-sheet-complete")

    # The overview goes back to deal 3: two players' tricks were swapped on paper.
    overview_state(page, 3).tap()
    expect(title).to_contain_text(deal_title(3))
    order = bidding_order(3, n)
    first, second = order[0], order[1]
    fixed = dict(sheet)
    fixed[3, first] = (sheet[3, first][0], sheet[3, second][1])
    fixed[3, second] = (sheet[3, second][0], sheet[3, first][1])
    assert fixed != sheet
    tap_target(page, 3, first, "tricks", fixed[3, first][1]).tap()
    tap_target(page, 3, second, "tricks", fixed[3, second][1]).tap()
    expect(overview_state(page, 3)).to_have_attribute("data-state", "saved")
    assert stored(page.table) == fixed
    totals = table_sheet(page.table).result().totals
    expect(strip).to_have_text([str(t.tournament_points) for t in totals])
    assert_fits(page, page.width)
    screenshot(page, f"phone-{page.size}-deal-3-corrected")


@pytest.mark.parametrize("at_the_table", ["360x740"], indirect=True)
def test_taps_go_on_offline_and_are_stored_once_back(at_the_table, screenshot):
    """The phone's queue, once (the smallest phone; every size's layout offline is in the
    other tests): taps kept on the device while the wifi is down, sent once it is back, each
    stored once as the table link's, the device's copy gone."""
    page, n = at_the_table, at_the_table.n_seats
    sheet = paper_sheet(n)
    for deal in (1, 2, 3):
        tap_deal(page, sheet, deal, n)
        page.locator('#phone-sheet [data-move="next"]').tap()
    expect(overview_state(page, 3)).to_have_attribute("data-state", "saved")
    versions = SheetVersion.objects.filter(table=page.table).count()

    page.context.set_offline(True)  # the venue wifi drops
    for deal in (4, 5, 6):
        tap_deal(page, sheet, deal, n)
        page.locator('#phone-sheet [data-move="next"]').tap()
    expect(page.locator("#sync")).to_have_attribute("data-state", "offline")
    for deal in (4, 5, 6):
        expect(overview_state(page, deal)).to_have_attribute("data-state", "held")
    expect(overview_state(page, 3)).to_have_attribute("data-state", "saved")
    assert stored(page.table).get((4, 0), (None, None)) == (None, None)
    assert SheetVersion.objects.filter(table=page.table).count() == versions  # nothing sent
    kept = page.evaluate("() => Object.keys(localStorage)")
    assert any(key.startswith("bollen-sheet:") for key in kept)
    expect(page.locator("#phone-deal-title")).to_contain_text(deal_title(7))
    note = page.locator(".phone-totals-note")
    expect(note).to_have_text("Stand bij laatste opslag")  # the totals wait for the server
    assert_fits(page, page.width)
    page.screenshot(path=str(SCREENSHOTS / f"phone-{page.size}-offline-screen.png"))
    screenshot(page, f"phone-{page.size}-offline")

    page.context.set_offline(False)  # ... and everything goes out once it is back
    for deal in (4, 5, 6):
        expect(overview_state(page, deal)).to_have_attribute("data-state", "saved", timeout=20_000)
    expect(page.locator("#sync")).to_have_attribute("data-state", "saved")
    expect(note).to_be_hidden()
    kept = stored(page.table)
    assert {cell: kept[cell] for cell in sheet if cell[0] <= 6} == {
        cell: value for cell, value in sheet.items() if cell[0] <= 6
    }
    assert kept.get((7, 0), (None, None)) == (None, None)
    later = SheetVersion.objects.filter(table=page.table, number__gt=versions)
    assert later.exists()
    assert {(v.via, v.user) for v in later} == {(SheetVersion.Via.TABLE_LINK, None)}
    assert page.evaluate("() => Object.keys(localStorage).length") == 0
    # The totals along the bottom are the stored sheet's again.
    totals = table_sheet(page.table).result().totals
    strip = page.locator(".phone-totals li .phone-total-points")
    expect(strip).to_have_text([str(t.tournament_points) for t in totals])


def test_the_tap_targets_are_named_buttons_big_enough_for_a_finger(at_the_table):
    page = at_the_table
    order = bidding_order(1, page.n_seats)
    name = page.table.seats.order_by("position")[order[0]].player.name
    button = page.get_by_role("button", name=dutch("%(name)s bids %(n)s") % {"name": name, "n": 1})
    expect(button).to_have_attribute("aria-pressed", "false")
    box = button.bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44
    button.tap()
    expect(button).to_have_attribute("aria-pressed", "true")
    assert page.evaluate(
        "() => document.querySelectorAll('[tabindex]:not([tabindex^=\"-\"])').length"
    ) == page.evaluate(
        "() => document.querySelectorAll('#sheet-form [tabindex]:not([tabindex^=\"-\"])').length"
    )  # the phone layer adds no positive tabindex of its own
    expect(page.locator("#phone-first-dealer")).to_be_hidden()  # no drawn dealer asked for


# What a tap does is the same at every width: at the smallest phone, where the page is
# tightest (tests/browser/test_accessibility.py checks each width for sideways scrolling).
@pytest.mark.parametrize("at_the_table", ["360x740"], indirect=True)
def test_tricks_that_do_not_add_up_are_told_at_the_deal_and_hold_it(at_the_table):
    page, n = at_the_table, at_the_table.n_seats
    sheet = paper_sheet(n)
    order = bidding_order(1, n)
    for seat in order:
        tap_target(page, 1, seat, "bid", sheet[1, seat][0]).tap()
    for seat in order:
        tap_target(page, 1, seat, "tricks", 0).tap()  # nobody took the one trick
    expect(page.locator("#phone-sheet .phone-deal-msg .phone-error")).to_have_count(1)
    expect(page.locator("#phone-sheet .phone-sum")).to_have_class(re.compile("phone-over"))
    expect(overview_state(page, 1)).to_have_attribute("data-state", "problem")
    expect(page.locator('#phone-sheet [data-move="next"]')).to_be_disabled()
    assert_fits(page, page.width)

    winner = next(seat for seat in order if sheet[1, seat][1] == 1)
    tap_target(page, 1, winner, "tricks", 1).tap()
    expect(page.locator("#phone-sheet .phone-deal-msg .phone-error")).to_have_count(0)
    expect(page.locator('#phone-sheet [data-move="next"]')).to_be_enabled()
    expect(overview_state(page, 1)).to_have_attribute("data-state", "saved")
    assert {seat: stored(page.table)[1, seat] for seat in range(n)} == {
        seat: sheet[1, seat] for seat in range(n)
    }


# What a tap does is the same at every width: at the smallest phone, where the page is
# tightest (tests/browser/test_accessibility.py checks each width for sideways scrolling).
@pytest.mark.parametrize("at_the_table", ["360x740"], indirect=True)
def test_a_deal_tapped_by_mistake_is_cleared_after_a_second_tap(at_the_table, screenshot):
    page, n = at_the_table, at_the_table.n_seats
    sheet = paper_sheet(n)
    ask = page.locator('#phone-sheet [data-move="clear-ask"]')
    confirm = page.locator("#phone-sheet .phone-clear-confirm")
    expect(ask).to_be_hidden()  # nothing to clear yet
    tap_deal(page, sheet, 1, n)
    expect(overview_state(page, 1)).to_have_attribute("data-state", "saved")
    assert stored(page.table)[1, 0] == sheet[1, 0]

    ask.tap()
    expect(confirm).to_be_visible()
    saved_question = (
        "Deal %(number)s is saved and counts in the points. Clear all its bids and tricks?"
    )
    expect(confirm).to_contain_text(dutch(saved_question) % {"number": 1})
    expect(ask).to_be_hidden()
    assert_fits(page, page.width)
    screenshot(page, f"phone-clear-deal-{page.size}")
    yes = confirm.get_by_role("button", name=dutch("Yes, clear"))
    box = yes.bounding_box()  # above the totals strip that covers a small phone's bottom
    assert box["y"] + box["height"] <= page.locator(".phone-totals").bounding_box()["y"]
    confirm.get_by_role("button", name=dutch("No, keep it")).tap()
    expect(confirm).to_be_hidden()
    expect(page.locator('#phone-sheet button.phone-tap[aria-pressed="true"]')).to_have_count(2 * n)

    ask.tap()
    confirm.get_by_role("button", name=dutch("Yes, clear")).tap()
    expect(page.locator('#phone-sheet button.phone-tap[aria-pressed="true"]')).to_have_count(0)
    expect(confirm).to_be_hidden()
    expect(ask).to_be_hidden()
    expect(page.locator("#phone-sheet .phone-cleared")).to_have_text(
        dutch("Deal %(number)s is cleared.") % {"number": 1}
    )
    # "open" once the server's answer says it counts nothing of deal 1 any more.
    expect(overview_state(page, 1)).to_have_attribute("data-state", "open")
    expect(page.locator("#sync")).to_have_attribute("data-state", "saved")
    assert all(stored(page.table).get((1, seat), (None, None)) == (None, None) for seat in range(n))
    expect(page.locator("#phone-deal-title")).to_contain_text(deal_title(1))


# What a tap does is the same at every width: at the smallest phone, where the page is
# tightest (tests/browser/test_accessibility.py checks each width for sideways scrolling).
@pytest.mark.parametrize("at_the_table", ["360x740"], indirect=True)
def test_only_the_last_deal_with_input_can_be_cleared(at_the_table):
    page, n = at_the_table, at_the_table.n_seats
    sheet = paper_sheet(n)
    ask = page.locator('#phone-sheet [data-move="clear-ask"]')
    confirm = page.locator("#phone-sheet .phone-clear-confirm")
    tap_deal(page, sheet, 1, n)
    page.locator('#phone-sheet [data-move="next"]').tap()
    first = bidding_order(2, n)[0]
    chosen = tap_target(page, 2, first, "bid", 1)
    chosen.tap()
    chosen.tap()  # tapped again (a scorer checking the row): it stays chosen
    expect(chosen).to_have_attribute("aria-pressed", "true")
    expect(ask).to_be_visible()
    page.locator('#phone-sheet [data-move="previous"]').tap()
    expect(page.locator("#phone-deal-title")).to_contain_text(deal_title(1))
    expect(ask).to_be_hidden()  # deal 2 has input: clearing deal 1 would break the order
    later = "To clear this deal, clear deal %(number)s first: only the last deal with input "
    later += "can be cleared."
    expect(page.locator("#phone-sheet .phone-clear-later")).to_have_text(
        dutch(later) % {"number": 2}
    )

    page.locator('#phone-sheet [data-move="next"]').tap()
    ask.tap()
    expect(confirm).to_contain_text(
        dutch("Clear every bid and trick of deal %(number)s?") % {"number": 2}
    )
    confirm.get_by_role("button", name=dutch("Yes, clear")).tap()
    expect(chosen).to_have_attribute("aria-pressed", "false")
    expect(page.locator("#sync")).to_have_attribute("data-state", "saved")
    page.locator('#phone-sheet [data-move="previous"]').tap()
    expect(ask).to_be_visible()  # now deal 1 is the last one with input
    expect(page.locator("#phone-sheet .phone-clear-later")).to_be_hidden()
    expect(confirm).to_be_hidden()  # and nothing is asked before the tap
    assert stored(page.table).get((2, first), (None, None)) == (None, None)


@pytest.mark.parametrize("size", ["360x740"])
def test_the_drawn_first_dealer_is_asked_once_with_the_phones_buttons(browser, live_server, size):
    tournament = played_tournament(8, 1, last_round=[0, 0])
    Tournament.objects.filter(pk=tournament.pk).update(
        first_dealer_rule=Tournament.FirstDealerRule.DRAWN
    )
    table = Table.objects.get(round__tournament=tournament, number=1)
    address = live_server.url + reverse("table_entry", args=[table_link_issue(table=table).token])
    question = dutch("Who deals first?")
    width, height = PHONES[size]
    phone = browser.new_context(
        locale="nl-NL", viewport={"width": width, "height": height}, is_mobile=True, has_touch=True
    )
    wide = browser.new_context(locale="nl-NL", viewport={"width": 1280, "height": 900})
    try:
        page = phone.new_page()
        page.goto(address)
        expect(page.get_by_role("heading", name=question)).to_have_count(1)
        expect(page.locator("#phone-first-dealer")).to_be_visible()
        expect(page.locator("#first-dealer")).to_be_hidden()
        # No empty card above the question: the status line says where the sheet stands.
        expect(page.locator("#sync")).to_have_text(dutch("Nothing saved yet"))
        assert_fits(page, width)
        name = table.seats.order_by("position")[2].player.name
        page.locator("#phone-first-dealer").get_by_role("button", name=name).tap()
        expect(page.locator("#phone-deal")).to_be_visible()
        expect(page.get_by_role("heading", name=question)).to_have_count(0)
        expect(page.locator("#phone-deal .phone-dealer")).to_have_text(
            dutch("Dealer: %(name)s") % {"name": name}
        )

        # On a wide screen the plain form asks (here: the next table, still undecided).
        other = Table.objects.get(round__tournament=tournament, number=2)
        desk = wide.new_page()
        desk.goto(
            live_server.url + reverse("table_entry", args=[table_link_issue(table=other).token])
        )
        expect(desk.get_by_role("heading", name=question)).to_have_count(1)
        expect(desk.locator("#first-dealer")).to_be_visible()
        expect(desk.locator("#phone-sheet")).to_be_hidden()
    finally:
        phone.close()
        wide.close()


def test_a_reload_opens_the_held_deal_at_its_top(at_the_table):
    page, n = at_the_table, at_the_table.n_seats
    sheet = paper_sheet(n)
    for deal in (1, 2, 3):
        tap_deal(page, sheet, deal, n)
        page.locator('#phone-sheet [data-move="next"]').tap()
    order = bidding_order(4, n)
    for seat in order:
        tap_target(page, 4, seat, "bid", sheet[4, seat][0]).tap()
    for seat in order:
        tap_target(page, 4, seat, "tricks", 0).tap()  # nobody's tricks: they do not add up
    expect(page.locator("#sync")).to_have_attribute("data-state", "held")
    expect(overview_state(page, 3)).to_have_attribute("data-state", "saved")
    page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")

    page.reload()
    expect(page.locator("#phone-deal-title")).to_contain_text(deal_title(4))
    expect(overview_state(page, 4)).to_have_attribute("data-state", "problem")
    expect(page.locator("#phone-sheet .phone-deal-msg .phone-error")).to_have_count(1)
    # The status line may still be growing with its words; the script then scrolls again on the
    # next frame. What is asserted is where the page settles.
    settle_under_status_line(page, "#phone-deal", slack=1)
    assert page.locator("#phone-deal").bounding_box()["y"] < page.viewport_size["height"] / 3


def test_the_tricks_heading_is_not_under_the_status_line(at_the_table):
    page, n = at_the_table, at_the_table.n_seats
    sheet = paper_sheet(n)
    tap_deal(page, sheet, 1, n)
    page.locator('#phone-sheet [data-move="next"]').tap()
    expect(page.locator("#sync")).to_have_attribute("data-state", "saved")
    for seat in bidding_order(2, n):
        tap_target(page, 2, seat, "bid", sheet[2, seat][0]).tap()  # on to the tricks
    # The bids are saved a moment later, and the status line's words change with the answer:
    # measured once it is in, not at whatever moment the save has reached.
    expect(page.locator("#sync")).to_have_attribute("data-state", "saved")
    heading = page.get_by_role("heading", name=dutch("Tricks"))
    expect(heading).to_be_in_viewport()
    settle_under_status_line(page, "#phone-tricks-title", slack=0)  # covers nothing of it
    banner = page.locator("#sync").bounding_box()
    top = heading.bounding_box()["y"]
    assert top < banner["y"] + banner["height"] + 60  # scrolled to: just under the line


# The row to tap next (whose turn it is to bid) and the totals strip along the bottom: whether
# any of its buttons is under the strip, and what the page keeps free for the strip.
UNDER_THE_STRIP = """() => {
    const strip = document.querySelector(".phone-totals").getBoundingClientRect();
    const taps = [...document.querySelectorAll("#phone-sheet .phone-next .phone-tap")];
    const end = [...document.querySelectorAll("#phone-sheet button.phone-jump")].at(-1);
    return {
        taps: taps.length,
        under: taps.filter((tap) => tap.getBoundingClientRect().bottom > strip.top).length,
        strip: strip.height,
        kept: parseFloat(getComputedStyle(document.documentElement).scrollPaddingBottom),
        end: end.getBoundingClientRect().bottom + window.scrollY,
        page: document.documentElement.scrollHeight - strip.height,
    };
}"""


def assert_clear_of_the_strip(page) -> None:
    """The row to tap next wholly above the totals strip, and the page's end too: the page keeps
    the strip's real height free (its padding, and the root's scroll-padding for scrolling)."""
    seen = page.evaluate(UNDER_THE_STRIP)
    assert seen["taps"] > 0 and seen["under"] == 0, seen
    assert seen["kept"] >= seen["strip"] > 60, seen  # long names: a strip of three lines or so
    assert seen["end"] <= seen["page"], seen


def test_long_names_in_the_totals_strip_are_not_cut_at_a_table_of_five(browser, live_server):
    tournament = played_tournament(10, 1, last_round=[0, 0])
    table = Table.objects.get(round__tournament=tournament, number=1)
    names = [
        "Wilhelmina Oosterhuis-Schimmelpenninck",
        "Marloes Bakker-van den Heuvel",
        "Geertruida van den Heuvel",
        "Anna de Vries",
        "Henk de Boer",
    ]
    for seat, name in zip(table.seats.order_by("position"), names, strict=True):
        Player.objects.filter(pk=seat.player_id).update(name=name)
    link = table_link_issue(table=table)
    context = browser.new_context(
        locale="nl-NL", viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    page.goto(live_server.url + reverse("table_entry", args=[link.token]))
    shown = page.locator(".phone-totals li .phone-total-name")
    expect(shown).to_have_text(names)
    # Every name whole: nothing clipped across or down (a long one takes the lines it needs),
    # broken between its words only, and every player inside the screen.
    page.wait_for_function(
        """() => [...document.querySelectorAll(".phone-totals .phone-total-name")].every(
            (node) => node.scrollWidth <= node.clientWidth + 1
                && node.scrollHeight <= node.clientHeight + 1)"""
    )
    assert page.evaluate(BROKEN_WORDS, ".phone-totals .phone-total-name") == []
    assert page.evaluate(
        """() => [...document.querySelectorAll(".phone-totals li")].every((item) => {
            const box = item.getBoundingClientRect();
            return box.left >= 0 && box.right <= 360;
        })"""
    )
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
    # Opened at deal 1: the first bidder's buttons are above the strip, not under it.
    expect(page.locator("#phone-deal-title")).to_contain_text(deal_title(1))
    assert_clear_of_the_strip(page)
    page.screenshot(path=str(SCREENSHOTS / "phone-360x740-five-long-names.png"))

    # Deal 1 stored with a penalty bol for the long name: the page opens at deal 2, its first
    # bidder above the strip, and the penalty bol says the whole name (no box that cuts it off).
    paper = paper_sheet(5)
    table_link_sheet_record(
        link=link,
        submission=SheetSubmission(
            cells={(d, s): paper[d, s] if d == 1 else (None, None) for d, s in paper},
            penalties=[(1, 0)],
            base_version=0,
            idempotency_key=None,
        ),
    )
    page.reload()
    expect(page.locator("#phone-deal-title")).to_contain_text(deal_title(2))
    assert_clear_of_the_strip(page)
    penalty = page.locator("#penalties .penalty-what")
    expect(penalty).to_have_text(f"Spel 1 (1): {names[0]}")
    assert penalty.evaluate("(node) => node.scrollWidth <= node.clientWidth")
    assert page.evaluate(BROKEN_WORDS, "#penalties .penalty-what") == []
    expect(page.locator("#penalties .penalty-saved [type=checkbox]")).to_be_visible()
    assert page.evaluate(SIDEWAYS, 360) == []

    # The whole sheet in: the "sheet complete" box lists each total by its whole name.
    table_link_sheet_record(
        link=link,
        submission=SheetSubmission(
            cells=paper, penalties=[(1, 0)], base_version=1, idempotency_key=None
        ),
    )
    page.reload()
    expect(page.locator("#phone-done .phone-done-name")).to_have_text(names)
    assert page.evaluate(BROKEN_WORDS, "#phone-done .phone-done-name") == []
    assert page.evaluate(SIDEWAYS, 360) == []
    context.close()
