"""A director photographs a round's paper sheet with a phone: the site fills the sheet, points
out every doubtful box with the photo zoomed onto it, and the checked sheet is saved with its
photo. (The photo reader is the test's stand-in where what is tested is the page; the last
test reads a real photo of a printed sheet.)"""

from __future__ import annotations

import dataclasses
import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.browser.conftest import SCREENSHOTS
from tests.factories import played_tournament
from tests.photos.paper import photographed_sheet
from tests.sheet_photos.fake_reader import (
    FakeReader,
    jpeg,
    page_jpeg,
    photo_waiting,
    reader_installed,
)
from tournament.clubs.services import club_sole
from tournament.models import ClubRole, SheetPhoto, SheetVersion, Table
from tournament.sheets.table_links import table_link_issue

PASSWORD = "kaart-en-bol-2026"


@pytest.fixture
def director(django_user_model):
    user = django_user_model.objects.create_user(username="leiding", password=PASSWORD)
    ClubRole.objects.create(club=club_sole(), user=user, role=ClubRole.Role.ADMIN)
    return user


@pytest.fixture
def reader(monkeypatch) -> FakeReader:
    return reader_installed(monkeypatch)


def focused(page) -> list[str]:
    return page.evaluate(
        "() => ['deal', 'seat', 'kind'].map(k => document.activeElement.dataset[k])"
    )


def sign_in(page, live_server) -> None:
    page.goto(f"{live_server.url}/login/")
    page.get_by_label("Gebruikersnaam").fill("leiding")
    page.get_by_label("Wachtwoord").fill(PASSWORD)
    page.get_by_role("button", name="Aanmelden").click()
    page.wait_for_url(f"{live_server.url}/")


def test_a_sheet_photographed_on_a_phone_is_filled_checked_and_saved_with_its_photo(
    phone, live_server, director, reader, screenshot
):
    tournament = played_tournament(8, 1, last_round=[0, 3], director=director)
    table = Table.objects.get(round__tournament=tournament, number=1)
    reader.reads(table, uncertain=[(2, 1, "bid"), (7, 3, "tricks")])
    reader.planned[0] = dataclasses.replace(reader.planned[0], page_jpeg=page_jpeg(4))
    sign_in(phone, live_server)
    phone.goto(live_server.url + reverse("round_detail", args=[tournament.slug, 1]))
    phone.get_by_label("Foto's maken met de camera").set_input_files(
        {"name": "IMG_2041.jpg", "mimeType": "image/jpeg", "buffer": jpeg(1600, 1200)}
    )
    phone.get_by_role("button", name="Foto's lezen").click()
    result = phone.locator("#round-photos .photo-results li")
    expect(result).to_contain_text(
        "IMG_2041.jpg: tafel 1 ingevuld van de foto, 2 vakjes om na te kijken."
    )
    # The round page says at once which table's photo waits, without a reload.
    expect(phone.locator("#photos-waiting")).to_have_text(
        re.compile(r"1 formulier wacht op nakijken:\s+tafel 1")
    )
    expect(phone.locator("#table-1 .photo-waiting-note")).to_have_text("Foto wacht op nakijken")
    screenshot(phone, "photos-round-phone")
    assert not SheetVersion.objects.filter(table=table).exists()  # nothing counts yet

    result.get_by_role("link", name="Tafel 1 nakijken").click()
    check = phone.locator("#photo-check")
    expect(check).to_contain_text("2 vakjes om na te kijken")
    expect(phone.locator("#sync")).to_contain_text("Gelezen van een foto, nog niet opgeslagen")
    # The reading is in the boxes, the doubtful ones marked in words at the box.
    expect(
        phone.locator('input.box[data-deal="3"][data-seat="0"][data-kind="tricks"]')
    ).to_have_value("3")
    doubtful = phone.locator('input.box[data-photo="doubt"]')
    expect(doubtful).to_have_count(2)
    expect(phone.locator("#photo-why-2-1-bid")).to_have_text("? bod: cijfer onzeker")

    # "Next box to check" goes to each doubtful box in turn, the photo zoomed onto it.
    zoom = phone.locator("#photo-zoom")
    before = zoom.evaluate("e => e.style.backgroundPosition")
    phone.get_by_role("button", name="Volgend vakje om na te kijken").click()
    assert focused(phone) == ["2", "1", "bid"]
    phone.get_by_role("button", name="Volgend vakje om na te kijken").click()
    assert focused(phone) == ["7", "3", "tricks"]
    after = zoom.evaluate("e => e.style.backgroundPosition")
    assert after != before and re.match(r"-?[\d.]+px -?[\d.]+px", after)
    expect(zoom).to_have_attribute("aria-label", re.compile("De foto bij het vakje: .*spel 7"))
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= 390
    # What the phone shows while checking: the box, and the photo docked along the bottom.
    expect(check).to_have_class(re.compile("docked"))
    phone.screenshot(path=str(SCREENSHOTS / "photos-sheet-phone-view.png"))
    screenshot(phone, "photos-sheet-phone")

    phone.get_by_role("button", name="Nagekeken: formulier opslaan").click()
    expect(phone.locator("#sync")).to_have_attribute("data-state", "saved")
    expect(phone.locator("#photo-count")).to_have_text(
        "Opgeslagen: de foto is bewaard bij deze versie van het formulier."
    )
    photo = SheetPhoto.objects.get(table=table)
    assert photo.version is not None and photo.version.number == 1
    assert photo.version.user == director

    # The list of the round's photos: on a phone each photo's links are in view.
    phone.goto(live_server.url + reverse("round_photos", args=[tournament.slug, 1]))
    box = phone.get_by_role("link", name="foto", exact=True).bounding_box()
    assert box["x"] + box["width"] <= 390
    screenshot(phone, "photos-list-phone")


