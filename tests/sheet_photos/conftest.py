"""Fixtures for the photos of score sheets: a round in play, and the reader's stand-in."""

from __future__ import annotations

import pytest

from tests.factories import played_tournament
from tests.sheet_photos.fake_reader import FakeReader, reader_installed
from tournament.models import Table


@pytest.fixture
def tournament(director):
    """One round of 8 players at two tables of 4: table 1 has not started, table 2 has played
    3 deals."""
    return played_tournament(8, 1, last_round=[0, 3], director=director)


@pytest.fixture
def table_1(tournament) -> Table:
    return Table.objects.select_related("round__tournament").get(
        round__tournament=tournament, round__number=1, number=1
    )


@pytest.fixture
def table_2(tournament) -> Table:
    return Table.objects.select_related("round__tournament").get(
        round__tournament=tournament, round__number=1, number=2
    )


@pytest.fixture
def reader(monkeypatch) -> FakeReader:
    return reader_installed(monkeypatch)
