"""A round's score sheets are prepared in a fixed number of queries, however many tables."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import played_tournament
from tournament.models import TableLink
from tournament.printing.printouts import sheets_printout

pytestmark = pytest.mark.django_db


def printout_queries(n_players: int) -> tuple[int, int]:
    """The queries of printing round 1 the first time (links made) and again."""
    tournament = played_tournament(n_players, 1, last_round=[0] * (n_players // 4))
    counts = []
    for _ in range(2):
        with CaptureQueriesContext(connection) as queries:
            sheets_printout(tournament, 1, site="http://10.0.0.2:8000")
        counts.append(len(queries))
    assert TableLink.objects.filter(table__round__tournament=tournament).count() == n_players // 4
    return counts[0], counts[1]


def test_printing_the_sheets_takes_the_same_queries_for_8_and_160_players():
    assert printout_queries(8) == printout_queries(160)
