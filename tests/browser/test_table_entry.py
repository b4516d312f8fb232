"""A table enters its own sheet on a phone through its private link, on bad venue wifi; and a
director confirms a sheet by re-typing the paper form."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext
from playwright.sync_api import expect

from scoring.deals import DEAL_COUNT, bidding_order
from tests.factories import played_tournament
from tournament.adapter import table_sheet
from tournament.models import SheetConfirmation, Table
from tournament.sheets.submission import SheetSubmission
from tournament.sheets.summary_heads import SummaryHeads, word_px
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
    names = ["Wilhelmina Schoonderwoerd", "Geertruida Oosterhuis-Schimmelpenninck", *"ABCDEF"]
    tournament = played_tournament(8, 1, last_round=[11, 3], director=page.user, names=names)
    table = Table.objects.get(round__tournament=tournament, number=1)
    paper = {cell: value for cell, value in stored(table).items()}
    table_link_sheet_record(
        link=table_link_issue(table=table),
        submission=SheetSubmission(cells=paper, penalties=[], base_version=0, idempotency_key=None),
    )  # entered at the table, without the penalty bollen the import had
    # The laptop's sheet keeps its names' words whole (no "Schoonderwoer" / "d").
    page.goto(live_server.url + reverse("sheet_edit", args=[tournament.slug, 1, 1]))
    assert page.evaluate(BROKEN_WORDS, "table.sheet .name") == []
    # ... and the whole sheet, totals included, in a laptop's width (no sideways scroll).
    assert page.evaluate(
        "() => { const box = document.querySelector('.sheet-scroll');"
        " return [window.innerWidth, box.scrollWidth <= box.clientWidth]; }"
    ) == [1280, True]
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


# Nothing on a phone page scrolls sideways: not the page, not a box within it (the wide grid of
# the score sheet is what did, at 360 px).
SIDEWAYS = """(width) => [...document.querySelectorAll("body *")].filter((node) => {
    if (!node.getClientRects().length) return false;
    const style = getComputedStyle(node);
    const scrolls = ["auto", "scroll"].includes(style.overflowX)
        && node.scrollWidth > node.clientWidth + 1;
    const out = style.position !== "fixed" && node.getBoundingClientRect().right > width + 1;
    return scrolls || out;
}).map((node) => node.tagName + "#" + node.id + "." + node.className)"""

# A penalty row's chosen player and deal, each measured in its own box's font: whole or cut off.
CUT_OFF = """() => [...document.querySelectorAll("#penalties select")]
    .filter((select) => select.value).filter((select) => {
        const probe = document.createElement("span");
        probe.style.font = getComputedStyle(select).font;
        probe.style.whiteSpace = "pre";
        probe.textContent = select.selectedOptions[0].text;
        document.body.append(probe);
        const width = probe.getBoundingClientRect().width;
        probe.remove();
        return width + 28 > select.clientWidth;  // 28 px: the box's padding and its arrow
    }).map((select) => select.selectedOptions[0].text)"""

# The words of the names in ``selector`` that a line break cuts in two (a double name may
# break after its hyphen: "Vries-" and "Bakker" are two words here).
BROKEN_WORDS = """(selector) => [...document.querySelectorAll(selector)].flatMap((node) => {
    const broken = [];
    const texts = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
    while (texts.nextNode()) {
        const text = texts.currentNode;
        for (const word of text.data.matchAll(/[^\\s-]+-?/g)) {
            const range = document.createRange();
            range.setStart(text, word.index);
            range.setEnd(text, word.index + word[0].length);
            const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
            if (lines.size > 1) broken.push(word[0]);
        }
    }
    return broken;
})"""

LONG_NAMES = [
    "Geertruida van den Heuvel",
    "Wilhelmina Oosterhuis-Schimmelpenninck",
    "Anna de Vries-Bakker",
    "Dirk van den Berg",
    "Marloes Bakker-van den Heuvel",
    "Klaas Speelman",
    "Henk de Boer",
    "Ineke Jansen",
    "Bert Smit",
    "Wim Kok",
]


@pytest.fixture
def director_phone(browser, live_server, django_user_model):
    """A director (the club's admin) signed in on a 360x740 phone."""
    from tournament.clubs.services import club_sole
    from tournament.models import ClubRole

    user = django_user_model.objects.create_user(username="leiding", password="kaart-en-bol-2026")
    ClubRole.objects.create(club=club_sole(), user=user, role=ClubRole.Role.ADMIN)
    context = browser.new_context(
        locale="nl-NL", viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True
    )
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.goto(f"{live_server.url}/login/")
    page.get_by_label("Gebruikersnaam").fill("leiding")
    page.get_by_label("Wachtwoord").fill("kaart-en-bol-2026")
    page.get_by_role("button", name="Aanmelden").click()
    page.wait_for_url(f"{live_server.url}/")
    page.user = user
    yield page
    context.close()


def assert_nothing_sideways(page, width: int = 360) -> None:
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    assert page.evaluate(SIDEWAYS, width) == []


def follows(page, first: str, then) -> bool:
    """Whether ``then`` (a locator) comes after the element ``first`` in the page's order."""
    return then.evaluate(
        "(node, first) => Boolean(document.querySelector(first).compareDocumentPosition(node)"
        " & Node.DOCUMENT_POSITION_FOLLOWING)",
        first,
    )


def test_on_a_phone_the_whole_sheet_comes_before_the_confirm_button(
    director_phone, live_server, screenshot
):
    page = director_phone
    # The long names at table 1 (seated at random: the first five names sit at table 2).
    tournament = played_tournament(10, 1, director=page.user, names=LONG_NAMES[5:] + LONG_NAMES[:5])
    table = Table.objects.get(round__tournament=tournament, number=1)
    assert table.seats.count() == 5  # the tightest table
    seated = list(table.seats.order_by("position").values_list("player__name", flat=True))
    assert "Wilhelmina Oosterhuis-Schimmelpenninck" in seated
    link = table_link_issue(table=table)
    paper = stored(table)
    table_link_sheet_record(
        link=link,
        submission=SheetSubmission(
            cells=paper, penalties=[(2, 0), (5, 1)], base_version=0, idempotency_key=None
        ),
    )
    scorer = type(page.user).objects.create_user("teller1", password="kaart-en-bol-2026t")
    tournament.scorers.add(scorer)  # the team page lists someone to remove

    page.goto(live_server.url + reverse("sheet_confirm", args=[tournament.slug, 1, 1]))
    summary = page.locator("#sheet-summary")
    expect(summary).to_be_visible()
    expect(page.locator(".sheet-scroll")).to_be_hidden()  # the grid that scrolled sideways
    rows = summary.locator("tbody tr")
    expect(rows).to_have_count(DEAL_COUNT)
    shown = page.evaluate(
        """() => [...document.querySelectorAll("#sheet-summary td[data-deal]")].map((cell) =>
            [+cell.dataset.deal, +cell.dataset.seat, cell.querySelector(".sum-bid").textContent,
             cell.querySelector(".sum-tricks").textContent])"""
    )
    assert {(d, s): (int(b), int(t)) for d, s, b, t in shown} == paper
    assert_nothing_sideways(page)
    assert summary.evaluate("(box) => box.scrollWidth <= box.clientWidth")  # the 5th total too
    # "Schimmelpenninck" is too long for five names over the columns at 360 px: the columns
    # are numbered, the names listed whole above the table (each head keeps its name unseen).
    expect(summary).to_have_attribute("data-heads", SummaryHeads.NUMBERS_BELOW_480)
    expect(summary.locator(".sum-players li")).to_have_text(
        [f"{n} {name}" for n, name in enumerate(seated, start=1)]
    )
    expect(summary.locator("thead th.sum-name .sum-number")).to_have_text(
        [str(n) for n in range(1, 6)]
    )
    assert summary.locator("thead .sum-name-text").evaluate_all(
        "(names) => names.every((name) => name.getBoundingClientRect().width <= 1)"
    )
    for name in seated:
        expect(page.get_by_role("columnheader", name=name)).to_have_count(1)
    # Whole names: broken between their words only ("Oosterhuis-", not "Oosterhu-").
    assert page.evaluate(BROKEN_WORDS, "#sheet-summary .sum-players li") == []
    # The server's reckoning of the words' widths is never narrower than the browser's.
    words = {w: word_px(w) for name in seated for w in re.findall(r"[^\s-]+-?", name)}
    measured = summary.evaluate(
        """(box, words) => {
            const style = getComputedStyle(box.querySelector("thead th.sum-name"));
            const canvas = document.createElement("canvas").getContext("2d");
            canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
            return Object.fromEntries(words.map((w) => [w, canvas.measureText(w).width]));
        }""",
        list(words),
    )
    assert [w for w, px in measured.items() if px > words[w] + 0.5] == []
    # The penalty bollen in words, each name whole: no box to cut one off.
    expect(page.locator("#penalties .penalty-what")).to_have_text(
        [f"Spel 2 (2): {seated[0]}", f"Spel 5 (5): {seated[1]}"]
    )
    expect(page.locator("#penalties select, #penalties [type=checkbox]")).to_have_count(0)
    assert page.evaluate(BROKEN_WORDS, "#penalties .penalty-what") == []
    # No "compare and confirm" without a button to do it; here there is one.
    expect(page.locator("#confirm-how")).to_be_visible()

    button = page.get_by_role(
        "button",
        name=dutch("Confirm version %(number)s: it matches the paper form") % {"number": 1},
    )
    assert follows(page, "#sheet-summary", button) and follows(page, "#penalties", button)
    last_deal = rows.nth(DEAL_COUNT - 1).bounding_box()
    penalties = page.locator("#penalties").bounding_box()
    assert button.bounding_box()["y"] >= max(
        last_deal["y"] + last_deal["height"], penalties["y"] + penalties["height"]
    )
    screenshot(page, "confirm-phone-360x740")
    button.tap()
    expect(page.locator('[data-table-card="1"] .sheet-review')).to_have_attribute(
        "data-confirmed", "yes"
    )
    assert SheetConfirmation.objects.get().method == "look"

    # The table's link, read-only once confirmed: the same summary, nothing sideways.
    page.goto(live_server.url + reverse("table_entry", args=[link.token]))
    expect(page.locator("#sheet-summary")).to_be_visible()
    assert_nothing_sideways(page)
    assert page.evaluate(CUT_OFF) == []
    screenshot(page, "table-link-confirmed-phone-360x740")

    page.goto(live_server.url + reverse("team", args=[tournament.slug]))
    expect(page.locator("#confirmation-rule .rule-in-force")).to_contain_text(
        "Automatisch: iemand anders bevestigt."
    )
    assert_nothing_sideways(page)
    screenshot(page, "team-phone-360x740")


def test_a_half_done_retype_on_a_phone_is_kept_when_the_page_is_left(
    director_phone, live_server, screenshot
):
    page = director_phone
    tournament = played_tournament(8, 1, last_round=[11, 3], director=page.user)
    table = Table.objects.get(round__tournament=tournament, number=1)
    paper = stored(table)
    table_link_sheet_record(
        link=table_link_issue(table=table),
        submission=SheetSubmission(cells=paper, penalties=[], base_version=0, idempotency_key=None),
    )
    n = table.seats.count()
    retype_url = live_server.url + reverse("sheet_retype", args=[tournament.slug, 1, 1])
    page.goto(retype_url)
    expect(page.locator("#phone-sheet")).to_be_visible()  # deal by deal, as at the table
    expect(page.locator(".sheet-scroll")).to_be_hidden()
    assert_nothing_sideways(page)
    for deal in (1, 2):
        for kind in ("bid", "tricks"):
            for seat in bidding_order(deal, n):
                page.locator(
                    f'#phone-sheet button.phone-tap[data-deal="{deal}"][data-seat="{seat}"]'
                    f'[data-kind="{kind}"][data-value="{paper[deal, seat][kind == "tricks"]}"]'
                ).tap()
        page.locator('#phone-sheet [data-move="next"]').tap()
    expect(page.locator('#phone-sheet button.phone-jump[data-deal="2"]')).to_have_attribute(
        "data-state", "typed"
    )

    # Away to the round page, and back: the two deals are still there.
    page.goto(live_server.url + reverse("round_detail", args=[tournament.slug, 1]))
    page.goto(retype_url)
    expect(page.locator("#sync")).to_contain_text(
        dutch(
            "Your re-typing from before is back in the form; it stays on this device until you "
            "compare."
        )
    )
    for deal in (1, 2):
        expect(
            page.locator(f'#phone-sheet button.phone-jump[data-deal="{deal}"]')
        ).to_have_attribute("data-state", "typed")
        for seat in range(n):
            expect(box(page, deal, seat, "bid")).to_have_value(str(paper[deal, seat][0]))
            expect(box(page, deal, seat, "tricks")).to_have_value(str(paper[deal, seat][1]))
    expect(page.locator("#phone-deal-title")).to_contain_text("3")  # on at the next deal
    assert_nothing_sideways(page)
    screenshot(page, "retype-phone-360x740-kept")

    # The rest typed (the hidden grid's boxes, as a tap sets them), then compared: confirmed,
    # and the device's copy is gone.
    page.evaluate(
        """(rest) => rest.forEach(([deal, seat, kind, value]) => {
            const input = document.querySelector(
                `input.box[data-deal="${deal}"][data-seat="${seat}"][data-kind="${kind}"]`);
            input.value = String(value);
            input.dispatchEvent(new Event("input", {bubbles: true}));
        })""",
        [
            [deal, seat, kind, value]
            for (deal, seat), pair in paper.items()
            if deal > 2
            for kind, value in zip(("bid", "tricks"), pair, strict=True)
        ],
    )
    compare = page.get_by_role("button", name=dutch("Compare with the stored sheet"))
    assert follows(page, "#penalties", compare)  # the penalty bollen are compared too
    compare.tap()
    expect(page.locator('[data-table-card="1"] .sheet-review')).to_have_attribute(
        "data-confirmed", "yes"
    )
    assert SheetConfirmation.objects.get().method == "retype"
    assert (
        page.evaluate(
            "() => Object.keys(localStorage).filter((k) => k.startsWith('bollen-retype'))"
        )
        == []
    )
