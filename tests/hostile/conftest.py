"""Fixtures for hostile input: a round in play with a table link, and a finished round."""

from __future__ import annotations

import pytest

from tests.factories import played_tournament
from tournament.models import Table
from tournament.sheets.table_links import table_link_issue


@pytest.fixture
def tournament(director):
    """One round of 8 players: table 1 has played all 11 deals, table 2 has played 3."""
    return played_tournament(8, 1, last_round=[11, 3], director=director)


@pytest.fixture
def table(tournament) -> Table:
    return Table.objects.select_related("round__tournament").get(
        round__tournament=tournament, round__number=1, number=1
    )


@pytest.fixture
def link(table, director):
    return table_link_issue(table=table, by_user=director)
