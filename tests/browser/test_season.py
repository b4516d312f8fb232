"""A club's season in the browser: tonight's check-in and the season standings, on a laptop and
on a phone (390 px), with screenshots in test-artifacts/screenshots/."""

from __future__ import annotations

import datetime
import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.season.conftest import NAMES, evening
from tournament.clubs.services import club_sole
from tournament.models import Member, Tournament
from tournament.season.services import CompetitionSettings, competition_create

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = {"laptop": (1280, 800), "phone": (390, 844)}

# True when the page itself scrolls sideways (a table scrolling in its own box is fine).
PAGE_SCROLLS_SIDEWAYS = (
    "() => document.documentElement.scrollWidth > document.documentElement.clientWidth"
)


def season_of(user):
    """Three played evenings: all ten members, then nine (no J), then eight (no A, no J)."""
    return competition_create(
        club=club_sole(),
        settings=CompetitionSettings(name="Clubkampioenschap", season="2026", min_evenings=2),
        tournaments=[
            evening(1, NAMES, user),
            evening(2, NAMES[:9], user),
            evening(3, NAMES[1:9], user),
        ],
    )


@pytest.mark.parametrize("size", SIZES)
def test_check_in_ticks_last_evening_searches_adds_a_name_and_creates_it(
    signed_in, live_server, screenshot, size
):
    page = signed_in
    page.set_viewport_size(dict(zip(("width", "height"), SIZES[size], strict=True)))
    competition = season_of(page.user)
    Member.objects.create(register=club_sole(), name="Ole Østergaard")
    page.goto(live_server.url + reverse("check_in", args=[competition.slug]))
    count = page.locator("#tick-count")
    expect(count).to_have_text("0")

    page.get_by_label("Naam van de avond").fill("Avond van de wijn")
    page.get_by_role("button", name="Iedereen van vorige avond").click()
    expect(count).to_have_text("8")
    expect(page.get_by_label("Naam van de avond")).to_have_value("Avond van de wijn")
    expect(page.get_by_label("Lid B", exact=True)).to_be_checked()
    expect(page.get_by_label("Lid A", exact=True)).not_to_be_checked()
    assert not page.evaluate(PAGE_SCROLLS_SIDEWAYS)
    screenshot(page, f"season-check-in-last-{size}")

    search = page.get_by_placeholder("Zoeken")
    search.fill("lid a")
    expect(page.get_by_label("Lid A", exact=True)).to_be_visible()
    expect(page.get_by_label("Lid B", exact=True)).to_be_hidden()
    search.press("Enter")  # stays on the page: Enter in the search does not submit
    page.get_by_label("Lid A", exact=True).check()
    expect(count).to_have_text("9")
    screenshot(page, f"season-check-in-search-{size}")
    search.fill("oster")  # folded as the site folds names: "Ø" is an "O"
    expect(page.get_by_label("Ole Østergaard", exact=True)).to_be_visible()
    expect(page.get_by_label("Lid A", exact=True)).to_be_hidden()
    search.fill("xyz")
    expect(page.get_by_text("Niemand in de lijst past bij deze zoekopdracht.")).to_be_visible()
    search.fill("")
    expect(page.get_by_label("Lid J", exact=True)).to_be_visible()

    page.get_by_label("Nieuwe namen").fill("Nieuwe Speler, De Troef\n")
    expect(count).to_have_text("10")  # the new names count too
    page.get_by_label("Naam van de avond").fill("Clubavond 4")
    screenshot(page, f"season-check-in-ready-{size}")
    page.get_by_role("button", name="Avond aanmaken").click()

    # A new name: member or guest? A guest unless answered otherwise; here a member.
    question = page.get_by_role("group", name="“Nieuwe Speler” (De Troef): lid of gast?")
    expect(question.get_by_label("gast", exact=True)).to_be_checked()
    question.get_by_label("lid", exact=True).check()
    screenshot(page, f"season-check-in-member-or-guest-{size}")
    page.get_by_role("button", name="Avond aanmaken").click()

    page.wait_for_url(re.compile(r"/t/[^/]+/$"))
    expect(page.get_by_text("Avond aangemaakt met 10 spelers.")).to_be_visible()
    tournament = Tournament.objects.get(name="Clubavond 4")
    assert sorted(tournament.players.values_list("member__name", flat=True)) == sorted(
        [*NAMES[:9], "Nieuwe Speler"]
    )
    assert Member.objects.filter(name="Nieuwe Speler", club="De Troef", guest=False).exists()
    assert competition.evenings.get(tournament=tournament).number == 4
    screenshot(page, f"season-check-in-done-{size}")


@pytest.mark.parametrize("size", SIZES)
def test_season_standings_mark_counted_evenings_and_unranked_members(
    signed_in, live_server, screenshot, size
):
    page = signed_in
    page.set_viewport_size(dict(zip(("width", "height"), SIZES[size], strict=True)))
    competition = season_of(page.user)
    competition.best = 2
    competition.save()
    page.goto(live_server.url + reverse("competition_detail", args=[competition.slug]))
    expect(page.get_by_role("heading", name="Seizoensklassement")).to_be_visible()
    table = page.locator("table.season")
    # Ten members, each with two counted evenings but Lid J (one evening: unranked, last).
    expect(table.locator("tbody tr")).to_have_count(10)
    expect(table.locator("tbody tr.unranked")).to_have_count(1)
    expect(table.locator("tbody tr").last).to_contain_text("Lid J")
    expect(table.locator("td.counted")).to_have_count(9 * 2 + 1)
    assert not page.evaluate(PAGE_SCROLLS_SIDEWAYS)
    box = page.locator(".scroll").first
    # The table fits its box, or scrolls inside it; its box stays within the screen.
    width = page.evaluate("() => document.documentElement.clientWidth")
    assert box.bounding_box()["x"] + box.bounding_box()["width"] <= width
    screenshot(page, f"season-standings-{size}")


