"""The scores kept per sheet version equal a fresh scoring of the sheets after every change."""

from __future__ import annotations

import uuid

import pytest

from tests.factories import played_tournament
from tests.sheets.helpers import DEAL_1, stored_cells
from tournament.adapter import TableScore, load_table_scores, load_table_sheets
from tournament.models import Player, SheetScore, Table, Tournament
from tournament.players.services import player_withdraw
from tournament.rounds.seating import round_seat
from tournament.sheets.selectors import sheet_version_number
from tournament.sheets.services import sheet_record, sheet_restore
from tournament.sheets.submission import SheetSubmission

pytestmark = pytest.mark.django_db


def assert_kept_scores_are_current(tournament: Tournament) -> None:
    """Every table has a kept score, computed from its version now, equal to a fresh one."""
    fresh = {s.table_id: TableScore.of_sheet(s) for s in load_table_sheets(tournament=tournament)}
    kept = {s.table_id: s for s in SheetScore.objects.filter(table__round__tournament=tournament)}
    assert kept.keys() == fresh.keys()
    for table_id, score in fresh.items():
        row = kept[table_id]
        assert row.version == sheet_version_number(Table.objects.get(pk=table_id))
        assert tuple(row.seat_ids) == score.seat_ids
    assert {s.table_id: s for s in load_table_scores(tournament=tournament)} == fresh


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


def test_an_import_keeps_the_scores_of_every_sheet(tournament):
    assert_kept_scores_are_current(tournament)


def test_a_save_keeps_the_new_version_scores(tournament, empty_table, played_table):
    save(empty_table, DEAL_1)
    cells = stored_cells(played_table)
    cells[4, 0], cells[4, 1] = (0, None), (1, None)
    save(played_table, cells)
    assert_kept_scores_are_current(tournament)


def test_a_penalty_bol_changes_the_kept_score(tournament, played_table):
    before = SheetScore.objects.get(table=played_table).totals
    save(played_table, stored_cells(played_table), penalties=[(1, 2)])
    assert SheetScore.objects.get(table=played_table).totals != before
    assert_kept_scores_are_current(tournament)


def test_a_restore_keeps_the_scores_of_the_restored_version(tournament, empty_table):
    save(empty_table, DEAL_1)
    save(empty_table, {})
    first = empty_table.sheet_versions.get(number=1)
    sheet_restore(
        table=empty_table,
        version_id=first.pk,
        submission=SheetSubmission(base_version=2, idempotency_key=uuid.uuid4()),
    )
    assert SheetScore.objects.get(table=empty_table).version == 3
    assert_kept_scores_are_current(tournament)


def test_a_withdrawal_from_a_seated_round_keeps_the_new_tables_scores(director):
    tournament = played_tournament(10, 1, director=director)
    round_seat(tournament=tournament, seed=1)
    assert_kept_scores_are_current(tournament)
    player = Player.objects.filter(tournament=tournament).first()
    player_withdraw(player=player, from_round=2)
    assert_kept_scores_are_current(tournament)


def test_a_score_kept_from_an_older_version_is_not_used(tournament, played_table):
    kept = SheetScore.objects.get(table=played_table)
    SheetScore.objects.filter(pk=kept.pk).update(totals=[[99] * 6] * len(kept.seat_ids))
    save(played_table, stored_cells(played_table), penalties=[(1, 0)])
    SheetScore.objects.filter(pk=kept.pk).update(version=0, totals=[[99] * 6] * 4)
    (score,) = [s for s in load_table_scores(tournament=tournament) if s.table_id == kept.table_id]
    (fresh,) = load_table_sheets(tournament=tournament, table_ids=[played_table.pk])
    assert score == TableScore.of_sheet(fresh)
