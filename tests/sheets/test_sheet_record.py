"""Saving a sheet through the service: rules first, versions kept, conflicts and retries."""

from __future__ import annotations

import json
import random
import uuid

import pytest
from django.utils import translation

from scoring.errors import ErrorCode
from scoring.simulate import simulate_sheet
from tests.sheets.helpers import DEAL_1, DEAL_2, stored_cells, stored_penalties
from tournament.adapter import load_table_sheets, table_sheet
from tournament.models import Round, Seat, SheetVersion
from tournament.sheets import services as sheets_service
from tournament.sheets.content import SheetContent
from tournament.sheets.selectors import sheet_version_number
from tournament.sheets.services import sheet_record, sheet_restore
from tournament.sheets.submission import SheetConflict, SheetProblems, SheetSubmission

pytestmark = pytest.mark.django_db


def record(table, cells, *, base=0, key=None, penalties=(), **kwargs):
    return sheet_record(
        table=table,
        submission=SheetSubmission(
            cells=cells,
            penalties=penalties,
            base_version=base,
            idempotency_key=key or uuid.uuid4(),
            **kwargs,
        ),
    )


def test_a_legal_partial_sheet_is_stored_as_version_1(empty_table, director):
    partial = {**DEAL_1, (2, 2): (1, None), (2, 3): (0, None)}  # deal 2: bidding under way
    saved = record(empty_table, partial, by_user=director, ip="10.0.0.7")
    assert (saved.version, saved.created) == (1, True)
    assert stored_cells(empty_table) == partial
    version = SheetVersion.objects.get(table=empty_table)
    assert (version.number, version.base_number, version.user, version.ip) == (
        1,
        0,
        director,
        "10.0.0.7",
    )
    assert version.cells[1] == [[None, None], [None, None], [1, None], [0, None]]
    empty_table.round.refresh_from_db()
    assert empty_table.round.state == Round.State.PLAYING


def test_the_first_save_keeps_the_imported_sheet_as_version_0(played_table):
    before = stored_cells(played_table)
    changed = dict(before)
    deal_4 = {(4, seat): (0, None) for seat in range(3)}  # three of four bids of deal 4
    saved = record(played_table, {**changed, **deal_4})
    assert saved.version == 1
    original, first = SheetVersion.objects.filter(table=played_table).order_by("number")
    assert (original.number, original.via) == (0, SheetVersion.Via.EARLIER)
    assert SheetContent.of_version(original, 4).cell_map == before
    assert first.number == 1


def test_a_sheet_that_breaks_a_rule_is_refused_and_nothing_is_stored(empty_table):
    # Seats 1, 2, 3 bid 0; the dealer (seat 0) bids 1 and the bids add up to the 1 card.
    forbidden = {(1, 1): (0, None), (1, 2): (0, None), (1, 3): (0, None), (1, 0): (1, None)}
    with pytest.raises(SheetProblems) as refused:
        record(empty_table, forbidden)
    (problem,) = refused.value.rule_problems
    assert (problem.code, problem.deal, problem.seat) == (ErrorCode.DEALER_BID, 1, 0)
    assert not stored_cells(empty_table)
    assert not SheetVersion.objects.filter(table=empty_table).exists()


def test_two_saves_from_the_same_version_keep_the_first_and_record_the_second(empty_table):
    record(empty_table, DEAL_1, key="00000000-0000-4000-8000-000000000001")
    theirs = {**DEAL_1, **DEAL_2}
    mine = {**DEAL_1, (2, 2): (1, None)}
    record(empty_table, theirs, base=1)
    with pytest.raises(SheetConflict) as conflict:
        record(empty_table, mine, base=1)
    assert (conflict.value.base_number, conflict.value.current_number) == (1, 2)
    assert conflict.value.theirs.cell_map == theirs
    assert conflict.value.yours.cell_map == mine
    assert {(c.deal, c.seat, c.what) for c in conflict.value.changes} == {
        (2, 0, "bid"),
        (2, 0, "tricks"),
        (2, 1, "bid"),
        (2, 1, "tricks"),
        (2, 2, "bid"),
        (2, 2, "tricks"),
        (2, 3, "bid"),
        (2, 3, "tricks"),
    }
    assert stored_cells(empty_table) == theirs
    kept = SheetVersion.objects.get(table=empty_table, number__isnull=True)
    assert SheetContent.of_version(kept, 4).cell_map == mine
    assert sheet_version_number(empty_table) == 2


