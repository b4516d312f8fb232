"""Joining a team on the narrowest phone (360 px): a password that is too short opens the page at
the summary of what is wrong, and the mistake stands under the password, where it was typed.
Once joined and signed in, the header's links and buttons are targets of at least 24 by 24 px
(WCAG 2.2, 2.5.8), which axe's sweep lets pass at 23 px when they are far enough apart."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.factories import played_tournament
from tournament.team.services import team_invitation_create

pytestmark = pytest.mark.django_db(transaction=True)

HEADER_TARGETS = """() => [...document.querySelectorAll(".site-header a, .site-header button")]
  .map((e) => {
    const box = e.getBoundingClientRect();
    return {text: e.textContent.trim(), width: box.width, height: box.height};
  })"""


def test_a_short_password_is_shown_at_the_password_and_the_header_targets_are_24_px(
    small_phone, live_server, director
):
    page = small_phone
    tournament = played_tournament(8, 1, director=director)
    issued = team_invitation_create(tournament=tournament, role="scorer", by_user=director)
    page.goto(f"{live_server.url}/join/{issued.token}/")
    page.get_by_label("Gebruikersnaam").fill("teller")
    page.get_by_label("Wachtwoord", exact=True).fill("kort")
    page.get_by_label("Bevestiging wachtwoord").fill("kort")
    page.get_by_role("button", name="Maak mijn account en doe mee").click()

    summary = page.locator("#error-summary")
    expect(summary).to_be_focused()
    expect(summary).to_be_in_viewport()
    expect(page.locator(".field:has(#id_password1) .errorlist")).to_contain_text("te kort")
    expect(page.locator(".field:has(#id_password2) .errorlist")).to_have_count(0)
    summary.get_by_role("link", name="Wachtwoord").click()
    expect(page.locator("#id_password1")).to_be_in_viewport()

    page.get_by_label("Wachtwoord", exact=True).fill("kaart-tafel-2026")
    page.get_by_label("Bevestiging wachtwoord").fill("kaart-tafel-2026")
    page.get_by_role("button", name="Maak mijn account en doe mee").click()
    expect(page.get_by_role("button", name="Afmelden")).to_be_visible()
    targets = page.evaluate(HEADER_TARGETS)
    assert {"Wachtwoord wijzigen", "Afmelden", "NL", "EN"} <= {t["text"] for t in targets}
    assert [t for t in targets if t["width"] < 24 or t["height"] < 24] == []
