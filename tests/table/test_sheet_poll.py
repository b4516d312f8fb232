"""An idle sheet page asks whether the sheet was saved elsewhere: a small GET on the same address
(``?state``) with the tag it has, answered 304 in two queries while nothing changed."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import played_tournament
from tests.table.helpers import XHR, changed_cells, link_url, save_via_link
from tournament.models import Table
from tournament.sheets.table_links import table_link_issue

pytestmark = pytest.mark.django_db


@pytest.fixture
def link(director):
    tournament = played_tournament(8, 1, director=director)
    return table_link_issue(table=Table.objects.get(round__tournament=tournament, number=1))


def test_the_poll_answers_the_sheet_then_304_until_someone_saves(client, link):
    url = link_url(link) + "?state=1"
    first = client.get(url, **XHR)
    assert first.status_code == 200
    data = first.json()
    assert data["outcome"] == "state" and isinstance(data["version"], int)
    assert len(data["values"]) == 11 and len(data["totals"]) == 4 and data["status_text"]
    tag = first["ETag"]
    assert tag and "no-cache" in first["Cache-Control"]

    with CaptureQueriesContext(connection) as queries:
        same = client.get(url, HTTP_IF_NONE_MATCH=tag, **XHR)
    assert same.status_code == 304 and same["ETag"] == tag and not same.content
    assert len(queries) <= 2  # the link, and the sheet's tag

    saved = save_via_link(client, link, changed_cells(link.table)).json()
    moved = client.get(url, HTTP_IF_NONE_MATCH=tag, **XHR)
    assert moved.status_code == 200 and moved["ETag"] != tag
    assert moved.json()["version"] == saved["version"]
    assert moved.json()["values"] == saved["values"]


def test_the_directors_sheet_page_answers_the_same_poll(director_client, link):
    table = link.table
    url = reverse(
        "sheet_edit", args=[table.round.tournament.slug, table.round.number, table.number]
    )
    first = director_client.get(url + "?state=0", **XHR)
    assert first.status_code == 200 and first.json()["outcome"] == "state"
    again = director_client.get(url + "?state=0", HTTP_IF_NONE_MATCH=first["ETag"], **XHR)
    assert again.status_code == 304


def test_a_revoked_links_poll_finds_nothing(client, link):
    from tournament.sheets.table_links import table_link_revoke

    table_link_revoke(table=link.table)
    assert client.get(link_url(link) + "?state=1", **XHR).status_code == 404