def test_the_photo_stands_beside_the_grid_on_a_wide_screen(page, live_server, director, screenshot):
    tournament = played_tournament(8, 1, last_round=[0, 3], director=director)
    table = Table.objects.get(round__tournament=tournament, number=1)
    photo_waiting(table, uncertain=[(5, 2, "bid")], by=director)
    sign_in(page, live_server)
    page.goto(live_server.url + reverse("round_detail", args=[tournament.slug, 1]))
    expect(page.locator("#table-1 .photo-waiting-note")).to_have_text("Foto wacht op nakijken")
    screenshot(page, "photos-round-desktop")
    page.goto(live_server.url + reverse("sheet_edit", args=[tournament.slug, 1, 1]))
    page.locator('input.box[data-deal="5"][data-seat="2"][data-kind="bid"]').focus()
    grid = page.locator(".sheet-scroll").bounding_box()
    panel = page.locator("#photo-check").bounding_box()
    assert panel["x"] > grid["x"] + grid["width"] - 1  # beside it, not below
    expect(page.locator("#photo-status")).to_have_text("gelezen van een foto, nog niet opgeslagen")
    screenshot(page, "photos-sheet-desktop")

    page.get_by_role("button", name="Nagekeken: formulier opslaan").click()
    expect(page.locator("#photo-check-title")).to_have_text(
        "Foto van het formulier: opgeslagen bij versie 1"
    )
    expect(page.locator("#photo-status")).to_have_count(0)
    screenshot(page, "photos-sheet-desktop-saved")

    # A photo of a table whose sheet was saved: where it differs, the box says what was saved.
    photo_waiting(Table.objects.get(round__tournament=tournament, number=2), by=director)
    page.goto(live_server.url + reverse("sheet_edit", args=[tournament.slug, 1, 2]))
    expect(page.locator(".photo-why").first).to_have_text(
        re.compile(r"^\? (bod|slagen): foto wijkt af, opgeslagen: \d$")
    )


DOCK_TOP = "document.querySelector('#photo-check .photo-zoom-figure').getBoundingClientRect().top"


def dock_overlap(page, box) -> float:
    """How many pixels of ``box`` the docked photo covers (0: the box is clear above it)."""
    return box.evaluate(f"b => Math.max(0, b.getBoundingClientRect().bottom - {DOCK_TOP})")


def test_checking_a_photo_on_a_phone_keeps_the_box_in_view_and_counts_what_was_checked(
    phone, live_server, director, screenshot
):
    tournament = played_tournament(8, 1, last_round=[0, 3], director=director)
    table = Table.objects.get(round__tournament=tournament, number=1)
    photo_waiting(table, uncertain=[(2, 1, "bid"), (6, 3, "tricks"), (9, 2, "bid")], by=director)
    sign_in(phone, live_server)
    phone.goto(live_server.url + reverse("sheet_edit", args=[tournament.slug, 1, 1]))
    expect(phone.locator("#sheet-form")).to_have_attribute("data-ready", "1")
    check = phone.locator("#photo-check")

    # A box in the lower third of the screen, tapped: the photo docks along the bottom and
    # the page scrolls the box clear above it.
    low = phone.locator('input.box[data-deal="1"][data-seat="3"][data-kind="tricks"]')
    low.evaluate("b => window.scrollBy(0, b.getBoundingClientRect().top - 660)")
    assert low.bounding_box()["y"] > 600
    low.tap()
    expect(check).to_have_class(re.compile("docked"))
    phone.wait_for_function(
        f"() => document.activeElement.getBoundingClientRect().bottom <= {DOCK_TOP}"
    )
    assert dock_overlap(phone, low) == 0
    phone.screenshot(path=str(SCREENSHOTS / "photos-sheet-phone-checking.png"))

    # "Next" goes to the doubtful boxes in turn; a digit typed in one keeps the focus there,
    # and counts it as checked, as leaving it does.
    count = phone.locator("#photo-checked-count")
    expect(count).to_have_text("0 van 3 nagekeken")
    following = phone.get_by_role("button", name="Volgend vakje om na te kijken")
    following.click()
    assert focused(phone) == ["2", "1", "bid"]
    phone.keyboard.type("0")
    assert focused(phone) == ["2", "1", "bid"]  # not on to the next box in bidding order
    expect(count).to_have_text("1 van 3 nagekeken")
    expect(phone.locator("#photo-why-2-1-bid")).to_have_text("✓ bod: nagekeken")
    following.click()
    assert focused(phone) == ["6", "3", "tricks"]
    assert dock_overlap(phone, phone.locator(":focus")) == 0
    following.click()
    assert focused(phone) == ["9", "2", "bid"]
    expect(count).to_have_text("2 van 3 nagekeken")
    following.click()  # the last one left: all checked, on to the save button
    expect(phone.locator("#photo-done")).to_have_text(
        "Alle vakjes nagekeken: sla het formulier op."
    )
    save = phone.locator("#sheet-form .sheet-save button")
    expect(save).to_have_text("Nagekeken: formulier opslaan")
    expect(save).to_be_focused()

    # Saved: the page says so everywhere, and is a sheet page like any other again.
    save.click()
    expect(phone.locator("#sync")).to_have_text("Opgeslagen · versie 1")
    expect(phone.locator("#photo-check-title")).to_have_text(
        "Foto van het formulier: opgeslagen bij versie 1"
    )
    expect(check).not_to_contain_text("Er telt niets van mee")
    for gone in (
        "#photo-status",
        ".photo-why",
        "td.photo-marked",
        "input.box[data-photo]",
        ".photo-marks-list",
        "#photo-next",
        'input[name="photo"]',
    ):
        expect(phone.locator(gone)).to_have_count(0)
    expect(save).to_have_text("Opslaan")
    screenshot(phone, "photos-sheet-phone-saved")
    phone.locator('input.box[data-deal="2"][data-seat="1"][data-kind="bid"]').focus()
    expect(check).not_to_have_class(re.compile("docked"))
    phone.keyboard.type("0")
    assert focused(phone) != ["2", "1", "bid"]  # typing moves on again
    assert SheetPhoto.objects.get(table=table).version.number == 1