def test_the_same_submission_twice_is_stored_once(empty_table):
    key = uuid.uuid4()
    first = record(empty_table, DEAL_1, key=key)
    again = record(empty_table, DEAL_1, key=key)
    assert (first.version, first.created) == (1, True)
    assert (again.version, again.created, again.replayed) == (1, False, True)
    assert SheetVersion.objects.filter(table=empty_table).count() == 1


def test_a_retried_submission_that_lost_a_race_gets_the_same_conflict(empty_table):
    record(empty_table, DEAL_1)
    key = uuid.uuid4()
    with pytest.raises(SheetConflict):
        record(empty_table, {(1, 1): (0, None)}, base=0, key=key)
    with pytest.raises(SheetConflict) as again:
        record(empty_table, {(1, 1): (0, None)}, base=0, key=key)
    assert again.value.current_number == 1
    assert SheetVersion.objects.filter(table=empty_table, number__isnull=True).count() == 1


def test_saving_the_sheet_as_it_is_stores_no_new_version(empty_table):
    record(empty_table, DEAL_1)
    same = record(empty_table, DEAL_1, base=1)
    assert (same.version, same.created) == (1, False)
    assert SheetVersion.objects.filter(table=empty_table).count() == 1


def test_penalty_bollen_are_added_and_removed(empty_table):
    record(empty_table, DEAL_1, penalties=[(1, 2), (1, 2)])
    assert stored_penalties(empty_table) == [(1, 2), (1, 2)]
    record(empty_table, DEAL_1, base=1, penalties=[(1, 2)])
    assert stored_penalties(empty_table) == [(1, 2)]
    record(empty_table, DEAL_1, base=2, penalties=[])
    assert not stored_penalties(empty_table)
    assert sheet_version_number(empty_table) == 3


def test_a_penalty_in_a_deal_not_reached_is_refused(empty_table):
    with pytest.raises(SheetProblems) as refused, translation.override("nl"):
        record(empty_table, DEAL_1, penalties=[(5, 0)])
    assert [p.code for p in refused.value.rule_problems] == [ErrorCode.PENALTY_DEAL]
    # It says what to do: the deal comes first.
    assert refused.value.problems[0].message == (
        "Een strafbol in een spel dat nog niet gespeeld is: vul eerst de biedingen en slagen van "
        "dat spel in."
    )


def test_restoring_a_version_saves_it_again_as_a_new_version(empty_table, director):
    record(empty_table, DEAL_1)
    record(empty_table, {**DEAL_1, **DEAL_2}, base=1)
    first = SheetVersion.objects.get(table=empty_table, number=1)
    restored = sheet_restore(
        table=empty_table,
        version_id=first.pk,
        submission=SheetSubmission(base_version=2, idempotency_key=uuid.uuid4(), by_user=director),
    )
    assert (restored.version, restored.created) == (3, True)
    assert stored_cells(empty_table) == DEAL_1
    assert SheetVersion.objects.get(table=empty_table, number=3).restored_from == first


def test_a_conflict_record_can_be_applied_later(empty_table):
    record(empty_table, DEAL_1)
    other_deal_1 = {**DEAL_1, (1, 1): (1, 0), (1, 2): (1, 1)}  # the same boxes, differently
    with pytest.raises(SheetConflict) as conflict:
        record(empty_table, {**other_deal_1, **DEAL_2}, base=0)
    applied = sheet_restore(
        table=empty_table,
        version_id=conflict.value.rejected.pk,
        submission=SheetSubmission(base_version=1, idempotency_key=uuid.uuid4()),
    )
    assert applied.version == 2
    assert stored_cells(empty_table) == {**other_deal_1, **DEAL_2}


def test_a_cell_off_the_sheet_is_a_bug_not_a_user_mistake(empty_table):
    with pytest.raises(ValueError, match="deal 12"):
        record(empty_table, {(12, 0): (1, None)})