def test_on_a_phone_the_names_stay_in_view_while_the_evenings_scroll(
    signed_in, live_server, screenshot
):
    page = signed_in
    page.set_viewport_size({"width": 390, "height": 844})
    competition = season_of(page.user)
    page.goto(live_server.url + reverse("competition_detail", args=[competition.slug]))
    box = page.locator(".scroll").first
    assert box.evaluate("b => b.scrollWidth > b.clientWidth")  # ten columns do not fit
    box.evaluate("b => { b.scrollLeft = b.scrollWidth; }")
    name = page.locator("table.season tbody tr").first.locator("td").nth(1)
    expect(name).to_have_text(re.compile(r"^Lid [A-J]$"))
    assert name.bounding_box()["x"] >= box.bounding_box()["x"]
    assert not page.evaluate(PAGE_SCROLLS_SIDEWAYS)
    screenshot(page, "season-standings-phone-scrolled")


# Whether an element's text lies on more than one line (a header broken inside a word).
WRAPS = """el => { const r = document.createRange(); r.selectNodeContents(el);
  const tops = new Set([...r.getClientRects()].map(c => Math.round(c.top)));
  return tops.size > 1; }"""


def _dated_public_season(user):
    competition = season_of(user)
    for number, tournament in enumerate(
        Tournament.objects.filter(competition_evenings__competition=competition).order_by(
            "competition_evenings__number"
        ),
        start=1,
    ):
        tournament.date = datetime.date(2026, 9, 7 * number)
        tournament.save()
    competition.public = True
    competition.save()
    return competition


def test_on_a_phone_place_name_points_and_evenings_stay_while_the_evenings_scroll_with_a_hint(
    signed_in, live_server, screenshot
):
    page = signed_in
    page.set_viewport_size({"width": 390, "height": 844})
    competition = _dated_public_season(page.user)
    page.context.clear_cookies()  # the public page, as a visitor sees it
    page.goto(live_server.url + reverse("public_season", args=[competition.slug]))
    hint = page.get_by_text("Schuif de tabel opzij voor de punten per avond")
    expect(hint).to_be_visible()
    box = page.get_by_role("region", name="Seizoensklassement")
    assert box.evaluate("b => b.scrollWidth > b.clientWidth")
    # What A1, A2, A3 are: the header's title and the legend below the table.
    first = page.locator("table.season thead th.evening abbr").first
    expect(first).to_have_text("A1")
    expect(first).to_have_attribute("title", "Avond 1, 7 sep 2026")
    legend = page.locator(".evening-legend")
    expect(legend).to_contain_text("A2")
    expect(legend).to_contain_text("Avond 2, 14 sep 2026 (Testtoernooi)")
    expect(page.locator("table.season th.rank abbr")).to_have_attribute("title", "Plaats")
    screenshot(page, "season-public-phone")

    edge = box.bounding_box()
    row = page.locator("table.season tbody tr").first
    kept = [row.locator(f"td.{name}") for name in ("rank", "name", "points", "played")]
    before = [cell.bounding_box()["x"] for cell in kept]
    box.evaluate("b => { b.scrollLeft = b.scrollWidth; }")
    # The first evening has slid in under the kept columns.
    played = row.locator("td.played").bounding_box()
    evening_one = row.locator("td.evening").first.bounding_box()
    assert evening_one["x"] + evening_one["width"] <= played["x"] + played["width"] + 1
    for cell, x in zip(kept, before, strict=True):
        assert cell.bounding_box()["x"] == pytest.approx(x, abs=1)  # not moved
        assert edge["x"] <= cell.bounding_box()["x"] < edge["x"] + edge["width"]
    expect(row.locator("td.name")).to_have_text(re.compile(r"^Lid [A-J]$"))
    for header in page.locator("table.season thead th").all():
        assert not header.evaluate(WRAPS), header.inner_text()
    assert not page.evaluate(PAGE_SCROLLS_SIDEWAYS)
    screenshot(page, "season-public-phone-scrolled")

    # On a laptop the whole table fits: no hint, the headers in full.
    page.set_viewport_size({"width": 1280, "height": 800})
    expect(hint).to_be_hidden()
    expect(page.get_by_role("columnheader", name="Punten", exact=True)).to_be_visible()
    expect(page.locator("table.season thead th.points abbr")).to_be_hidden()


def test_on_a_phone_the_member_list_headers_do_not_break_inside_a_word(signed_in, live_server):
    page = signed_in
    page.set_viewport_size({"width": 390, "height": 844})
    for name in NAMES:
        Member.objects.create(
            register=club_sole(),
            name=f"{name} Langenaam-Verhoeven",
            club="De Kaartclub",
            number=f"10{name[-1]}",
        )
    page.goto(live_server.url + reverse("member_list"))
    # ("Lidnummer" gives way to "Nr." on a phone.)
    for text in ("Nr.", "Actief", "Naam", "Club"):
        header = page.get_by_role("columnheader", name=text, exact=True)
        expect(header).to_be_visible()
        assert not header.evaluate(WRAPS), text
    assert not page.evaluate(PAGE_SCROLLS_SIDEWAYS)
