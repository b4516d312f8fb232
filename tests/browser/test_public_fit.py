"""The public pages with long Dutch names, measured: on a 360 px phone nothing is wider than the
phone, every name is whole (wrapped between its words only) and place, name and total stay in
view; the projector shows every name whole at 1920x1080 and 1280x720 and a saved correction
within PUBLIC_STANDINGS_SECONDS."""

from __future__ import annotations

import random
import re

import pytest
from django.core.cache import cache
from django.urls import reverse
from playwright.sync_api import expect

from scoring.simulate import simulate_sheet
from tests.factories import played_tournament
from tournament.models import Table
from tournament.sheets.selectors import sheet_version_number
from tournament.sheets.services import sheet_record
from tournament.sheets.submission import SheetSubmission
from tournament.standings import live
from tournament.standings.tables import standings_for_public

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def open_page(browser, live_server):
    """``open_page(width, height)``: a page of that size, closed before the live server stops."""
    contexts = []

    def open_(width: int, height: int, **options):
        context = browser.new_context(
            locale="nl-NL", viewport={"width": width, "height": height}, **options
        )
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context.new_page()

    yield open_
    for context in contexts:
        context.close()


@pytest.fixture
def quick(monkeypatch):
    """The projector turns its pages every second (10 s live)."""
    monkeypatch.setattr(live, "PAGE_SECONDS", 1)


NAMES = [
    "Marloes Bakker-van den Heuvel",
    "Annie van der Zwaluw-Brinkman",
    "Kees van der Zwaluw-Brinkman",
    "Geertruida Oosterhuis-Vandenberghe",
    "Jan de Vries",
    "Wilhelmina Schoonderwoerd",
    "Piet Jansen",
    "Hendrika van Dijk-Ottenhoff",
    "Bram Smit",
    "Johannes Verhoeven-Lammerink",
    "Truus de Boer",
    "Adriana Kloppenburg-Zuidema",
    "Sjaak van den Bosch",
    "Cornelis Hoogendoorn",
    "Els Mulder",
    "Frederika Zwanenburg-Tijssen",
    "Gerrit van Leeuwen",
    "Ida Kuipers",
    "Maarten Wijnbergen-de Groot",
    "Ria Dekker",
    "Theodorus Brouwer-Vermeulen",
    "Anke Bos",
    "Lambertus van der Meulen",
    "Fien Visser",
]

# Six tables of four; in the last round the sixth has played three deals (provisional scores).
LAST_ROUND = [11] * 5 + [3]

# Every shown element of `selector` whose text is cut (it overflows its box, or ends in an
# ellipsis) or has a word (what lies between two spaces; with `hyphens`, also a double
# surname's part up to its hyphen) broken over two lines: a word's Range has its rectangles on
# one line only. Returns the problems, the names measured and how many of them wrap (between
# words) onto more lines.
WHOLE = """([selector, hyphens]) => {
  const word = hyphens ? /[^\\s-]+-?/g : /\\S+/g;
  const problems = [], names = [];
  let wrapped = 0;
  for (const el of document.querySelectorAll(selector)) {
    if (!el.getClientRects().length) continue;  // on a page not shown
    const name = el.textContent.replace(/\\s+/g, " ").trim();
    names.push(name);
    if (el.scrollWidth > el.clientWidth + 1) {
      problems.push(`${name}: ${el.scrollWidth} px in ${el.clientWidth}`);
    }
    const cut = [el, ...el.querySelectorAll("*")]
      .some((e) => getComputedStyle(e).textOverflow === "ellipsis");
    if (cut) problems.push(`${name}: ellipsis`);
    const lines = new Set();
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const match of node.data.matchAll(word)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (tops.size > 1) problems.push(`${name}: "${match[0]}" broken over ${tops.size} lines`);
        tops.forEach((top) => lines.add(top));
      }
    }
    if (lines.size > 1) wrapped += 1;
  }
  return { problems, names, wrapped };
}"""

# The right edge of the page's widest element, not counting what scrolls in its own box.
WIDEST = """() => Math.max(...[...document.querySelectorAll("body *")]
  .filter((e) => !e.parentElement.closest(".scroll"))
  .map((e) => e.getBoundingClientRect().right))"""

