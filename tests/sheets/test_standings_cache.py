"""The cached standings rows equal a fresh computation after every kind of change, and a warm
standings page reads them without scoring anything."""

from __future__ import annotations

import uuid

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import played_tournament
from tests.sheets.helpers import DEAL_1, stored_cells
from tournament.models import Player, Table, Tournament
from tournament.players.services import player_update, player_withdraw
from tournament.rounds.seating import round_seat
from tournament.sheets.confirmations import sheet_confirm, tournament_count_unconfirmed_set
from tournament.sheets.selectors import sheet_version_number
from tournament.sheets.services import sheet_record, sheet_restore
from tournament.sheets.submission import SheetSubmission
from tournament.standings.tables import (
    ranked_standings,
    standings_key,
    standings_table_rows,
)
from tournament.tournament_file.exporting import tournament_export
from tournament.tournament_file.importing import tournament_restore

pytestmark = pytest.mark.django_db


def assert_cached_is_fresh(tournament: Tournament) -> None:
    """What the standings pages read (from the cache when it holds this state) equals the
    standings computed afresh."""
    tournament = Tournament.objects.get(pk=tournament.pk)
    ranked = ranked_standings(tournament)
    rows, rounds = standings_table_rows(tournament)
    assert ranked.rows == rows
    assert ranked.rounds == rounds


def warm(tournament: Tournament) -> str:
    ranked_standings(Tournament.objects.get(pk=tournament.pk))
    return standings_key(Tournament.objects.get(pk=tournament.pk))


def save(table: Table, cells, penalties=()) -> None:
    sheet_record(
        table=table,
        submission=SheetSubmission(
            cells=cells,
            penalties=penalties,
            base_version=sheet_version_number(table),
            idempotency_key=uuid.uuid4(),
        ),
    )


def test_a_save_and_a_penalty_are_seen_at_once(tournament, empty_table, played_table):
    before = warm(tournament)
    save(empty_table, DEAL_1)
    assert warm(tournament) != before
    assert_cached_is_fresh(tournament)
    save(played_table, stored_cells(played_table), penalties=[(1, 2)])
    assert_cached_is_fresh(tournament)


def test_a_restore_is_seen(tournament, empty_table):
    save(empty_table, DEAL_1)
    save(empty_table, {})
    warm(tournament)
    first = empty_table.sheet_versions.get(number=1)
    sheet_restore(
        table=empty_table,
        version_id=first.pk,
        submission=SheetSubmission(base_version=2, idempotency_key=uuid.uuid4()),
    )
    assert_cached_is_fresh(tournament)


def test_a_confirmation_and_the_count_setting_are_seen(director, django_user_model):
    tournament = played_tournament(8, 1, director=director)
    played_table = Table.objects.select_related("round__tournament").get(
        round__tournament=tournament, number=1
    )
    save(played_table, stored_cells(played_table), penalties=[(2, 1)])
    tournament_count_unconfirmed_set(tournament=tournament, count=False)
    warm(tournament)
    left_out = ranked_standings(Tournament.objects.get(pk=tournament.pk)).left_out
    other = django_user_model.objects.create_user("second-director", is_staff=True)
    sheet_confirm(table=played_table, version=sheet_version_number(played_table), by_user=other)
    assert ranked_standings(Tournament.objects.get(pk=tournament.pk)).left_out == left_out - 1
    assert_cached_is_fresh(tournament)
    tournament_count_unconfirmed_set(tournament=tournament, count=True)
    assert_cached_is_fresh(tournament)


def test_a_name_a_club_and_a_withdrawal_are_seen(director):
    tournament = played_tournament(10, 1, director=director)
    round_seat(tournament=tournament, seed=1)
    warm(tournament)
    player = Player.objects.filter(tournament=tournament).first()
    player_update(player=player, name="Anna de Vries", club="De Bollenclub")
    assert_cached_is_fresh(tournament)
    rows = ranked_standings(Tournament.objects.get(pk=tournament.pk)).rows
    assert {"Anna de Vries"} == {r["name"] for r in rows if r["player_id"] == player.pk}
    player_withdraw(player=Player.objects.get(pk=player.pk), from_round=2)
    assert_cached_is_fresh(tournament)


def test_an_import_over_the_same_slug_is_seen(director):
    tournament = played_tournament(8, 2, director=director)
    document = tournament_export(tournament=tournament)
    warm(tournament)
    document["rounds"][-1]["tables"][0]["deals"] = []
    again = tournament_restore(
        document=document, director=director, slug=tournament.slug, replace=True
    ).tournament
    assert_cached_is_fresh(again)


def test_the_key_comes_from_the_database_not_the_process(tournament, played_table):
    """Another server process, with nothing in its memory, computes the same key; and a
    warm page reads the rows instead of scoring the sheets."""
    key = warm(tournament)
    cache.clear()
    assert standings_key(Tournament.objects.get(pk=tournament.pk)) == key
    ranked_standings(Tournament.objects.get(pk=tournament.pk))
    with CaptureQueriesContext(connection) as queries:
        ranked_standings(Tournament.objects.get(pk=tournament.pk))
    # The tournament, the key's tallies and its players (and the database cache's own get):
    # no seats, scores or sheets read.
    site = [q["sql"] for q in queries if settings.CACHE_TABLE not in q["sql"]]
    assert len(site) == 3
    assert not any("sheetscore" in sql.split("FROM", 1)[1][:40] for sql in site)


def test_the_standings_page_draws_the_cached_rows(director_client, tournament, played_table):
    url = reverse("standings", args=[tournament.slug])
    first = director_client.get(url)
    again = director_client.get(url + "?sort=-name")
    assert first.status_code == again.status_code == 200
    names = [r["name"] for r in again.context["rows"]]
    assert names == sorted(names, reverse=True) or len(set(names)) < len(names)
    # Sorting one request's table leaves the cached order alone.
    ranks = [r["rank"] for r in ranked_standings(Tournament.objects.get(pk=tournament.pk)).rows]
    assert ranks == sorted(ranks)
