"""Browser tests: Playwright driving Debian's Chromium against Django's live server.

Playwright cannot download its own browsers here, so it launches /usr/bin/chromium (or
CHROMIUM_PATH). Screenshots of the pages go to test-artifacts/screenshots/.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "test-artifacts" / "screenshots"
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    # Every new context (window) of this Chromium starts two renderers for the address bar's
    # suggestion popups, which a headless browser never shows: 0.2 CPU-seconds of a new
    # context's 0.5. (Chromium merges this list with Playwright's own --disable-features.)
    "--disable-features=WebUIOmniboxPopup,WebUIOmniboxFullPopup,WebUIOmniboxAimPopup",
]

# Playwright's sync API runs an event loop in this thread; Django's ORM calls made by the test
# itself (fixtures, assertions) are still synchronous and safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser/" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail(
            f"Chromium is not installed at {CHROMIUM}: run scripts/system-packages.sh browser "
            "(the README's test command does) or set CHROMIUM_PATH."
        )
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def context(browser):
    context = browser.new_context(locale="nl-NL", viewport={"width": 1280, "height": 900})
    context.set_default_timeout(10_000)
    yield context
    context.close()


@pytest.fixture
def page(context):
    return context.new_page()


def _phone_page(browser, width: int, height: int):
    context = browser.new_context(
        locale="nl-NL", viewport={"width": width, "height": height}, is_mobile=True, has_touch=True
    )
    context.set_default_timeout(10_000)
    yield context.new_page()
    context.close()


@pytest.fixture
def phone(browser):
    """A phone-sized page (table-side entry)."""
    yield from _phone_page(browser, 390, 844)


@pytest.fixture
def small_phone(browser):
    """The narrowest phone the site is made for: 360 by 740."""
    yield from _phone_page(browser, 360, 740)


@pytest.fixture
def screenshot():
    """Save a full-page screenshot as a test artefact: ``screenshot(page, "name")``."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def take(page, name: str) -> Path:
        path = SCREENSHOTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take


@pytest.fixture
def signed_in(page, live_server, django_user_model):
    """A page signed in as a fresh director (superuser-free account), the club's admin."""
    from tournament.clubs.services import club_sole
    from tournament.models import ClubRole

    user = django_user_model.objects.create_user(username="leiding", password="kaart-en-bol-2026")
    # The laptop's director: the admin of its one club.
    ClubRole.objects.create(club=club_sole(), user=user, role=ClubRole.Role.ADMIN)
    page.goto(f"{live_server.url}/login/")
    page.get_by_label("Gebruikersnaam").fill("leiding")
    page.get_by_label("Wachtwoord").fill("kaart-en-bol-2026")
    page.get_by_role("button", name="Aanmelden").click()
    page.wait_for_url(f"{live_server.url}/")
    page.user = user
    return page