# The standings' box scrolled to either end: are every row's place, name and total in view,
# and at the far end the last round's column, whole and not under the stuck columns?
STUCK = """() => {
  const box = document.querySelector(".scroll");
  const table = box.querySelector("table.standings");
  const head = [...table.tHead.rows[0].cells];
  const edges = box.getBoundingClientRect();
  const inView = (cell) => {
    const r = cell.getBoundingClientRect();
    return r.left >= edges.left - 0.5 && r.right <= edges.right + 0.5;
  };
  const fixedInView = () => [...table.rows]
    .every((row) => [0, 1, 2].every((i) => inView(row.cells[i])));
  const atStart = fixedInView();
  box.scrollLeft = box.scrollWidth;
  const atEnd = fixedInView();
  const last = head[head.length - 1];
  const lastWhole = inView(last)
    && last.getBoundingClientRect().left >= head[2].getBoundingClientRect().right - 0.5;
  box.scrollLeft = 0;
  return { atStart, atEnd, lastWhole, scrolls: box.scrollWidth > box.clientWidth };
}"""


def assert_fits(page, selector: str, *, hyphens: bool = False) -> dict:
    width = page.viewport_size["width"]
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    assert page.evaluate(WIDEST) <= width + 0.5
    measured = page.evaluate(WHOLE, [selector, hyphens])
    assert measured["problems"] == []
    assert measured["names"]
    return measured


def test_on_a_360_px_phone_every_name_is_whole_and_place_name_and_total_stay_in_view(
    open_page, live_server, screenshot
):
    tournament = played_tournament(
        24, rounds=4, names=NAMES, public=True, last_round=[11] * 5 + [3]
    )
    phone = open_page(360, 740, is_mobile=True, has_touch=True)
    phone.goto(live_server.url + reverse("public_standings", args=[tournament.slug]))
    expect(phone.locator("table.standings[data-stuck='3']")).to_have_count(1)
    # The stuck name column takes at most ~40% of the box: names wrap between their words, a
    # double surname after its hyphen.
    standings = assert_fits(phone, "table.standings td.name", hyphens=True)
    assert sorted(standings["names"]) == sorted(NAMES)
    assert standings["wrapped"] >= 3  # long names take two lines, broken between words
    name_share = phone.evaluate(
        """() => document.querySelector("table.standings th.name").getBoundingClientRect().width
            / document.querySelector(".scroll").clientWidth"""
    )
    assert name_share <= 0.45
    # Rounds out of sight are said under the table.
    expect(phone.locator("#standings-more")).to_be_visible()
    assert phone.evaluate(STUCK) == {
        "atStart": True,
        "atEnd": True,
        "lastWhole": True,
        "scrolls": True,
    }
    screenshot(phone, "public-standings-long-names-360")

    longest = tournament.players.get(name="Geertruida Oosterhuis-Vandenberghe")
    phone.goto(live_server.url + reverse("public_player", args=[tournament.slug, longest.pk]))
    expect(phone.get_by_role("heading", level=1)).to_have_text(longest.name)
    assert_fits(phone, "h1, .player-round p")
    screenshot(phone, "public-player-long-name-360")

    home = reverse("public_home", args=[tournament.slug])
    phone.goto(f"{live_server.url}{home}?q=van")
    assert len(assert_fits(phone, "table.places td:first-child")["names"]) >= 8

    # The projector opened on a phone: one long page, no wider than the phone.
    phone.goto(live_server.url + reverse("public_screen", args=[tournament.slug]))
    expect(phone.locator(".screen-places li").first).to_be_visible()
    assert_fits(phone, ".screen-places .who, table.standings td.name")


def projector_names(page, selector: str, pager) -> set[str]:
    """The names of `selector` measured whole on every page of the list (the pages turn every
    second here), each page's items within the screen."""
    text = pager.inner_text()
    pages = int(text.rsplit(" ", 1)[1]) if text else 1
    seen: set[str] = set()
    for number in range(1, pages + 1):
        if pages > 1:
            expect(pager).to_have_text(f"Pagina {number} van {pages}")
        measured = assert_fits(page, selector)
        assert (
            page.evaluate("() => document.documentElement.scrollHeight")
            <= (page.viewport_size["height"])
        )
        seen.update(measured["names"])
    return seen


