"""The director closes a round: every table link of it shows the sheet and saves nothing, until
the director reopens it. Closing a round with an unfinished sheet needs "close anyway". The
pages speak Dutch, the site's default."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import played_tournament
from tests.sheets.helpers import stored_cells
from tests.table.helpers import changed_cells, link_url, save_via_link
from tournament.models import Round, SheetVersion, Table
from tournament.sheets.table_links import LinkRefusal, table_link_issue

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(director):
    """One round of 8 players, both tables complete, table 1 with its link."""
    tournament = played_tournament(8, 1, director=director)
    table = Table.objects.select_related("round").get(round__tournament=tournament, number=1)
    return tournament, table, table_link_issue(table=table, by_user=director)


def _url(name, tournament, number=1):
    return reverse(name, args=[tournament.slug, number])


def _versions(table):
    return list(SheetVersion.objects.filter(table=table).values_list("pk", "number"))


def test_a_closed_round_makes_its_links_read_only_and_reopening_undoes_it(
    director_client, client, finished
):
    tournament, table, link = finished
    assert save_via_link(client, link, changed_cells(table)).status_code == 200

    response = director_client.post(_url("round_close", tournament), follow=True)
    assert response.status_code == 200
    assert "Ronde 1 is gesloten" in response.content.decode()
    assert Round.objects.get(tournament=tournament, number=1).closed_at is not None
    assert 'id="round-closed-note"' in response.content.decode()
    assert '<h2 id="round-close-title">Ronde gesloten</h2>' in response.content.decode()

    page = client.get(link_url(link)).content.decode()
    assert '<fieldset class="sheet-fields" disabled>' in page
    assert "De wedstrijdleiding heeft deze ronde gesloten" in page
    assert "sheet.js" not in page
    before, cells = _versions(table), stored_cells(table)
    refused = save_via_link(client, link, changed_cells(table, deal=10))
    assert refused.status_code == 409
    assert refused.json()["message"] == str(LinkRefusal.CLOSED_BY_DIRECTOR.label)
    assert (_versions(table), stored_cells(table)) == (before, cells)

    # The director's own sheet page still saves.
    sheet = director_client.get(
        reverse("sheet_edit", args=[tournament.slug, 1, table.number])
    ).content.decode()
    assert 'sheet-fields" disabled' not in sheet

    response = director_client.post(_url("round_reopen", tournament), follow=True)
    assert "Ronde 1 is weer open" in response.content.decode()
    assert Round.objects.get(tournament=tournament, number=1).closed_at is None
    assert save_via_link(client, link, changed_cells(table, deal=10)).status_code == 200
    assert len(_versions(table)) == len(before) + 1


def test_an_unfinished_sheet_refuses_the_close_unless_the_director_closes_anyway(
    director_client, client, tournament, link
):
    # tests/hostile/conftest.py: table 2 has played 3 deals of 11.
    round_ = Round.objects.get(tournament=tournament, number=1)
    page = director_client.get(_url("round_detail", tournament)).content.decode()
    assert "Het formulier van tafel 2 is niet compleet." in page
    assert 'name="confirm"' in page

    response = director_client.post(_url("round_close", tournament), follow=True)
    assert "Niet gesloten: het formulier van tafel 2 is niet compleet." in response.content.decode()
    round_.refresh_from_db()
    assert round_.closed_at is None

    director_client.post(_url("round_close", tournament), {"confirm": "1"})
    round_.refresh_from_db()
    assert round_.closed_at is not None
    unfinished = Table.objects.get(round=round_, number=2)
    other = table_link_issue(table=unfinished)
    assert client.get(link_url(other)).status_code == 200
    before = _versions(unfinished)
    cells = stored_cells(unfinished) | {(4, 0): (1, None)}
    response = save_via_link(client, other, cells)
    assert response.status_code == 409
    assert _versions(unfinished) == before


def test_only_a_director_closes(client, finished, django_user_model):
    tournament, _table, _link = finished
    assert client.post(_url("round_close", tournament)).status_code == 302  # to sign in
    scorer = django_user_model.objects.create_user(username="anna", password="y" * 12)
    tournament.scorers.add(scorer)
    client.force_login(scorer)
    assert client.post(_url("round_close", tournament)).status_code in (403, 404)
    assert Round.objects.get(tournament=tournament, number=1).closed_at is None
    page = client.get(_url("round_detail", tournament)).content.decode()
    assert 'id="round-close"' not in page


def test_a_get_does_not_close(director_client, finished):
    tournament, _table, _link = finished
    assert director_client.get(_url("round_close", tournament)).status_code == 405
    assert Round.objects.get(tournament=tournament, number=1).closed_at is None


def test_a_draft_round_cannot_be_closed(director_client, finished):
    tournament, _table, _link = finished
    director_client.post(reverse("round_seat", args=[tournament.slug]))
    draft = Round.objects.get(tournament=tournament, number=2)
    assert draft.state == Round.State.DRAFT
    response = director_client.post(_url("round_close", tournament, 2), follow=True)
    assert "er is niets te sluiten" in response.content.decode()
    draft.refresh_from_db()
    assert draft.closed_at is None
