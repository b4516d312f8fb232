"""The venue afternoon in Chromium, as a director meets it: the first run prints a generated
password, the director signs in with it, invites a scorer with a one-time link, the scorer
joins from a phone with a password of their own and confirms a sheet by re-typing it.
"""

from __future__ import annotations

import io
import re

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext
from playwright.sync_api import expect

from tests.factories import played_tournament
from tournament.adapter import table_sheet
from tournament.models import SheetConfirmation, Table
from tournament.sheets.submission import SheetSubmission
from tournament.sheets.table_links import table_link_issue, table_link_sheet_record

pytestmark = pytest.mark.django_db(transaction=True)


def dutch(text: str) -> str:
    with translation.override("nl"):
        return gettext(text)


def first_run() -> tuple[str, str]:
    """What ``make run`` does for the account on a fresh checkout: the username and the
    password it prints once."""
    out = io.StringIO()
    call_command("ensure_director", stdout=out)
    printed = out.getvalue()
    username = re.search(r"gebruikersnaam:\s*(\S+)", printed)[1]
    password = re.search(r"wachtwoord:\s*(\S+)", printed)[1]
    return username, password


def test_a_director_alone_invites_a_scorer_who_confirms_by_retyping(
    page, phone, live_server, settings, screenshot
):
    settings.SITE_URL = live_server.url  # what phones open: here the live server itself
    username, password = first_run()
    tournament = played_tournament(8, 1, last_round=[11, 4])
    table = Table.objects.get(round__tournament=tournament, number=1)
    sheet = table_sheet(table).sheet
    paper = {
        (deal, seat): (entry.bids[seat], entry.tricks[seat])
        for deal, entry in enumerate(sheet.deals, start=1)
        for seat in range(sheet.n_seats)
    }
    # The table typed its sheet on its phone, without the penalty bollen the import had.
    table_link_sheet_record(
        link=table_link_issue(table=table),
        submission=SheetSubmission(cells=paper, penalties=[], base_version=0, idempotency_key=None),
    )

    # The director signs in with the printed password.
    page.goto(live_server.url + "/login/")
    page.get_by_label("Gebruikersnaam").fill(username)
    page.get_by_label("Wachtwoord").fill(password)
    page.get_by_role("button", name="Aanmelden").click()
    page.wait_for_url(live_server.url + "/")

    # ... and invites a scorer from the Team tab: the link is shown with its QR code.
    page.goto(live_server.url + reverse("team", args=[tournament.slug]))
    page.get_by_label(dutch("Role")).select_option("scorer")
    page.get_by_role("button", name=dutch("Make an invitation link")).click()
    invitation = page.locator("#invitation-url")
    expect(invitation).to_be_visible()
    expect(page.locator("img[src^='data:image/svg+xml']").first).to_be_visible()
    url = invitation.inner_text().strip()
    assert url.startswith(live_server.url + "/join/")
    screenshot(page, "venue-invitation")

    # The scorer scans it on a phone and chooses a username and password.
    phone.goto(url)
    phone.locator("input[name=username]").fill("teller")
    phone.locator("input[name=password1]").fill("schoppen-vrouw-2026")
    phone.locator("input[name=password2]").fill("schoppen-vrouw-2026")
    phone.get_by_role("button", name=dutch("Make my account and join")).click()
    phone.wait_for_url(re.compile(re.escape(f"/t/{tournament.slug}/")))
    assert tournament.scorers.filter(username="teller").exists()
    screenshot(phone, "venue-scorer-joined")

    # The same link does not work twice.
    second = phone.context.browser.new_page()
    response = second.goto(url)
    assert response.status == 410
    second.close()

    # The scorer re-types the paper sheet on the round page and the sheet is confirmed.
    phone.goto(live_server.url + reverse("round_detail", args=[tournament.slug, 1]))
    expect(phone.get_by_role("button", name=dutch("Seat round 2"))).to_have_count(0)
    phone.locator('[data-table-card="1"]').get_by_role(
        "link", name=dutch("Re-type to confirm")
    ).click()
    # On a phone re-typing goes deal by deal (its taps: tests/browser/test_table_entry.py);
    # here the boxes behind the taps are set as a tap sets them.
    expect(phone.locator("#phone-sheet")).to_be_visible()
    phone.evaluate(
        """(cells) => cells.forEach(([deal, seat, kind, value]) => {
            const input = document.querySelector(
                `input.box[data-deal="${deal}"][data-seat="${seat}"][data-kind="${kind}"]`);
            input.value = String(value);
            input.dispatchEvent(new Event("input", {bubbles: true}));
        })""",
        [
            [deal, seat, kind, value]
            for (deal, seat), pair in paper.items()
            for kind, value in zip(("bid", "tricks"), pair, strict=True)
        ],
    )
    phone.get_by_role("button", name=dutch("Compare with the stored sheet")).click()
    expect(phone.locator('[data-table-card="1"] .sheet-review')).to_have_attribute(
        "data-confirmed", "yes"
    )
    confirmation = SheetConfirmation.objects.get()
    assert (confirmation.user.username, confirmation.method) == ("teller", "retype")
    screenshot(phone, "venue-scorer-confirmed")
