"""A draft round's sheet (its seating not published yet): the director's page and the table's
link say so before anything is typed and offer no box to type in, and a save sent anyway is
refused with the server's own reason, never "see the marked boxes" with nothing marked."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import played_tournament
from tests.sheets.helpers import DEAL_1, form_data
from tests.table.helpers import XHR, link_url
from tournament.models import SheetVersion, Table
from tournament.rounds.seating import round_publish, round_seat
from tournament.sheets.table_links import LinkRefusal, table_link_issue

pytestmark = pytest.mark.django_db

DRAFT_REASON = "Ronde 1 is nog niet bekendgemaakt"


@pytest.fixture
def draft_table(director) -> Table:
    """Table 1 of round 1, seated and not published."""
    round_, _note = round_seat(tournament=played_tournament(8, rounds=0, director=director))
    return Table.objects.select_related("round__tournament").get(round=round_, number=1)


def sheet_url(table: Table) -> str:
    return reverse("sheet_edit", args=[table.round.tournament.slug, 1, table.number])


def assert_read_only(page: str) -> None:
    assert '<fieldset class="sheet-fields" disabled>' in page
    assert 'type="submit" class="primary"' not in page  # no Save button


def test_the_directors_sheet_of_a_draft_round_says_so_with_no_box_to_type_in(
    director_client, draft_table
):
    response = director_client.get(sheet_url(draft_table))
    assert response.status_code == 200
    page = response.content.decode()
    assert "Deze ronde is nog niet bekendgemaakt" in page
    assert reverse("round_detail", args=[draft_table.round.tournament.slug, 1]) in page
    assert_read_only(page)


def test_a_save_on_a_draft_round_is_refused_with_the_servers_reason(director_client, draft_table):
    data = form_data(4, DEAL_1, [], base_version=0)
    sent = director_client.post(sheet_url(draft_table), data, **XHR)
    assert sent.status_code == 409
    assert sent.json()["outcome"] == "refused"
    assert sent.json()["message"].startswith(DRAFT_REASON)

    plain = director_client.post(sheet_url(draft_table), form_data(4, DEAL_1, [], base_version=0))
    assert plain.status_code == 409
    assert any(str(m).startswith(DRAFT_REASON) for m in plain.context["messages"])
    assert_read_only(plain.content.decode())
    assert not SheetVersion.objects.filter(table=draft_table).exists()


def test_a_tables_link_to_a_draft_round_says_so_saves_nothing_and_opens_once_published(
    client, director, draft_table
):
    link = table_link_issue(table=draft_table, by_user=director)
    response = client.get(link_url(link))
    assert response.context["round_closed"] == LinkRefusal.ROUND_DRAFT
    page = response.content.decode()
    assert "Deze ronde is nog niet bekendgemaakt" in page
    assert_read_only(page)
    assert "sheet_phone.js" not in page

    sent = client.post(link_url(link), form_data(4, DEAL_1, [], base_version=0), **XHR)
    assert sent.status_code == 409
    assert sent.json() == {"outcome": "refused", "message": str(LinkRefusal.ROUND_DRAFT.label)}
    assert not SheetVersion.objects.filter(table=draft_table).exists()

    round_publish(round_=draft_table.round)
    opened = client.get(link_url(link))
    assert opened.context["mode"] == "edit"
    assert "sheet_phone.js" in opened.content.decode()
