"""The site's own pages run under its Content Security Policy without breaking it."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.factories import played_tournament
from tournament.models import Table
from tournament.sheets.table_links import table_link_issue

pytestmark = pytest.mark.django_db(transaction=True)

# Every violation the page reports, kept where the test can read it.
LISTEN = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__violations.push(event.violatedDirective + " " + event.blockedURI);
});
"""


def test_the_main_pages_report_no_policy_violation(signed_in, live_server):
    page = signed_in
    tournament = played_tournament(8, 2, last_round=[11, 3], director=page.user, public=True)
    table = Table.objects.get(round__tournament=tournament, round__number=2, number=2)
    link = table_link_issue(table=table, by_user=page.user)
    console = []
    page.on("console", lambda message: console.append(message.text))
    page.context.add_init_script(LISTEN)
    slug = tournament.slug
    paths = [
        "/",
        reverse("tournament_detail", args=[slug]),
        reverse("player_list", args=[slug]),
        reverse("round_detail", args=[slug, 2]),
        reverse("sheet_edit", args=[slug, 2, 2]),
        reverse("sheet_history", args=[slug, 2, 2]),
        reverse("standings", args=[slug]),
        reverse("print_sheets", args=[slug, 2]) + "?format=html",
        reverse("table_entry", args=[link.token]),
    ]
    for path in paths:
        response = page.goto(live_server.url + path)
        assert response.status == 200, path
        assert "script-src 'self'" in response.headers["content-security-policy"]
        page.wait_for_load_state("load")
        assert page.evaluate("window.__violations") == [], path
    # Typing on the sheet runs its script: still within the policy.
    page.goto(live_server.url + reverse("sheet_edit", args=[slug, 2, 2]))
    page.locator('input[data-deal="4"][data-kind="bid"]').first.fill("1")
    # ... and its save a moment later, whose answer redraws the sheet: checked once it is in.
    expect(page.locator("#sync")).to_have_attribute("data-state", re.compile(r"^(saved|held)$"))
    assert page.evaluate("window.__violations") == []
    assert not [text for text in console if "Content Security Policy" in text]
    # The listener does hear a violation: an inline handler is refused and reported.
    page.evaluate(
        """() => {
          const button = document.createElement("button");
          button.setAttribute("onclick", "void 0");
          document.body.append(button);
          button.click();
        }"""
    )
    page.wait_for_function("window.__violations.length > 0")