def test_the_projector_shows_every_name_whole_at_1920_and_1280(
    open_page, live_server, quick, screenshot
):
    tournament = played_tournament(
        24, rounds=4, names=NAMES, public=True, last_round=[11] * 5 + [3]
    )
    page = open_page(1920, 1080)
    page.goto(live_server.url + reverse("public_screen", args=[tournament.slug]))
    seating = page.locator(".screen-seating [data-live=pager]")
    standings = page.locator(".screen-standings [data-live=pager]")
    expect(page.locator(".screen-places li").first).to_be_visible()
    for width, height in ((1920, 1080), (1280, 720)):
        if width != 1920:
            page.evaluate(
                """() => { window.laidOutFor = null; window.addEventListener("resize", () => {
                    window.laidOutFor = [window.innerWidth, window.innerHeight]; }); }"""
            )
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_function(f"() => String(window.laidOutFor) === '{width},{height}'")
        # The two lists share the width, the seating in as many columns as keep it on fewest pages.
        widths = page.evaluate(
            """() => [...document.querySelectorAll(".screen-panels > section:not([hidden])")]
                .map((s) => s.getBoundingClientRect().width)"""
        )
        assert len(widths) == 2 and sum(widths) >= 0.9 * width
        assert projector_names(page, ".screen-places .who", seating) == set(NAMES)
        assert projector_names(page, "table.standings td.name", standings) == set(NAMES)
        screenshot(page, f"projector-long-names-{width}")


def test_the_projector_shows_a_saved_correction_within_the_delay(
    open_page, live_server, settings, monkeypatch
):
    """PUBLIC_STANDINGS_SECONDS is the longest the projector may lag behind a save: the
    server's kept standings, the wait for the next poll and the turn to the page with the
    change all fall within it, even when the change is on a page not shown."""
    settings.PUBLIC_STANDINGS_SECONDS = 5
    monkeypatch.setattr(live, "PAGE_SECONDS", 60)  # the pages do not turn by themselves here
    cache.clear()
    # Forty players; table 10 has not started: its four players are last, on the second page.
    names = NAMES + [f"Speler {number}" for number in range(25, 41)]
    tournament = played_tournament(
        40, rounds=1, names=names, public=True, last_round=[11] * 9 + [0]
    )
    rows = standings_for_public(tournament).rows
    index = {row["player_id"]: i for i, row in enumerate(rows)}
    table = Table.objects.get(round__tournament=tournament, number=10)
    seats = sorted(table.seats.select_related("player"), key=lambda s: index[s.player_id])
    best, last = seats[0], seats[-1]
    page = open_page(1280, 720)
    page.goto(live_server.url + reverse("public_screen", args=[tournament.slug]))
    name = page.locator("td.name").filter(has_text=re.compile(f"^{best.player.name}$"))
    row = page.locator("table.standings tbody tr").filter(has=name)
    pager = page.locator(".screen-standings [data-live=pager]")
    expect(pager).to_have_text(re.compile(r"^Pagina 1 van [2-9]$"))
    expect(row).to_be_hidden()  # on the page not shown
    expect(row.locator("td").last).to_have_text("\N{EN DASH}")
    # Deal 1: the lowest placed player takes the trick and bolts; the others keep their bid of
    # 0 (+2), the best placed of them the first row that changes.
    cells = {(1, s.position): (0, 1 if s == last else 0) for s in seats}
    sheet_record(
        table=table,
        submission=SheetSubmission(cells=cells, penalties=(), base_version=0, idempotency_key=None),
    )
    updated = row.filter(has=page.locator("td:last-child", has_text=re.compile("^2$")))
    expect(updated).to_be_visible(timeout=settings.PUBLIC_STANDINGS_SECONDS * 1000)
    cache.clear()


# What the projector's standings show now: how many rows, whether the last one shown is within
# the window, the pager's words, the type's size against the table's own and in pixels beside
# the seating's, how many names take more than one line, and the panel's width.
SHOWN = """() => {
  const panel = document.querySelector(".screen-standings");
  const table = panel.querySelector("table.standings");
  const rows = [...table.tBodies[0].rows].filter((row) => !row.hidden);
  const box = panel.querySelector(".screen-window").getBoundingClientRect();
  const place = document.querySelector(".screen-seating:not([hidden]) .screen-places li");
  const font = (node) => parseFloat(getComputedStyle(node).fontSize);
  return {
    rows: rows.length,
    inside: rows.at(-1).getBoundingClientRect().bottom <= box.bottom + 0.5,
    pager: panel.querySelector("[data-live=pager]").textContent,
    size: font(table) / (0.85 * font(table.parentElement)),
    font: font(rows[0].cells[1]),
    seating_font: place ? font(place) : null,
    wrapped: rows.filter((row) => row.cells[1].getBoundingClientRect().height
      >= 2 * font(row.cells[1])).length,
    width: panel.getBoundingClientRect().width,
  };
}"""


