"""Two devices on one table's link at the same time: different deals merge, a real clash on one
box is a choice for that box only, and a device that goes offline in the middle says in words
what is saved and what is not."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from scoring.deals import bidding_order
from tests.browser.conftest import SCREENSHOTS
from tests.browser.test_sheet_entry import DEAL_1, DEAL_2, box, dutch, stored
from tests.factories import played_tournament
from tournament.models import SheetVersion, Table
from tournament.sheets.submission import SheetSubmission
from tournament.sheets.table_links import table_link_issue, table_link_sheet_record

pytestmark = pytest.mark.django_db(transaction=True)

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def table_link(live_server):
    """Table 1 (not started) of an 8-player round, and the address of its private link."""
    tournament = played_tournament(8, 1, last_round=[0, 3])
    table = Table.objects.get(round__tournament=tournament, number=1)
    link = table_link_issue(table=table)
    return table, link, live_server.url + reverse("table_entry", args=[link.token])


@pytest.fixture
def device(browser):
    """``device(viewport)``: a page in a browser context of its own (another phone)."""
    contexts = []

    def open_device(viewport=DESKTOP):
        context = browser.new_context(locale="nl-NL", viewport=viewport)
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context.new_page()

    yield open_device
    for context in contexts:
        context.close()


def shot(locator, name: str) -> None:
    """A screenshot of one part of the page (the conflict view, the status line)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    locator.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


def enter(page, deal: int, seat: int, kind: str, digit: int) -> None:
    """Type one box as the device shows it: the grid's box on a wide screen, a tap on the phone's
    deal-by-deal view (going to that deal through its overview first)."""
    phone = page.locator("#phone-sheet")
    if not phone.is_visible():
        box(page, deal, seat, kind).fill(str(digit))
        return
    button = phone.locator(
        f'button.phone-tap[data-deal="{deal}"][data-seat="{seat}"][data-kind="{kind}"]'
        f'[data-value="{digit}"]'
    )
    if not button.is_visible():
        phone.locator(f'.phone-jump[data-deal="{deal}"]').click()
    button.click()


def type_deal(page, deal: int, steps) -> None:
    for kind, seat, digit in steps:
        enter(page, deal, seat, kind, digit)


def values(steps) -> dict[tuple[int, str], int]:
    return {(seat, kind): digit for kind, seat, digit in steps}


