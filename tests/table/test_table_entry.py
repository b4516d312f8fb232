"""A table's private link: it opens that table's sheet in that round, and nothing else."""

from __future__ import annotations

import re
import string
import uuid

import pytest
from django.db import IntegrityError
from django.test import Client
from django.urls import resolve, reverse

from tests.sheets.helpers import form_data, names, stored_cells
from tests.table.helpers import XHR, changed_cells, clashing_cells, link_url, save_via_link
from tournament.models import SheetConfirmation, SheetVersion, TableLink
from tournament.sheets.confirmations import sheet_confirm
from tournament.sheets.table_links import (
    LinkRefusal,
    table_link_active,
    table_link_issue,
    table_link_revoke,
)

pytestmark = pytest.mark.django_db


def test_a_link_carries_256_random_bits_and_opens_the_table_entry_page(link, director, table):
    other = table_link_issue(table=table, by_user=director)
    for token in (link.token, other.token):
        assert len(token) == 43  # 32 bytes in URL-safe base64, no padding
        assert set(token) <= set(string.ascii_letters + string.digits + "-_")
        assert resolve(link_url(other)).url_name == "table_entry"
    assert link.token != other.token


def test_a_table_has_at_most_one_working_link(link, table):
    with pytest.raises(IntegrityError):
        TableLink.objects.create(table=table, token="another-token-for-the-same-table")


def test_the_link_page_shows_its_own_table_and_no_director_page(client, link, table, other_table):
    response = client.get(link_url(link))
    assert response.status_code == 200
    assert response.context["table"] == table
    page = response.content.decode()
    for name in names(table):
        assert f'<th scope="row" class="name">{name}</th>' in page
    for name in names(other_table):
        assert name not in page
    assert 'href="/t/' not in page  # no way from here into the director's pages
    assert reverse("sheet_history", args=[table.round.tournament.slug, 1, 1]) not in page
    assert 'name="viewport"' in page
    assert "no-store" in response["Cache-Control"]
    assert response["X-Robots-Tag"] == "noindex, nofollow"
    assert response["Referrer-Policy"] == "same-origin"


def test_a_save_through_the_link_is_stored_as_a_table_link_version(client, link, other_table):
    table = other_table
    other = table_link_issue(table=table, by_user=None)
    cells = {**stored_cells(table), (4, 1): (1, None)}
    response = save_via_link(client, other, cells)
    assert response.status_code == 200
    assert response.json()["outcome"] == "saved"
    assert stored_cells(table) == cells
    version = SheetVersion.objects.get(table=table, number=1)
    assert version.via == SheetVersion.Via.TABLE_LINK
    assert version.user is None
    assert version.ip == "127.0.0.1"


def test_each_link_changes_only_its_own_table(client, link, other_link, table, other_table):
    before = stored_cells(other_table)
    assert save_via_link(client, link, changed_cells(table)).status_code == 200
    assert stored_cells(other_table) == before
    assert not SheetVersion.objects.filter(table=other_table, number__gt=0).exists()

    cells = {**before, (4, 1): (1, None)}
    assert save_via_link(client, other_link, cells).status_code == 200
    assert stored_cells(other_table) == cells
    assert SheetVersion.objects.filter(table=table).count() == 2  # version 0 (import) and 1


def test_a_made_up_or_revoked_link_is_not_found(client, link, table, director):
    assert client.get(reverse("table_entry", args=["x" * 43])).status_code == 404
    old = link_url(link)
    new = table_link_issue(table=table, by_user=director)
    assert client.get(old).status_code == 404
    assert client.get(link_url(new)).status_code == 200
    assert table_link_revoke(table=table)
    assert client.get(link_url(new)).status_code == 404
    assert table_link_active(table) is None


def test_a_save_sent_after_the_link_was_revoked_is_refused_and_stores_nothing(client, link, table):
    client.get(link_url(link))  # the phone has the page open ...
    table_link_revoke(table=table)  # ... when the director revokes the link
    response = save_via_link(client, link, changed_cells(table))
    assert response.status_code == 404
    assert response.json() == {
        "outcome": "refused",
        "message": str(LinkRefusal.REVOKED.label),
    }
    assert not SheetVersion.objects.filter(table=table, number__gt=0).exists()


