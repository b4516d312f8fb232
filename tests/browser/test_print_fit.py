"""The print page on the narrowest phone (360 px): the rounds' printouts stack under each
round's name, every button in view, nothing scrolling sideways, not even in its own box."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.factories import played_tournament

pytestmark = pytest.mark.django_db(transaction=True)

# Every link of the rounds' table that reaches past the screen's right edge or is cut by its
# box, and every box of the page that scrolls sideways.
OUT_OF_VIEW = """(width) => {
  const far = [...document.querySelectorAll("table.print-rounds a, table.print-rounds td")]
    .filter((e) => e.getBoundingClientRect().right > width + 0.5)
    .map((e) => e.textContent.trim() + " reaches " + Math.round(e.getBoundingClientRect().right));
  const boxes = [...document.querySelectorAll(".scroll")]
    .filter((e) => e.scrollWidth > e.clientWidth + 1)
    .map((e) => "a box scrolls: " + e.scrollWidth + " px in " + e.clientWidth);
  return [...far, ...boxes];
}"""


def test_the_print_page_fits_a_360_px_phone(signed_in, live_server, screenshot):
    page = signed_in
    tournament = played_tournament(19, 4)
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(live_server.url + reverse("print_index", args=[tournament.slug]))
    rounds = page.locator("table.print-rounds tbody tr")
    expect(rounds).to_have_count(4)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 360
    assert page.evaluate(OUT_OF_VIEW, 360) == []
    # Each round: its name and tables on one line, the score sheets and the seating list each
    # on a line of their own below them.
    last = rounds.last
    seating = last.get_by_role("link", name="Tafelindeling (pdf)")
    seating.scroll_into_view_if_needed()
    expect(seating).to_be_in_viewport(ratio=1)
    tops = last.locator("td").evaluate_all(
        "(cells) => cells.map((c) => Math.round(c.getBoundingClientRect().top))"
    )
    assert tops[0] == tops[1] < tops[2] < tops[3], tops
    # The number of tables says what it counts, the column's header being out of sight.
    label = last.locator("td.num").evaluate("(c) => getComputedStyle(c, '::before').content")
    assert label == '"Tafels: "', label
    screenshot(page, "print-page-360")

    # On a laptop it is still a table of four columns, one line per round.
    page.set_viewport_size({"width": 1280, "height": 800})
    tops = last.locator("td").evaluate_all(
        "(cells) => cells.map((c) => Math.round(c.getBoundingClientRect().top))"
    )
    assert len(set(tops)) == 1, tops
    expect(page.locator("table.print-rounds thead")).to_be_visible()