def test_the_round_becomes_complete_with_its_last_sheet(tournament):
    rounds = Round.objects.get(tournament=tournament)
    tables = list(rounds.tables.order_by("number"))
    rng = random.Random(3)
    for table in tables:
        base = sheet_version_number(table)
        deals = simulate_sheet(4, rng)
        cells = {
            (deal, seat): (bids[seat], tricks[seat])
            for deal, (bids, tricks) in enumerate(deals, start=1)
            for seat in range(4)
        }
        record(table, cells, base=base)
    rounds.refresh_from_db()
    assert rounds.state == Round.State.COMPLETE


def test_the_last_table_finishing_writes_the_rounds_backup_once(
    tournament, settings, tmp_path, django_capture_on_commit_callbacks
):
    """The backup follows from the sheets: no file while a table is still playing, one when
    the last sheet is complete, and a new one for a correction of the complete round (the
    first no longer holds what the round is)."""
    settings.BACKUP_DIR = tmp_path
    tables = list(Round.objects.get(tournament=tournament).tables.order_by("number"))
    rng = random.Random(5)
    sheets = {}
    for table in tables:
        deals = simulate_sheet(4, rng)
        sheets[table.pk] = {
            (deal, seat): (bids[seat], tricks[seat])
            for deal, (bids, tricks) in enumerate(deals, start=1)
            for seat in range(4)
        }
    *first, last = tables
    for table in first:
        with django_capture_on_commit_callbacks(execute=True):
            record(table, sheets[table.pk], base=sheet_version_number(table))
    assert not list(tmp_path.rglob("*.json"))
    with django_capture_on_commit_callbacks(execute=True):
        record(last, sheets[last.pk], base=sheet_version_number(last))
    (backup,) = tmp_path.rglob("*.json")
    assert "round-1" in backup.name

    corrected = dict(sheets[last.pk])
    deal = next(d for d in range(1, 12) if corrected[d, 0][1] != corrected[d, 1][1])
    (bid_0, tricks_0), (bid_1, tricks_1) = corrected[deal, 0], corrected[deal, 1]
    corrected[deal, 0], corrected[deal, 1] = (bid_0, tricks_1), (bid_1, tricks_0)  # same sum
    with django_capture_on_commit_callbacks(execute=True):
        corrected_save = record(last, corrected, base=sheet_version_number(last))
    assert corrected_save.created and corrected != sheets[last.pk]
    (after,) = (path for path in tmp_path.rglob("*.json") if path != backup)
    assert "round-1-corrected" in after.name
    restored = json.loads(after.read_text())
    (table,) = (t for t in restored["rounds"][0]["tables"] if t["number"] == last.number)
    assert table["deals"][deal - 1]["tricks"][:2] == [tricks_1, tricks_0]


def test_taking_every_entry_back_returns_the_round_to_seated(tournament, played_table):
    round_ = played_table.round
    assert round_.state == Round.State.PLAYING
    record(played_table, {})
    round_.refresh_from_db()
    assert round_.state == Round.State.SEATED
    assert SheetVersion.objects.filter(table=played_table, number=0).exists()  # still kept


def test_a_first_entry_after_the_seats_changed_under_it_is_stored_on_the_seats_as_they_are(
    empty_table, monkeypatch
):
    """The seats were read before the round was locked and changed in between (a player moved
    out and back in, a new seat row): the save starts again on the seats as they are now."""
    reads = []

    def read_then_reseat(**kwargs):
        loaded = load_table_sheets(**kwargs)
        if not reads:  # the seating changes right after the first read
            seat = empty_table.seats.order_by("position").last()
            player, position = seat.player_id, seat.position
            seat.delete()
            Seat.objects.create(
                round=empty_table.round, table=empty_table, player_id=player, position=position
            )
        reads.append(loaded)
        return loaded

    monkeypatch.setattr(sheets_service, "load_table_sheets", read_then_reseat)
    saved = sheet_record(
        table=empty_table,
        submission=SheetSubmission(
            cells=DEAL_1, penalties=(), base_version=0, idempotency_key=None
        ),
    )
    assert len(reads) == 2
    assert reads[0][0].seat_ids != reads[1][0].seat_ids
    assert saved.table_sheet.seat_ids == reads[1][0].seat_ids
    assert stored_cells(empty_table) == DEAL_1
    assert table_sheet(empty_table).seat_ids == reads[1][0].seat_ids