def test_a_submission_sent_twice_through_the_link_is_stored_once(client, link, table):
    key = uuid.uuid4()
    cells = changed_cells(table)
    first = save_via_link(client, link, cells, key=key, base=0)
    again = save_via_link(client, link, cells, key=key, base=0)
    assert first.json()["version"] == again.json()["version"] == 1
    assert (first.json()["created"], again.json()["created"]) == (True, False)
    assert SheetVersion.objects.filter(table=table, number__gte=1).count() == 1


def test_a_stale_save_through_the_link_is_a_conflict_and_kept(client, link, table):
    theirs, stale = clashing_cells(table)  # typed on a phone that had not seen version 1
    assert save_via_link(client, link, theirs).status_code == 200
    response = save_via_link(client, link, stale, base=0)
    assert response.status_code == 409
    assert response.json()["outcome"] == "conflict"
    assert 'data-action="take-theirs"' in response.json()["html"]  # a plain choice per box
    kept = SheetVersion.objects.get(table=table, number__isnull=True)
    assert kept.via == SheetVersion.Via.TABLE_LINK


def test_a_plain_form_save_through_the_link_redirects_back(client, link, other_table):
    other = table_link_issue(table=other_table, by_user=None)
    cells = {**stored_cells(other_table), (4, 1): (1, None)}
    data = form_data(4, cells, [], base_version=0)
    response = client.post(link_url(other), data)
    assert response.status_code == 302
    assert response["Location"] == link_url(other)
    assert stored_cells(other_table) == cells


def test_once_confirmed_the_link_shows_the_sheet_read_only_and_saves_nothing(
    client, saved_at_table, link, director
):
    table = saved_at_table
    sheet_confirm(table=table, version=1, by_user=director)
    page = client.get(link_url(link)).content.decode()
    assert re.search(r'<fieldset class="sheet-fields" disabled>', page)
    assert "sheet.js" not in page
    response = save_via_link(client, link, changed_cells(table, deal=10))
    assert response.status_code == 409
    assert response.json()["message"] == str(LinkRefusal.CONFIRMED.label)
    plain = client.post(link_url(link), form_data(4, changed_cells(table), base_version=1))
    assert plain.status_code == 302
    assert plain["Location"] == link_url(link)
    assert SheetVersion.objects.filter(table=table, number__isnull=False).count() == 2
    assert SheetConfirmation.objects.get().version.number == 1


def test_a_retry_of_a_save_made_before_the_confirmation_still_gets_its_answer(
    client, link, table, director
):
    key = uuid.uuid4()
    cells = changed_cells(table)
    assert save_via_link(client, link, cells, key=key, base=0).status_code == 200
    sheet_confirm(table=table, version=1, by_user=director)
    retry = save_via_link(client, link, cells, key=key, base=0)  # the answer had been lost
    assert retry.status_code == 200
    assert retry.json()["version"] == 1


def test_a_director_who_saves_through_the_link_is_recorded(director_client, director, link, table):
    assert save_via_link(director_client, link, changed_cells(table)).status_code == 200
    version = SheetVersion.objects.get(table=table, number=1)
    assert (version.via, version.user) == (SheetVersion.Via.TABLE_LINK, director)


def test_the_link_page_answers_a_script_on_an_unknown_link_with_the_reason(client):
    response = client.post(reverse("table_entry", args=["y" * 43]), {}, **XHR)
    assert response.status_code == 404
    assert response.json()["outcome"] == "refused"


def test_a_conflict_through_the_link_does_not_name_the_directors_account(
    director_client, director, link, table
):
    theirs, stale = clashing_cells(table)
    data = form_data(4, theirs, [], base_version=0)
    edit = reverse("sheet_edit", args=[table.round.tournament.slug, 1, 1])
    assert director_client.post(edit, data).status_code == 302  # version 1, by the director
    phone = Client()  # still on version 0
    response = save_via_link(phone, link, stale, base=0)
    assert response.status_code == 409
    assert director.get_username() not in response.json()["html"]
