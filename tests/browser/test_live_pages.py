"""The room's live pages: the projector pages through everyone, and the public standings and
"where do I sit" update themselves, without reloading."""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.factories import played_tournament
from tournament.models import Player, Round, Table, Tournament
from tournament.rounds.selectors import public_seating
from tournament.sheets.services import sheet_record
from tournament.sheets.submission import SheetSubmission
from tournament.standings import live
from tournament.standings.selectors import tournament_standings
from tournament.standings.tables import standings_for_public
from tournament.tournaments.finish import tournament_finish

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def quick(monkeypatch):
    """Poll every second and turn the projector's pages every second (20 s and 10 s live)."""
    monkeypatch.setattr(live, "POLL_SECONDS", 1)
    monkeypatch.setattr(live, "PAGE_SECONDS", 1)


# Every Content Security Policy violation the page reports (the script, its config block and
# the projector's layout must run within the policy).
LISTEN = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__violations.push(event.violatedDirective + " " + event.blockedURI);
});
"""


@pytest.fixture
def open_page(browser, live_server):
    """``open_page(width, height)``: a page of that size, closed before the live server stops
    (a page left open would poll a server whose database is gone)."""
    contexts = []

    def open_(width: int, height: int, **options):
        context = browser.new_context(
            locale="nl-NL", viewport={"width": width, "height": height}, **options
        )
        context.set_default_timeout(10_000)
        context.add_init_script(LISTEN)
        contexts.append(context)
        return context.new_page()

    yield open_
    for context in contexts:
        context.close()


def play_first_deal(table: Table) -> None:
    """The table plays deal 1: seat 1 bolt, the others keep their bid of 0."""
    cells = {(1, seat): (0, 1 if seat == 0 else 0) for seat in range(table.seats.count())}
    sheet_record(
        table=table,
        submission=SheetSubmission(cells=cells, penalties=(), base_version=0, idempotency_key=None),
    )


def standings_row(page, name: str):
    cell = page.get_by_role("cell", name=name, exact=True)
    return page.locator("table.standings tbody tr").filter(has=cell)


def shown_row_bottom(page, name: str) -> float:
    """The bottom edge of ``name``'s standings row, read while the projector shows it: waits for
    the page it is on, and reads it in that same frame (the next page turns every second)."""
    bottom = page.wait_for_function(
        """(name) => {
            const rows = [...document.querySelectorAll("table.standings tbody tr")];
            const row = rows.find((r) => r.cells[1] && r.cells[1].textContent.trim() === name);
            if (!row || row.hidden) return false;
            const box = row.getBoundingClientRect();
            return box.height > 0 ? box.bottom : false;
        }""",
        arg=name,
        timeout=10_000,
    )
    return bottom.json_value()


def not_reloaded(page) -> None:
    page.evaluate("() => { window.stillTheSamePage = true; }")


def assert_not_reloaded(page) -> None:
    assert page.evaluate("() => window.stillTheSamePage") is True
    assert page.evaluate("() => window.__violations") == []


def test_the_projector_pages_to_the_last_of_60_players_without_reloading(
    open_page, live_server, quick, screenshot
):
    tournament = played_tournament(60, rounds=2, public=True)
    # A third round to come: the projector shows round 2's tables beside the standings (with
    # every planned round played it shows the standings alone).
    Tournament.objects.filter(pk=tournament.pk).update(rounds_planned=3)
    rows = standings_for_public(tournament).rows
    places = public_seating(tournament)["places"]
    page = open_page(1920, 1080)
    page.goto(live_server.url + reverse("public_screen", args=[tournament.slug]))
    not_reloaded(page)
    assert page.locator('meta[http-equiv="refresh"]').count() == 0
    pager = page.locator(".screen-standings [data-live=pager]")
    expect(pager).to_have_text(re.compile(r"^Pagina 1 van [2-9]$"))
    pages = int(pager.inner_text().rsplit(" ", 1)[1])
    first, last = standings_row(page, rows[0]["name"]), standings_row(page, rows[-1]["name"])
    expect(first).to_be_visible()
    expect(last).to_be_hidden()
    screenshot(page, "projector-1920-page-1")

    expect(last).to_be_visible()  # the next page, without a reload
    expect(pager).to_have_text(f"Pagina {pages} van {pages}")
    assert shown_row_bottom(page, rows[-1]["name"]) <= 1080
    screenshot(page, "projector-1920-page-2")
    last_place = page.locator(".screen-places li").filter(has_text=places[-1].name).last
    expect(last_place).to_be_visible()
    assert_not_reloaded(page)

    # A smaller beamer: the type scales with the width, the pages are laid out again (on the
    # window's resize event; until it has run, the pager still counts the pages of 1920 x 1080).
    page.evaluate(
        """() => { window.laidOutFor = null; window.addEventListener("resize", () => {
            window.laidOutFor = [window.innerWidth, window.innerHeight]; }); }"""
    )  # added after the page's own listener, so it runs after the new layout
    page.set_viewport_size({"width": 1280, "height": 720})
    page.wait_for_function(
        "() => window.laidOutFor && window.laidOutFor.join('x') === '1280x720'", timeout=10_000
    )
    expect(pager).to_have_text(re.compile(r"^Pagina \d+ van \d+$"))
    pages = int(pager.inner_text().rsplit(" ", 1)[1])
    expect(pager).to_have_text(f"Pagina {pages} van {pages}", timeout=3_000 * pages)
    expect(last).to_be_visible()
    assert shown_row_bottom(page, rows[-1]["name"]) <= 720
    assert page.evaluate("() => document.documentElement.scrollHeight") <= 720
    screenshot(page, "projector-1280-last-page")
    assert_not_reloaded(page)


def test_the_projector_shows_a_saved_deal_without_reloading(open_page, live_server, quick):
    tournament = played_tournament(8, rounds=2, last_round=[5, 0], public=True)
    table = Table.objects.get(round__tournament=tournament, round__number=2, number=2)
    player = table.seats.get(position=1).player
    page = open_page(1280, 720)
    page.goto(live_server.url + reverse("public_screen", args=[tournament.slug]))
    not_reloaded(page)
    row = standings_row(page, player.name)
    expect(row.locator("td").last).to_have_text("\N{EN DASH}")
    play_first_deal(table)
    expect(row.locator("td").last).to_have_text("2")  # bid 0, kept
    expect(page.locator("[data-live=status]")).to_contain_text("Bijgewerkt om")
    assert_not_reloaded(page)


def test_the_public_standings_update_in_place_after_a_sheet_is_saved(
    open_page, live_server, quick, screenshot
):
    tournament = played_tournament(8, rounds=2, last_round=[5, 0], public=True)
    table = Table.objects.get(round__tournament=tournament, round__number=2, number=2)
    bolt = table.seats.get(position=0).player
    page = open_page(1280, 900)
    page.goto(live_server.url + reverse("public_standings", args=[tournament.slug]))
    not_reloaded(page)
    expect(page.get_by_text("herlaad")).to_have_count(0)
    row = standings_row(page, bolt.name)
    total = row.locator("td.total")
    before = int(total.inner_text())
    play_first_deal(table)
    expect(total).to_have_text(str(before - 2))  # a bol: -2
    expect(total).to_have_class("num total provisional")
    expect(page.locator("[data-live=legend]")).to_be_visible()
    expect(page.locator("[data-live=status]")).to_contain_text("Bijgewerkt om")
    assert_not_reloaded(page)
    screenshot(page, "public-standings-updated")

    page.context.set_offline(True)  # the venue wifi drops: said once, then it tries again
    expect(page.locator("[data-live=status]")).to_contain_text("Geen verbinding")
    page.context.set_offline(False)
    expect(page.locator("[data-live=status]")).to_contain_text("Bijgewerkt om")


def test_where_do_i_sit_shows_a_newly_published_round_and_links_to_the_players_page(
    open_page, live_server, quick, screenshot
):
    tournament = played_tournament(8, rounds=2, last_round=[5, 0], public=True)
    Round.objects.filter(tournament=tournament, number=2).update(published=False)
    player = Player.objects.filter(tournament=tournament).order_by("pk").first()
    seat = player.seats.select_related("table").get(round__number=2)
    phone = open_page(360, 740, is_mobile=True, has_touch=True)
    # The player searched for their name during round 1 and kept the answer open; round 1 is
    # over now, so the page says so instead of asking where they sit in it.
    home = reverse("public_home", args=[tournament.slug])
    phone.goto(live_server.url + home + "?" + urlencode({"q": player.name}))
    not_reloaded(phone)
    expect(phone.get_by_role("heading", name="Ronde 1 is uitgespeeld")).to_be_visible()
    expect(phone.get_by_role("heading", name="Waar zit ik in ronde 1?")).to_be_hidden()

    Round.objects.filter(tournament=tournament, number=2).update(published=True)
    expect(phone.get_by_role("heading", name="Waar zit ik in ronde 2?")).to_be_visible()
    found = phone.locator("table.places tbody tr")
    expect(found).to_have_count(1)
    expect(found.locator("td").last).to_have_text(str(seat.table.number))
    assert_not_reloaded(phone)
    assert_no_sideways_scrolling(phone)
    screenshot(phone, "where-do-i-sit-360")

    found.get_by_role("link", name=player.name).tap()
    expect(phone.get_by_role("heading", name=player.name, level=1)).to_be_visible()
    expect(phone.get_by_role("heading", name="Ronde 2")).to_be_visible()
    expect(
        phone.get_by_text(f"Tafel {seat.table.number}, stoel {seat.position + 1}")
    ).to_be_visible()
    expect(phone.get_by_text("Plaats", exact=False).first).to_be_visible()
    assert_no_sideways_scrolling(phone)
    screenshot(phone, "player-page-360")


def assert_no_sideways_scrolling(page) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"]


def test_the_public_standings_do_not_scroll_sideways_at_360_px(open_page, live_server, screenshot):
    tournament = played_tournament(20, rounds=3, public=True)
    phone = open_page(360, 740, is_mobile=True, has_touch=True)
    phone.goto(live_server.url + reverse("public_standings", args=[tournament.slug]))
    assert_no_sideways_scrolling(phone)
    table = phone.locator("table.standings")
    assert table.bounding_box()["width"] <= 360
    screenshot(phone, "public-standings-360")


def test_a_front_page_left_open_shows_the_winners_once_the_tournament_is_finished(
    open_page, live_server, quick
):
    tournament = played_tournament(8, rounds=2, public=True)
    Tournament.objects.filter(pk=tournament.pk).update(rounds_planned=2, prize_last_place=True)
    phone = open_page(360, 740, is_mobile=True, has_touch=True)
    phone.goto(live_server.url + reverse("public_home", args=[tournament.slug]))
    not_reloaded(phone)
    expect(phone.get_by_role("heading", name="Ronde 2 is uitgespeeld")).to_be_visible()
    expect(phone.locator("#podium")).to_be_hidden()

    tournament_finish(tournament=Tournament.objects.get(pk=tournament.pk))
    expect(phone.get_by_role("heading", name="Het toernooi is afgelopen")).to_be_visible()
    leader = tournament_standings(tournament).rows[0]
    winners = phone.locator("#podium li")
    expect(winners.first).to_contain_text(Player.objects.get(pk=leader.player).name)
    expect(winners.first).to_contain_text("1e prijs")
    expect(winners.last).to_contain_text("de verliezer")
    assert_not_reloaded(phone)