def test_a_table_sends_its_photo_near_the_top_and_reads_the_outcome_there(
    phone, live_server, reader, screenshot
):
    tournament = played_tournament(8, 1, last_round=[0, 3])
    table = Table.objects.get(round__tournament=tournament, number=1)
    link = table_link_issue(table=table, by_user=None)
    reader.reads(table, uncertain=[(1, 0, "bid")])
    phone.goto(live_server.url + reverse("table_entry", args=[link.token]))
    expect(phone.locator(".table-help")).to_contain_text("het wordt vanzelf opgeslagen")
    phone.get_by_text("Foto van het formulier sturen").click()
    assert phone.locator("#table-photo").bounding_box()["y"] < 844  # found without scrolling
    phone.get_by_label("Foto maken met de camera").set_input_files(
        {"name": "tafel1.jpg", "mimeType": "image/jpeg", "buffer": jpeg(1600, 1200)}
    )
    phone.get_by_role("button", name="Foto lezen").click()
    outcome = phone.locator("#photo-outcome")
    expect(outcome).to_have_text(
        "✓ tafel1.jpg: tafel 1 ingevuld van de foto, 1 vakje om na te kijken."
    )
    assert phone.evaluate("() => window.scrollY") == 0
    expect(phone.locator("#photo-help")).to_contain_text(
        "Gelezen van een foto: kijk de gemarkeerde"
    )
    expect(phone.locator("#typing-help")).to_be_hidden()
    screenshot(phone, "photos-table-link-phone")


def test_a_real_photo_of_a_printed_sheet_uploaded_on_a_phone_fills_its_sheet(
    phone, live_server, director
):
    """No stand-in: the round's sheet printed, written by hand, photographed at an angle and
    read by the site's own reader."""
    tournament = played_tournament(8, 1, last_round=[0, 0], director=director)
    data, _ = photographed_sheet(tournament, 1, 2, kind="tilt")
    sign_in(phone, live_server)
    phone.goto(live_server.url + reverse("round_detail", args=[tournament.slug, 1]))
    phone.get_by_label("of kies foto's (bestanden)").set_input_files(
        {"name": "tafel2.jpg", "mimeType": "image/jpeg", "buffer": data}
    )
    phone.get_by_role("button", name="Foto's lezen").click()
    result = phone.locator("#round-photos .photo-results li")
    # A real reading: a second on this machine, more while CI runs other tests beside it.
    expect(result).to_contain_text("tafel2.jpg: tafel 2 ingevuld van de foto", timeout=30_000)
    photo = SheetPhoto.objects.get(table__round__tournament=tournament, table__number=2)
    assert not SheetVersion.objects.filter(table=photo.table, number__gte=1).exists()

    result.get_by_role("link", name="Tafel 2 nakijken").click()
    doubtful = len(photo.reading["uncertain"])
    expect(phone.locator('input.box[data-photo="doubt"]')).to_have_count(doubtful)
    zoom = phone.locator("#photo-zoom")
    expect(zoom).to_have_css("background-image", re.compile(r"url\(.*page\.jpg"))
    # Measured once the stylesheets are in: the link's click waits for the new page's HTML only.
    phone.wait_for_load_state("load")
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= 390
