"""The director sees, before printing, that the QR codes would point at the laptop's own name,
and fixes it from the warning in two clicks."""

from __future__ import annotations

from urllib.parse import urlsplit

from django.urls import reverse
from playwright.sync_api import expect

from tests.factories import played_tournament
from tournament.models import Club
from tournament.venue import network

LAPTOP = "192.168.1.20"


def test_the_director_fixes_the_address_from_the_print_pages_warning(
    signed_in, live_server, settings, monkeypatch, screenshot
):
    monkeypatch.setattr(network, "primary_address", lambda: LAPTOP)
    monkeypatch.setattr(network, "machine_addresses", lambda: [LAPTOP])
    monkeypatch.setattr(network, "machine_names", lambda: ["clublaptop", "clublaptop.local"])
    settings.SITE_URL = ""
    port = urlsplit(live_server.url).port
    tournament = played_tournament(8, rounds=1, director=signed_in.user)
    # What a careless change said: the laptop's name for itself.
    Club.objects.filter(pk=tournament.club_id).update(site_url=live_server.url)
    page = signed_in

    page.goto(live_server.url + reverse("print_index", args=[tournament.slug]))
    warning = page.locator("#site-address-warning")
    assert "Telefoons kunnen deze links nog niet openen." in warning.inner_text()
    assert f"http://{LAPTOP}:{port}" in warning.inner_text()
    screenshot(page, "print-page-address-warning")

    warning.get_by_role("link", name="Adres voor telefoons wijzigen").click()
    page.get_by_role("button", name=f"http://{LAPTOP}:{port} gebruiken").click()
    # The address page again, as the post answered it (before that, the old address is shown).
    expect(page.get_by_role("status")).to_contain_text(
        f"Telefoons openen nu http://{LAPTOP}:{port}."
    )
    # Changed, and not yet opened from a phone: the page says how to test it.
    expect(page.locator("#site-address-untested")).to_contain_text("nog niet getest")
    expect(page.locator("#site-address-test-url")).to_contain_text(f"http://{LAPTOP}:{port}/test/")
    expect(page.locator("#site-address-url")).to_have_text(f"http://{LAPTOP}:{port}")
    expect(page.locator("#site-address-warning")).to_have_count(0)
    screenshot(page, "site-address-page")
    assert Club.objects.get(pk=tournament.club_id).site_url == f"http://{LAPTOP}:{port}"

    page.goto(live_server.url + reverse("print_index", args=[tournament.slug]))
    assert page.locator("#site-address-warning").count() == 0
    assert f"http://{LAPTOP}:{port}" in page.locator("#print-site-address").inner_text()
