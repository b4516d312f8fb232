"""A director photographs a round's paper sheet with a phone: the site fills the sheet, points
out every doubtful box with the photo zoomed onto it, and the checked sheet is saved with its
photo. (The photo reader is the test's stand-in: what is tested is the page.)"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.browser.conftest import SCREENSHOTS
from tests.factories import played_tournament
from tests.sheet_photos.fake_reader import (
    FakeReader,
    jpeg,
    page_jpeg,
    photo_waiting,
    reader_installed,
)
from tournament.clubs.services import club_sole
from tournament.models import ClubRole, SheetPhoto, SheetVersion, Table

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
    reader.planned[0] = type(reader.planned[0])(
        **{**reader.planned[0].__dict__, "page_jpeg": page_jpeg(4)}
    )
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


def test_the_photo_stands_beside_the_grid_on_a_wide_screen(page, live_server, director, screenshot):
    tournament = played_tournament(8, 1, last_round=[0, 3], director=director)
    table = Table.objects.get(round__tournament=tournament, number=2)
    photo_waiting(table, uncertain=[(5, 2, "bid")], by=director)
    sign_in(page, live_server)
    page.goto(live_server.url + reverse("sheet_edit", args=[tournament.slug, 1, 2]))
    page.locator('input.box[data-deal="5"][data-seat="2"][data-kind="bid"]').focus()
    grid = page.locator(".sheet-scroll").bounding_box()
    panel = page.locator("#photo-check").bounding_box()
    assert panel["x"] > grid["x"] + grid["width"] - 1  # beside it, not below
    screenshot(page, "photos-sheet-desktop")
