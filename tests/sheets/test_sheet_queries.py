"""The sheet page and a save read and write a fixed number of queries, however many players."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.deals import bidding_order
from tests.factories import played_tournament
from tests.sheets.helpers import form_data, stored_cells, stored_penalties
from tournament.models import Table

pytestmark = pytest.mark.django_db

MAX_GET_QUERIES = 12
MAX_SAVE_QUERIES = 26


@pytest.fixture(params=[8, 160], ids=["8 players", "160 players"])
def table(request, director):
    """Table 1 of round 3, with 3 deals played, in a small or a large tournament."""
    tables = request.param // 4
    tournament = played_tournament(request.param, 3, last_round=[3] * tables, director=director)
    return Table.objects.select_related("round__tournament").get(
        round__tournament=tournament, round__number=3, number=1
    )


def url(table):
    return reverse("sheet_edit", args=[table.round.tournament.slug, 3, 1])


def test_the_sheet_page_reads_a_fixed_number_of_queries(
    director_client, table, django_assert_max_num_queries
):
    director_client.get(url(table))  # the session is warm, as on a real evening
    with django_assert_max_num_queries(MAX_GET_QUERIES):
        response = director_client.get(url(table))
    assert response.status_code == 200


def test_a_save_uses_a_fixed_number_of_queries(
    director_client, table, django_assert_max_num_queries
):
    cells = stored_cells(table)
    first, second = bidding_order(4, 4)[:2]
    cells[4, first], cells[4, second] = (1, None), (0, None)
    data = form_data(4, cells, stored_penalties(table))
    with django_assert_max_num_queries(MAX_SAVE_QUERIES):
        response = director_client.post(url(table), data)
    assert response.status_code == 302
    assert stored_cells(table) == cells


def test_small_and_large_tournaments_take_the_same_queries(director_client, director):
    counts = []
    for n_players in (8, 200):
        tournament = played_tournament(
            n_players, 2, last_round=[3] * (n_players // 4), director=director, seed=n_players
        )
        table = Table.objects.get(round__tournament=tournament, round__number=2, number=1)
        page = reverse("sheet_edit", args=[tournament.slug, 2, 1])
        director_client.get(page)
        with CaptureQueriesContext(connection) as read:
            director_client.get(page)
        cells = stored_cells(table)
        cells[4, bidding_order(4, 4)[0]] = (1, None)
        data = form_data(4, cells, stored_penalties(table))
        with CaptureQueriesContext(connection) as write:
            director_client.post(page, data)
        assert stored_cells(table) == cells
        counts.append((len(read), len(write)))
    assert counts[0] == counts[1]
