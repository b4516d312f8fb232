"""The confirmation rule never changes unseen: the team page and the confirm pages say which rule
is in force and why, and a director whose "automatic" rule turned into "another person" when a
scorer joined is never stuck: one press lets re-typing confirm, and they confirm by re-typing."""

from __future__ import annotations

import html

import pytest
from django.urls import reverse
from django.utils import formats, timezone, translation

from tests.sheets.helpers import form_data, stored_cells, stored_penalties
from tests.table.helpers import changed_cells
from tournament.errors import refusal_message
from tournament.models import SheetConfirmation, Table, Tournament
from tournament.sheets.confirmations import ConfirmRefusal
from tournament.sheets.services import sheet_record
from tournament.sheets.submission import SheetSubmission
from tournament.team.services import team_invitation_create, team_join_new_account

pytestmark = pytest.mark.django_db

Rule = Tournament.ConfirmationRule


def url(name: str, table: Table) -> str:
    return reverse(name, args=[table.round.tournament.slug, table.round.number, table.number])


def page(client, address: str) -> str:
    response = client.get(address)
    assert response.status_code == 200
    return html.unescape(response.content.decode())


def rule_line(text: str) -> str:
    """The paragraph that says the rule in force (team page and confirm pages alike)."""
    start = text.index('class="rule-in-force"')
    return text[start : text.index("</p>", start)]


def test_a_scorer_joining_is_said_and_the_director_alone_keeps_a_way_to_confirm(
    director_client, director, table
):
    tournament = table.round.tournament
    team_url = reverse("team", args=[tournament.slug])
    sheet_record(
        table=table,
        submission=SheetSubmission(
            cells=changed_cells(table),
            penalties=stored_penalties(table),
            base_version=0,
            idempotency_key=None,
            by_user=director,
        ),
    )
    # Alone: automatic means re-typing, and every page says so.
    alone = "Automatisch: overtypen bevestigt."
    assert alone in rule_line(page(director_client, team_url))
    assert "Je werkt alleen" in rule_line(page(director_client, team_url))
    assert alone in rule_line(page(director_client, url("sheet_retype", table)))

    # A scorer joins with an invitation: automatic now asks another person, and says who and
    # when on the team page and on the confirm page.
    invitation = team_invitation_create(tournament=tournament, role="scorer", by_user=director)
    team_join_new_account(token=invitation.token, username="teller1", password="x-kaart-2026-t")
    invitation.invitation.refresh_from_db()
    with translation.override("nl"):
        joined_at = formats.date_format(
            timezone.localtime(invitation.invitation.used_at), "SHORT_DATETIME_FORMAT"
        )
    why = f"teller1 is op {joined_at} als teller aan het team toegevoegd"
    for address in (team_url, url("sheet_confirm", table), url("sheet_retype", table)):
        line = rule_line(page(director_client, address))
        assert "Automatisch: iemand anders bevestigt." in line, address
        assert why in line, address
    overview = page(director_client, reverse("tournament_detail", args=[tournament.slug]))
    card = overview[overview.index('id="confirmation-rule"') :]
    assert "Automatisch: iemand anders bevestigt." in card and why in card
    confirm = page(director_client, url("sheet_confirm", table))
    assert refusal_message(ConfirmRefusal.OWN_SHEET) in confirm
    assert 'name="version"' not in confirm  # nothing to press that would be refused
    # ... but a way out that says what it does, and leads back to this sheet.
    rule_url = reverse("team_confirmation_rule", args=[tournament.slug])
    assert f'action="{rule_url}"' in confirm
    assert f'name="next" value="{url("sheet_retype", table)}"' in confirm
    # That button is the one way offered: the reason points nowhere else (not to the settings,
    # not to the team page).
    review = confirm[confirm.index('class="card review"') : confirm.index("</section>")]
    assert "Instellingen" not in review
    assert "#confirmation-rule" not in review
    assert review.count("<form") == 1

    # One press: re-typing confirms in this tournament, chosen, so it no longer follows the team.
    response = director_client.post(
        reverse("team_confirmation_rule", args=[tournament.slug]),
        {"confirmation_rule": Rule.RETYPE, "next": url("sheet_retype", table)},
    )
    assert response.status_code == 302
    assert response["Location"] == url("sheet_retype", table)
    tournament.refresh_from_db()
    assert tournament.confirmation_rule == Rule.RETYPE
    line = rule_line(page(director_client, team_url))
    assert "Overtypen bevestigt." in line and "Gekozen voor dit toernooi" in line
    retyped = form_data(4, stored_cells(table), stored_penalties(table), base_version=1)
    assert director_client.post(url("sheet_retype", table), retyped).status_code == 302
    confirmation = SheetConfirmation.objects.get()
    assert (confirmation.user, confirmation.method) == (director, SheetConfirmation.Method.RETYPE)


def test_a_rule_that_is_not_one_or_a_foreign_return_address_changes_nothing(director_client, table):
    tournament = table.round.tournament
    address = reverse("team_confirmation_rule", args=[tournament.slug])
    team_page = reverse("team", args=[tournament.slug]) + "#confirmation-rule"
    response = director_client.post(address, {"confirmation_rule": "everyone"}, follow=True)
    assert response.redirect_chain[-1][0] == team_page
    assert "Kies hoe formulieren worden bevestigd." in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.confirmation_rule == Rule.AUTO

    response = director_client.post(
        address, {"confirmation_rule": Rule.OTHER_PERSON, "next": "https://example.org/"}
    )
    assert response["Location"] == team_page  # never off the site
    tournament.refresh_from_db()
    assert tournament.confirmation_rule == Rule.OTHER_PERSON