def test_two_devices_typing_different_deals_at_once_are_merged(table_link, device, screenshot):
    table, _link, address = table_link
    first, second = device(), device(PHONE)
    first.goto(address)
    second.goto(address)  # both start from the blank sheet, version 0
    type_deal(first, 1, DEAL_1)
    type_deal(second, 2, DEAL_2)  # at the same time, before either has saved
    expect(first.locator("#sync")).to_have_attribute("data-state", "saved")
    expect(second.locator("#sync")).to_have_attribute("data-state", "saved")
    # Whichever arrived second was merged with the first: both deals are counted.
    expected = {(1, seat): (None, None) for seat in range(4)}
    for deal, steps in ((1, DEAL_1), (2, DEAL_2)):
        typed = values(steps)
        for seat in range(4):
            expected[deal, seat] = (typed[seat, "bid"], typed[seat, "tricks"])
    assert {k: v for k, v in stored(table).items() if k[0] <= 2} == expected
    assert not SheetVersion.objects.filter(table=table, number__isnull=True).exists()

    # Each device shows the other's boxes after its next save.
    enter(first, 3, 0, "bid", 1)
    expect(first.locator("#sync")).to_have_attribute("data-state", "saved")
    for (seat, kind), digit in values(DEAL_2).items():
        expect(box(first, 2, seat, kind)).to_have_value(str(digit))
    enter(second, 3, 1, "bid", 0)
    expect(second.locator("#sync")).to_have_attribute("data-state", "saved")
    for (seat, kind), digit in values(DEAL_1).items():
        expect(box(second, 1, seat, kind)).to_have_value(str(digit))
    expect(box(second, 3, 0, "bid")).to_have_value("1")
    assert stored(table)[3, 0] == (1, None) and stored(table)[3, 1] == (0, None)
    expect(second.locator("#conflict")).to_be_empty()
    screenshot(first, "sheet-merged-desktop")
    screenshot(second, "sheet-merged-phone")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_clash_on_one_box_lists_only_that_box_and_its_choice_is_stored(
    table_link, device, screenshot, viewport, settings
):
    # The second device must still show version 1 when it saves: an idle page asks for the
    # sheet now and then (15-19 s), and taking the first device's save in would leave no clash.
    settings.SHEET_POLL_SECONDS = 0
    table, link, address = table_link
    table_link_sheet_record(
        link=link,
        submission=SheetSubmission(
            cells={(1, seat): (bid, tricks) for seat, (bid, tricks) in enumerate(FIRST_DEAL)},
            base_version=0,
        ),
    )
    first, second = device(viewport), device(viewport)
    first.goto(address)
    second.goto(address)  # both on version 1
    enter(first, 2, 2, "bid", 1)
    enter(first, 2, 3, "bid", 0)
    expect(first.locator("#sync")).to_have_attribute("data-state", "saved")
    enter(second, 2, 2, "bid", 2)  # the same box, another value: a real clash
    enter(second, 2, 0, "bid", 1)  # a box only this device typed
    sync = second.locator("#sync")
    expect(sync).to_have_attribute("data-state", "conflict")
    rows = second.locator("#conflict tr[data-conflict]")
    expect(rows).to_have_count(1)
    expect(rows.first).to_have_attribute("data-conflict", "2-2-bid")
    expect(rows.first).to_contain_text("2")  # mine
    expect(rows.first).to_contain_text("1")  # the other device's
    # The other device's box that did not clash is already in.
    expect(box(second, 2, 3, "bid")).to_have_value("0")
    name = "desktop" if viewport is DESKTOP else "phone"
    screenshot(second, f"sheet-conflict-one-box-{name}")
    shot(second.locator("#conflict"), f"sheet-conflict-view-{name}")
    shot(sync, f"sheet-conflict-status-{name}")

    rows.first.get_by_label("1").check()  # take the other device's value for that box
    second.get_by_role("button", name=dutch("Save these choices")).click()
    expect(sync).to_have_attribute("data-state", "saved")
    expect(box(second, 2, 2, "bid")).to_have_value("1")
    cells = stored(table)
    assert (cells[2, 0], cells[2, 2], cells[2, 3]) == ((1, None), (1, None), (0, None))
    expect(second.locator("#conflict")).to_be_empty()


# Deal 1 at a table of 4, per seat (bid, tricks): seat 0 deals; legal.
FIRST_DEAL = [(1, 0), (0, 0), (1, 1), (0, 0)]


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_offline_in_the_middle_then_back_says_what_is_saved(
    table_link, device, screenshot, viewport
):
    table, _link, address = table_link
    page = device(viewport)
    page.goto(address)
    sync = page.locator("#sync")
    name = "desktop" if viewport is DESKTOP else "phone"
    type_deal(page, 1, DEAL_1)
    expect(sync).to_have_attribute("data-state", "saved")
    expect(sync).to_contain_text(dutch("Saved"))

    versions = SheetVersion.objects.filter(table=table).count()  # 1 (or 2: an autosave mid-deal)
    page.context.set_offline(True)  # the venue wifi drops
    type_deal(page, 2, DEAL_2[:4])  # deal 2's bids: fine
    wrong = [(kind, seat, 0) for kind, seat, _digit in DEAL_2[4:]]  # tricks adding up to 0
    type_deal(page, 2, wrong)
    expect(sync).to_have_attribute("data-state", "offline")
    expect(sync).to_contain_text("Niet verbonden — je invoer is bewaard op dit apparaat")
    shot(sync, f"sheet-offline-status-{name}")
    assert SheetVersion.objects.filter(table=table).count() == versions

    page.context.set_offline(False)  # back: deal 1 stays counted, deal 2 is held with its reason
    expect(sync).to_have_attribute("data-state", "held")
    expect(sync).to_contain_text("Spel 1 opgeslagen · spel 2: de slagen tellen op tot 0")
    expect(page.locator("#deal-msg-2 .held-mark")).to_have_text(dutch("not saved"))
    shot(sync, f"sheet-held-status-{name}")
    screenshot(page, f"sheet-held-{name}")
    assert stored(table).get((2, 0), (None, None)) == (None, None)  # deal 2 is not counted

    fixed = DEAL_2[4:]
    type_deal(page, 2, fixed)
    expect(sync).to_have_attribute("data-state", "saved")
    # The version after deal 1's (one or two of them: an autosave mid-deal under load).
    following = dutch("version %(number)s", number=versions + 1)
    expect(sync).to_have_text(dutch("Saved") + " · " + following)
    assert stored(table)[2, 1] == (0, 1)
    leaving = "() => { const e = new Event('beforeunload', {cancelable: true});"
    leaving += " window.dispatchEvent(e); return e.defaultPrevented; }"
    assert not page.evaluate(leaving)  # everything saved: leaving asks nothing


