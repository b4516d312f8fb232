"""Saves that really race: threads, each with its own database connection, started together.

On PostgreSQL the row lock decides; on SQLite ``BEGIN IMMEDIATE`` lets one writer in at a time.
Either way exactly one of the saves that started from the same version may win, the others are
kept as conflict records, and a submission sent twice at once is stored once. Saves at different
tables that start or finish the round at the same moment leave it in the right state.
"""

from __future__ import annotations

import threading
import uuid

import pytest
from django.db import connection, connections
from django.test.utils import CaptureQueriesContext

from tests.factories import played_tournament
from tests.sheets.helpers import DEAL_1, stored_cells
from tournament.models import Round, SheetVersion, Table
from tournament.sheets.content import SheetContent
from tournament.sheets.selectors import sheet_version_number
from tournament.sheets.services import sheet_record
from tournament.sheets.submission import SheetConflict, SheetSubmission

pytestmark = pytest.mark.django_db(transaction=True)

REPETITIONS = 25


def race(table, submissions):
    """Run one ``sheet_record`` per submission in its own thread, all released at once; return
    what each got: ``("saved", version)`` or ``("conflict", current version)``."""
    return race_tables([(table, *submission) for submission in submissions])


def race_tables(submissions):
    """``race`` with a table per submission: ``(table, cells, base version, key)``."""
    start = threading.Barrier(len(submissions))
    outcomes: list[tuple[str, int] | None] = [None] * len(submissions)
    failures: list[BaseException] = []

    def save(index: int, table, cells, base: int, key) -> None:
        try:
            start.wait()
            saved = sheet_record(
                table=table,
                submission=SheetSubmission(
                    cells=cells, penalties=(), base_version=base, idempotency_key=key
                ),
            )
            outcomes[index] = ("saved", saved.version)
        except SheetConflict as conflict:
            outcomes[index] = ("conflict", conflict.current_number)
        except BaseException as error:  # every failure is reported by the test
            failures.append(error)
        finally:
            connections.close_all()

    threads = [
        threading.Thread(target=save, args=(index, *submission))
        for index, submission in enumerate(submissions)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures, failures
    return outcomes


def deal_2_bids(repetition: int, first: int, second: int = 0) -> dict:
    """Deal 1 complete and three bids in deal 2: legal, and never what the repetition before
    stored (seat 0's bid alternates), so that every save changes the sheet."""
    return {**DEAL_1, (2, 0): (repetition % 2, None), (2, 2): (first, None), (2, 3): (second, None)}


def clashing(table, count: int) -> list[dict]:
    """``count`` sheets that each change seat 2's bid in deal 2 away from what is stored, to
    one of the two other values (alternating): the same box changed differently is what a
    merge cannot settle."""
    cells = stored_cells(table)
    now = cells.get((2, 2), (None, None))[0]
    others = [v for v in range(3) if v != now]
    return [{**DEAL_1, (2, 2): (others[index % 2], None)} for index in range(count)]


def test_of_two_saves_changing_one_box_from_the_same_version_exactly_one_wins(empty_table):
    for repetition in range(REPETITIONS):
        base = repetition
        ours, theirs = clashing(empty_table, 2)
        outcomes = race(empty_table, [(ours, base, uuid.uuid4()), (theirs, base, uuid.uuid4())])
        assert sorted(kind for kind, _number in outcomes) == ["conflict", "saved"]
        assert sorted(number for _kind, number in outcomes) == [base + 1, base + 1]
        winner = (ours, theirs)[[kind for kind, _n in outcomes].index("saved")]
        loser = (theirs, ours)[[kind for kind, _n in outcomes].index("saved")]
        assert stored_cells(empty_table) == winner
        kept = SheetVersion.objects.filter(table=empty_table, number__isnull=True).last()
        assert SheetContent.of_version(kept, 4).cell_map == loser
    versions = SheetVersion.objects.filter(table=empty_table)
    assert versions.filter(number__isnull=False).count() == REPETITIONS
    assert versions.filter(number__isnull=True).count() == REPETITIONS


def test_of_many_saves_from_the_same_version_one_stores_and_the_rest_agree_or_conflict(
    empty_table,
):
    writers = 6
    for _repetition in range(REPETITIONS // 5):
        base = sheet_version_number(empty_table)
        sheets = clashing(empty_table, writers)
        outcomes = race(empty_table, [(cells, base, None) for cells in sheets])
        assert sheet_version_number(empty_table) == base + 1  # one version, never two
        won = stored_cells(empty_table)
        for cells, (kind, number) in zip(sheets, outcomes, strict=True):
            # The same change as the winner's merges into nothing new; the other conflicts.
            assert (kind, number) == (("saved" if cells == won else "conflict"), base + 1)
    assert SheetVersion.objects.filter(table=empty_table, number__isnull=True).count() == (
        writers // 2 * (REPETITIONS // 5)
    )


def test_saves_of_different_boxes_from_the_same_version_are_all_merged(empty_table):
    """Three devices each type another bid of deal 2 on the same version: every save is
    stored, one after another, and the sheet holds all three bids."""
    for repetition in range(REPETITIONS // 5):
        base = sheet_version_number(empty_table)
        bids = [{**DEAL_1, (2, seat): ((repetition + seat) % 2, None)} for seat in (0, 2, 3)]
        outcomes = race(empty_table, [(cells, base, None) for cells in bids])
        assert sorted(outcomes) == [("saved", base + n) for n in (1, 2, 3)]
        assert stored_cells(empty_table) == {k: v for cells in bids for k, v in cells.items()}
        sheet_record(
            table=empty_table,
            submission=SheetSubmission(cells=DEAL_1, base_version=base + 3),
        )


def test_the_same_submission_sent_twice_at_once_is_stored_once(empty_table):
    for repetition in range(REPETITIONS):
        key = uuid.uuid4()
        cells = deal_2_bids(repetition, 1)
        outcomes = race(empty_table, [(cells, repetition, key), (cells, repetition, key)])
        assert outcomes == [("saved", repetition + 1), ("saved", repetition + 1)]
        assert SheetVersion.objects.filter(table=empty_table, idempotency_key=key).count() == 1
    assert SheetVersion.objects.filter(table=empty_table).count() == REPETITIONS


def _tables(tournament) -> list[Table]:
    return list(
        Table.objects.select_related("round__tournament")
        .filter(round__tournament=tournament)
        .order_by("number")
    )


def _round_state(tournament) -> str:
    return Round.objects.get(tournament=tournament, number=1).state


# Deal 11, one card: everyone bids 0 (the dealer may: 0 does not add up to 1), seat 0 takes it.
DEAL_11 = {(11, seat): (0, 1 if seat == 0 else 0) for seat in range(4)}


def test_two_tables_finishing_at_the_same_moment_complete_the_round(director):
    """Both tables of the round enter deal 11 at once (and take it back at once): the round is
    complete (and playing again) whichever save commits first."""
    tournament = played_tournament(8, 1, last_round=[10, 10], director=director, seed=7)
    tables = _tables(tournament)
    ten_deals = {table.pk: stored_cells(table) for table in tables}
    assert _round_state(tournament) == Round.State.PLAYING
    for _repetition in range(REPETITIONS // 5):
        finish = [
            (t, {**ten_deals[t.pk], **DEAL_11}, sheet_version_number(t), None) for t in tables
        ]
        assert [kind for kind, _n in race_tables(finish)] == ["saved", "saved"]
        assert _round_state(tournament) == Round.State.COMPLETE
        take_back = [(t, ten_deals[t.pk], sheet_version_number(t), None) for t in tables]
        assert [kind for kind, _n in race_tables(take_back)] == ["saved", "saved"]
        assert _round_state(tournament) == Round.State.PLAYING


def test_two_tables_starting_at_the_same_moment_start_the_round(director):
    """Both tables enter their first bids at once (and clear them at once): the round is being
    played (and only seated again), whichever save commits first."""
    tournament = played_tournament(8, 1, last_round=[0, 0], director=director, seed=8)
    tables = _tables(tournament)
    assert _round_state(tournament) == Round.State.SEATED
    first_bids = {(1, 1): (1, None), (1, 2): (0, None)}
    for _repetition in range(REPETITIONS // 5):
        start = [(t, first_bids, sheet_version_number(t), None) for t in tables]
        assert [kind for kind, _n in race_tables(start)] == ["saved", "saved"]
        assert _round_state(tournament) == Round.State.PLAYING
        clear = [(t, {}, sheet_version_number(t), None) for t in tables]
        assert [kind for kind, _n in race_tables(clear)] == ["saved", "saved"]
        assert _round_state(tournament) == Round.State.SEATED


def test_a_table_finishing_while_another_plays_on_leaves_the_round_playing(director):
    tournament = played_tournament(8, 1, last_round=[10, 3], director=director, seed=9)
    finishing, playing = _tables(tournament)
    ten_deals, three_deals = stored_cells(finishing), stored_cells(playing)
    for repetition in range(REPETITIONS // 5):
        fourth_bid = {(4, 0): (repetition % 2, None)}
        outcomes = race_tables(
            [
                (finishing, {**ten_deals, **DEAL_11}, sheet_version_number(finishing), None),
                (playing, {**three_deals, **fourth_bid}, sheet_version_number(playing), None),
            ]
        )
        assert [kind for kind, _n in outcomes] == ["saved", "saved"]
        assert _round_state(tournament) == Round.State.PLAYING
        sheet_record(
            table=finishing,
            submission=SheetSubmission(
                cells=ten_deals,
                penalties=(),
                base_version=sheet_version_number(finishing),
                idempotency_key=None,
            ),
        )


def _round_queries(queries) -> list[str]:
    return [q["sql"] for q in queries if 'FROM "tournament_round"' in q["sql"]]


def test_only_a_save_that_can_move_the_round_locks_it(director):
    """A deal at a table in play leaves the round's row alone, so the tables of a round do not
    queue behind one lock; finishing the table locks the round before writing."""
    tournament = played_tournament(8, 1, last_round=[10, 3], director=director, seed=10)
    finishing, playing = _tables(tournament)
    fourth_bid = {**stored_cells(playing), (4, 0): (1, None)}
    with CaptureQueriesContext(connection) as queries:
        sheet_record(
            table=playing,
            submission=SheetSubmission(
                cells=fourth_bid, penalties=(), base_version=0, idempotency_key=None
            ),
        )
    assert _round_queries(queries) == []
    with CaptureQueriesContext(connection) as queries:
        sheet_record(
            table=finishing,
            submission=SheetSubmission(
                cells={**stored_cells(finishing), **DEAL_11},
                penalties=(),
                base_version=0,
                idempotency_key=None,
            ),
        )
    sqls = [q["sql"] for q in queries]
    lock = next(i for i, sql in enumerate(sqls) if 'FROM "tournament_round"' in sql)
    first_write = next(i for i, sql in enumerate(sqls) if sql.startswith(("INSERT", "DELETE")))
    assert lock < first_write
    if connection.features.has_select_for_update:
        assert "FOR UPDATE" in sqls[lock]
    assert _round_state(tournament) == Round.State.PLAYING


def test_while_the_seating_may_change_a_save_locks_the_round_before_its_table(director):
    """The seating's changes lock the round, then touch its tables; a table's first entry
    takes the locks in the same order, so the two never wait for each other in a circle."""
    tournament = played_tournament(8, 1, last_round=[0, 0], director=director, seed=11)
    table = _tables(tournament)[0]
    with CaptureQueriesContext(connection) as queries:
        saved = sheet_record(
            table=table,
            submission=SheetSubmission(
                cells=DEAL_1, penalties=(), base_version=0, idempotency_key=None
            ),
        )
    assert saved.created
    assert _round_state(tournament) == Round.State.PLAYING
    if connection.features.has_select_for_update:
        locks = [q["sql"] for q in queries if "FOR UPDATE" in q["sql"]]
        assert 'FROM "tournament_round"' in locks[0]
        assert 'FROM "tournament_table"' in locks[1]
