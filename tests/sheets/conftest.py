"""Fixtures for the score sheet: a round in play and its tables."""

from __future__ import annotations

import pytest

from tests.factories import played_tournament
from tournament.models import Table


@pytest.fixture
def tournament(director):
    """One round of 8 players: table 1 has not started, table 2 has played 3 deals."""
    return played_tournament(8, 1, last_round=[0, 3], director=director)


@pytest.fixture
def empty_table(tournament) -> Table:
    return Table.objects.select_related("round__tournament").get(
        round__tournament=tournament, round__number=1, number=1
    )


@pytest.fixture
def played_table(tournament) -> Table:
    return Table.objects.select_related("round__tournament").get(
        round__tournament=tournament, round__number=1, number=2
    )
