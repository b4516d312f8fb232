"""The admin shows sheet data and seating but refuses to add, change or delete it; it is titled
for the site."""

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.factories import played_tournament
from tournament.models import (
    Round,
    Seat,
    SheetConfirmation,
    SheetVersion,
    Table,
    Tournament,
)

pytestmark = pytest.mark.django_db

READ_ONLY = [SheetVersion, SheetConfirmation, Seat, Table, Round]


@pytest.fixture
def admin_client(client):
    client.force_login(get_user_model().objects.create_superuser("boss", password=None))
    return client


def _url(model, action, *args):
    return reverse(f"admin:tournament_{model._meta.model_name}_{action}", args=args)


@pytest.mark.parametrize("model", READ_ONLY, ids=lambda m: m.__name__)
def test_sheet_data_and_seating_offer_no_add(admin_client, model):
    played_tournament(8, 1)
    listing = admin_client.get(_url(model, "changelist"))
    assert listing.status_code == 200
    assert _url(model, "add") not in listing.content.decode()
    assert admin_client.get(_url(model, "add")).status_code == 403


def test_a_sheet_cannot_be_changed_or_deleted_in_the_admin(admin_client):
    played_tournament(8, 1)
    version = SheetVersion.objects.exclude(cells=[]).first()
    before = (version.cells, version.penalties)
    versions = SheetVersion.objects.count()
    page = admin_client.get(_url(SheetVersion, "change", version.pk))
    assert page.status_code == 200  # shown, read-only
    assert 'name="cells"' not in page.content.decode()
    response = admin_client.post(
        _url(SheetVersion, "change", version.pk),
        {"table": version.table_id, "number": 0, "cells": "[]", "penalties": "[]"},
    )
    assert response.status_code == 403
    delete = admin_client.post(_url(SheetVersion, "delete", version.pk), {"post": "yes"})
    assert delete.status_code == 403
    version.refresh_from_db()
    assert (version.cells, version.penalties) == before
    assert SheetVersion.objects.count() == versions


def test_the_admin_is_titled_for_the_site(admin_client):
    page = admin_client.get(reverse("admin:index")).content.decode()
    assert "Bollentoernooi: beheer" in page
    assert "Django-beheer" not in page


def test_a_whole_tournament_can_be_deleted_with_its_sheets(admin_client):
    """The README's way to free a short name before restoring a backup under it."""
    tournament = played_tournament(8, 2)
    other = played_tournament(8, 1, seed=2)
    url = reverse("admin:tournament_tournament_delete", args=[tournament.pk])
    confirm = admin_client.get(url)
    assert confirm.status_code == 200
    response = admin_client.post(url, {"post": "yes"})
    assert response.status_code == 302
    assert not Tournament.objects.filter(pk=tournament.pk).exists()
    assert not SheetVersion.objects.filter(table__round__tournament=tournament).exists()
    assert SheetVersion.objects.filter(table__round__tournament=other).exists()
