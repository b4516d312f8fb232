"""Hostile saves through a table link: every one refused with a 4xx and a message, nothing
stored."""

from __future__ import annotations

import uuid

import pytest
from django.urls import reverse

from tests.factories import played_tournament
from tests.sheets.helpers import form_data, stored_cells
from tests.table.helpers import XHR, changed_cells, clashing_cells, link_url, save_via_link
from tournament.models import SheetVersion, Table
from tournament.sheets.forms import VERSION_MAX
from tournament.sheets.services import CONFLICTS_MAX
from tournament.sheets.submission import SheetRefusal
from tournament.sheets.table_links import LinkRefusal, table_link_issue

pytestmark = pytest.mark.django_db


def _versions(table: Table) -> list[tuple]:
    return list(SheetVersion.objects.filter(table=table).values_list("pk", "number", "cells"))


def _post(client, link, data):
    return client.post(link_url(link), data, **XHR)


@pytest.mark.parametrize("count", ["1000000", "2000", "68"])
def test_a_huge_penalty_form_count_is_refused_as_malformed(client, link, table, count):
    before = _versions(table)
    data = form_data(4, changed_cells(table), base_version=0)
    data["penalty-TOTAL_FORMS"] = count
    response = _post(client, link, data)
    assert response.status_code == 400
    assert response.json() == {
        "outcome": "refused",
        "message": str(SheetRefusal.MALFORMED.label),
    }
    assert len(response.content) < 1000
    assert _versions(table) == before


@pytest.mark.parametrize("count", ["0", "1", "-5", "abc", "", "45", "1000000"])
def test_a_wrong_box_count_is_refused_not_a_server_error(client, link, table, count):
    before = _versions(table)
    data = form_data(4, changed_cells(table), base_version=0)
    data["cell-TOTAL_FORMS"] = count
    for answer in (_post(client, link, data), client.post(link_url(link), data)):
        assert answer.status_code in (302, 400)
    assert _post(client, link, data).json()["message"] == str(SheetRefusal.MALFORMED.label)
    assert _versions(table) == before


def test_a_wrong_box_count_on_the_directors_page_is_a_400_with_the_page(director_client, table):
    data = form_data(4, changed_cells(table), base_version=0)
    data["cell-TOTAL_FORMS"] = "1"
    url = reverse("sheet_edit", args=[table.round.tournament.slug, 1, 1])
    response = director_client.post(url, data)
    assert response.status_code == 400
    assert str(SheetRefusal.MALFORMED.label) in response.content.decode()


@pytest.mark.parametrize("base", [str(10**30), str(2**32), str(VERSION_MAX + 1), "-1", "1e3"])
def test_an_impossible_base_version_is_refused(client, link, table, base):
    before = _versions(table)
    data = form_data(4, changed_cells(table))
    data["base_version"] = base
    response = _post(client, link, data)
    assert response.status_code == 422
    assert response.json()["outcome"] == "problems"
    assert _versions(table) == before


def test_a_base_version_beyond_the_sheets_is_refused_without_a_conflict_record(client, link, table):
    before = _versions(table)
    response = save_via_link(client, link, changed_cells(table), base=VERSION_MAX)
    assert response.status_code == 409
    assert response.json()["message"] == str(SheetRefusal.UNKNOWN_VERSION.label)
    assert _versions(table) == before


def test_stale_saves_keep_at_most_a_fixed_number_of_conflict_records(client, link, table):
    theirs, stale = clashing_cells(table)
    assert save_via_link(client, link, theirs, base=0).status_code == 200
    SheetVersion.objects.bulk_create(
        SheetVersion(table=table, number=None, base_number=0, idempotency_key=uuid.uuid4())
        for _ in range(CONFLICTS_MAX)
    )
    before = _versions(table)
    response = save_via_link(client, link, stale, base=0)
    assert response.status_code == 409
    assert response.json()["message"] == str(SheetRefusal.TOO_MANY_CONFLICTS.label)
    assert _versions(table) == before


def test_a_key_reused_with_other_content_is_refused(client, link, table):
    key = uuid.uuid4()
    first = changed_cells(table)
    assert save_via_link(client, link, first, key=key, base=0).status_code == 200
    before, cells = _versions(table), stored_cells(table)
    response = save_via_link(client, link, changed_cells(table, deal=10), key=key, base=1)
    assert response.status_code == 409
    assert response.json()["message"] == str(SheetRefusal.KEY_REUSED.label)
    assert _versions(table) == before
    assert stored_cells(table) == cells
    retry = save_via_link(client, link, first, key=key, base=0)
    assert retry.status_code == 200
    assert retry.json()["version"] == 1


def test_a_link_of_a_finished_round_is_read_only_once_the_next_round_is_seated(client, director):
    tournament = played_tournament(8, 2, director=director)
    table = Table.objects.get(round__tournament=tournament, round__number=1, number=1)
    link = table_link_issue(table=table, by_user=director)
    page = client.get(link_url(link)).content.decode()
    assert '<fieldset class="sheet-fields" disabled>' in page
    assert "sheet.js" not in page
    before = _versions(table)
    response = save_via_link(client, link, changed_cells(table), base=0)
    assert response.status_code == 409
    assert response.json()["message"] == str(LinkRefusal.ROUND_CLOSED.label)
    assert _versions(table) == before


def test_a_first_dealer_that_is_not_a_player_id_is_a_404(director_client, table):
    url = reverse(
        "table_first_dealer", args=[table.round.tournament.slug, table.round.number, table.number]
    )
    for value in ("abc", "-1", str(10**30), ""):
        assert director_client.post(url, {"player": value}).status_code == 404


def test_a_body_larger_than_any_request_is_refused_unread(client, settings):
    settings.REQUEST_MAX_BYTES = 1000
    response = client.post("/login/", data=b"x" * 2000, content_type="text/plain")
    assert response.status_code == 413
    assert "MB" in response.content.decode()


def test_every_page_carries_the_content_security_policy(client, link):
    for response in (client.get("/login/"), client.get(link_url(link))):
        policy = response["Content-Security-Policy"]
        assert "script-src 'self'" in policy
        assert "unsafe-inline" not in policy.split("script-src")[1].split(";")[0]