def resize(page, width: int, height: int) -> None:
    """The window resized, and the projector's pages laid out again for it."""
    page.evaluate(
        """() => { window.laidOutFor = null; window.addEventListener("resize", () => {
            window.laidOutFor = [window.innerWidth, window.innerHeight]; }); }"""
    )
    page.set_viewport_size({"width": width, "height": height})
    page.wait_for_function(f"() => String(window.laidOutFor) === '{width},{height}'")


# The director's walk-through: 19 players, the longest name of them all among them.
NAMES_19 = ["Wilhelmina Oosterhuis-Schimmelpenninck", *NAMES[:18]]
UPDATED = re.compile(r"^Bijgewerkt om [0-2][0-9]:[0-5][0-9]$")


def test_the_projector_shows_19_players_on_one_page_in_type_that_fills_the_screen(
    open_page, live_server, quick
):
    """19 rows take the window's height in type no smaller than the seating's, each name on
    one line at 1920x1080; a little too many for the window (1280x720) they are at most a
    little smaller, on one page (not 18 and then 1); far too many, the pages share them
    evenly. Once every round is played the standings take the whole width."""
    tournament = played_tournament(
        19, rounds=4, names=NAMES_19, public=True, last_round=[11, 11, 11, 3]
    )
    page = open_page(1920, 1080)
    page.goto(live_server.url + reverse("public_screen", args=[tournament.slug]))
    expect(page.locator(".screen-places li").first).to_be_visible()
    status = page.locator("[data-live=status]")
    expect(status).to_have_text(UPDATED)  # as a live update says it
    for width, height in ((1920, 1080), (1280, 720)):
        if width != 1920:
            resize(page, width, height)
        shown = page.evaluate(SHOWN)
        assert shown["rows"] == 19 and shown["inside"] and shown["pager"] == "", (width, shown)
        assert 0.8 <= shown["size"] <= 1.5, (width, shown)
        assert page.evaluate("() => document.documentElement.scrollHeight") <= height
        if width == 1920:
            assert shown["font"] >= shown["seating_font"], shown
            assert shown["wrapped"] == 0, shown
    beside = shown

    resize(page, 1280, 520)  # far too low for 19 rows: two pages of 10 and 9
    pager = page.locator(".screen-standings [data-live=pager]")
    counts = {}
    for number in (1, 2):
        expect(pager).to_have_text(f"Pagina {number} van 2")
        shown = page.evaluate(SHOWN)
        assert shown["inside"] and shown["size"] == 1, shown
        counts[number] = shown["rows"]
    assert counts == {1: 10, 2: 9}

    # The last table finishes the last round: the projector drops the seating by itself, and
    # the standings fill the whole width; so too when the page is opened afresh.
    resize(page, 1280, 720)
    table = Table.objects.get(round__tournament=tournament, round__number=4, number=4)
    deals = simulate_sheet(table.seats.count(), random.Random(4))
    cells = {(d, s): (bid[s], won[s]) for d, (bid, won) in enumerate(deals, 1) for s in range(4)}
    sheet_record(
        table=table,
        submission=SheetSubmission(cells=cells, base_version=sheet_version_number(table)),
    )
    seating = page.locator(".screen-seating")
    expect(seating).to_be_hidden()
    expect(status).to_have_text(UPDATED)
    for fresh in (False, True):
        if fresh:
            page.reload()
            expect(page.locator("table.standings td.name").first).to_be_visible()
            expect(seating).to_be_hidden()
        shown = page.evaluate(SHOWN)
        assert shown["rows"] == 19 and shown["inside"] and shown["pager"] == "", shown
        assert shown["width"] >= 0.9 * 1280 and shown["font"] > beside["font"], shown
        assert shown["wrapped"] == 0, shown
