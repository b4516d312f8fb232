"""Fixtures for table links and confirmations: a round with a finished and a started table."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import played_tournament
from tests.table.helpers import changed_cells, save_via_link
from tournament.models import Table
from tournament.sheets.table_links import table_link_issue


@pytest.fixture
def tournament(director):
    """One round of 8 players: table 1 has played all 11 deals, table 2 has played 3."""
    return played_tournament(8, 1, last_round=[11, 3], director=director)


def _table(tournament, number: int) -> Table:
    return Table.objects.select_related("round__tournament").get(
        round__tournament=tournament, round__number=1, number=number
    )


@pytest.fixture
def table(tournament) -> Table:
    return _table(tournament, 1)


@pytest.fixture
def other_table(tournament) -> Table:
    return _table(tournament, 2)


@pytest.fixture
def link(table, director):
    return table_link_issue(table=table, by_user=director)


@pytest.fixture
def other_link(other_table, director):
    return table_link_issue(table=other_table, by_user=director)


@pytest.fixture
def second_director(django_user_model, tournament):
    """Another director of the same tournament: the second pair of eyes."""
    user = django_user_model.objects.create_user("tweede", password="x-kaart-2026-q")
    tournament.directors.add(user)
    return user


@pytest.fixture
def phone_client():
    """A phone at the table: no account, only the link."""
    return Client()


@pytest.fixture
def saved_at_table(phone_client, link, table):
    """Table 1's complete sheet, corrected once through its link: version 1, not confirmed."""
    response = save_via_link(phone_client, link, changed_cells(table))
    assert response.status_code == 200
    return table