def test_a_deal_typed_offline_after_the_snapshot_goes_out_once_back(table_link, device):
    """Phone A fills deal 6 offline (that submission waits for the connection) and then deal 7;
    phone B meanwhile types deal 9, which the server holds back. Once A is back, deal 6 goes out
    and deal 7 right after it: the held answer blocks nothing A typed since the snapshot."""
    from tests.browser.test_phone_sheet import paper_sheet

    table, _link, address = table_link
    a, b = device(PHONE), device(PHONE)
    a.goto(address)
    b.goto(address)
    n = table.seats.count()
    sheet = paper_sheet(n)

    def tap_deal(page, deal: int) -> None:
        order = bidding_order(deal, n)
        for kind, index in (("bid", 0), ("tricks", 1)):
            for seat in order:
                enter(page, deal, seat, kind, sheet[deal, seat][index])

    for deal in range(1, 6):
        tap_deal(a, deal)
    a_sync = a.locator("#sync")
    expect(a_sync).to_have_attribute("data-state", "saved")

    a.context.set_offline(True)
    tap_deal(a, 6)
    expect(a_sync).to_have_attribute("data-state", "offline")  # deal 6's submission waits
    tap_deal(a, 7)

    tap_deal(b, 9)  # B is online: deal 9 is held ("play deal 6 first")
    expect(b.locator("#sync")).to_have_attribute("data-state", "held")
    assert stored(table).get((9, 0), (None, None)) == (None, None)

    a.context.set_offline(False)
    expect(a_sync).to_contain_text(dutch("Deals 1-%(last)s saved") % {"last": 7}, timeout=20_000)
    kept = stored(table)
    assert {c: kept[c] for c in sheet if c[0] <= 7} == {c: v for c, v in sheet.items() if c[0] <= 7}
    assert kept.get((9, 0), (None, None)) == (None, None)  # still held: deal 8 comes first
    # The overview agrees with the status line: deals 1-7 stored, deal 9 not.
    for deal in range(1, 8):
        expect(a.locator(f'.phone-jump[data-deal="{deal}"]')).to_have_attribute(
            "data-state", "saved"
        )
    expect(a.locator('.phone-jump[data-deal="9"]')).not_to_have_attribute("data-state", "saved")


def test_an_idle_second_phone_follows_the_saves_of_the_first(table_link, device, settings):
    settings.SHEET_POLL_SECONDS = 1  # the page asks every 1-1.25 s instead of 15-19 s
    table, _link, address = table_link
    first, second = device(), device(PHONE)
    first.goto(address)
    second.goto(address)
    polls = []
    second.on("request", lambda r: polls.append(r.url) if "?state=" in r.url else None)
    type_deal(first, 1, DEAL_1)
    expect(first.locator("#sync")).to_have_attribute("data-state", "saved")
    version = SheetVersion.objects.filter(table=table, number__isnull=False).count()

    # No reload: the idle phone puts the saved deal, its totals and the status in place.
    sync = second.locator("#sync")
    expect(sync).to_have_attribute("data-state", "saved")
    expect(sync).to_contain_text(dutch("version %(number)s", number=version))
    for (seat, kind), digit in values(DEAL_1).items():
        expect(box(second, 1, seat, kind)).to_have_value(str(digit))
    expect(second.locator('.phone-jump[data-deal="1"]')).to_have_attribute("data-state", "saved")
    totals = [
        first.locator(f'[data-total="tournament_points"][data-seat="{s}"]').inner_text()
        for s in range(4)
    ]
    expect(second.locator(".phone-totals .phone-total-points")).to_have_text(totals)
    assert polls

    # Typing on the second phone stops nothing and loses nothing: its deal 2 is saved, merged.
    type_deal(second, 2, DEAL_2)
    expect(sync).to_have_attribute("data-state", "saved")
    cells = stored(table)
    assert all(cells[2, seat] != (None, None) for seat in range(4))
    assert all(cells[1, seat] != (None, None) for seat in range(4))
    expect(first.locator("#sync")).to_contain_text(dutch("version %(number)s", number=version + 1))
