"""A request checks each sheet against the rules once: the page for the sheet it shows, a save
for the sheet it stores (its scores come from that same check), and the answer reuses both."""

from __future__ import annotations

import sys

import pytest
from django.urls import reverse

import scoring.checks
from scoring.deals import bidding_order
from tests.factories import played_tournament
from tests.sheets.helpers import form_data, stored_cells, stored_penalties
from tournament.models import Table

pytestmark = pytest.mark.django_db

XHR = {"HTTP_X_REQUESTED_WITH": "XMLHttpRequest", "HTTP_ACCEPT": "application/json"}


@pytest.fixture
def checks(monkeypatch):
    """Every call of ``scoring.check_sheet``, wherever it was imported: the sheets checked."""
    real, seen = scoring.checks.check_sheet, []

    def counting(sheet):
        seen.append(sheet)
        return real(sheet)

    for name, module in list(sys.modules.items()):
        if name.split(".")[0] in ("scoring", "tournament") and (
            getattr(module, "check_sheet", None) is real
        ):
            monkeypatch.setattr(module, "check_sheet", counting)
    return seen


@pytest.fixture
def table(director):
    tournament = played_tournament(8, 3, last_round=[3, 3], director=director)
    return Table.objects.select_related("round__tournament").get(
        round__tournament=tournament, round__number=3, number=1
    )


def url(table: Table) -> str:
    return reverse("sheet_edit", args=[table.round.tournament.slug, 3, 1])


def next_bids(table: Table, how_many: int):
    cells = stored_cells(table)
    for seat in bidding_order(4, 4)[:how_many]:
        cells[4, seat] = (0, None)
    return cells


def test_the_sheet_page_checks_its_sheet_once(director_client, table, checks):
    director_client.get(url(table))
    assert len(checks) == 1


def test_a_save_checks_the_sheet_it_stores_once(director_client, table, checks):
    data = form_data(4, next_bids(table, 2), stored_penalties(table))
    assert director_client.post(url(table), data).status_code == 302
    assert len(checks) == 1


def test_the_scripts_save_and_its_answer_check_the_sheet_once(director_client, table, checks):
    data = form_data(4, next_bids(table, 3), stored_penalties(table))
    response = director_client.post(url(table), data, **XHR)
    assert response.json()["outcome"] == "saved"
    assert len(checks) == 1


def test_a_save_that_holds_a_deal_back_checks_no_sheet_twice(director_client, table, checks):
    cells = stored_cells(table)
    for seat in bidding_order(4, 4):
        cells[4, seat] = (1, None)  # 4 cards, bids adding up to 4: the dealer may not
    response = director_client.post(url(table), form_data(4, cells, stored_penalties(table)), **XHR)
    assert response.json()["outcome"] == "saved" and response.json()["held"]
    # The submission, the tries of how much of it counts, and what is stored: each once.
    assert len(checks) == len(set(checks))
