"""Saves that really race: threads, each with its own database connection, started together.

On PostgreSQL the row lock decides; on SQLite ``BEGIN IMMEDIATE`` lets one writer in at a time.
Either way exactly one of the saves that started from the same version may win, the others are
kept as conflict records, and a submission sent twice at once is stored once.
"""

from __future__ import annotations

import threading
import uuid

import pytest
from django.db import connections

from tests.sheets.helpers import DEAL_1, stored_cells
from tournament.models import SheetVersion
from tournament.services.sheets import SheetConflict, SheetContent, sheet_record

pytestmark = pytest.mark.django_db(transaction=True)

REPETITIONS = 25


def race(table, submissions):
    """Run one ``sheet_record`` per submission in its own thread, all released at once; return
    what each got: ``("saved", version)`` or ``("conflict", current version)``."""
    start = threading.Barrier(len(submissions))
    outcomes: list[tuple[str, int] | None] = [None] * len(submissions)
    failures: list[BaseException] = []

    def save(index: int, cells, base: int, key) -> None:
        try:
            start.wait()
            saved = sheet_record(
                table=table, cells=cells, penalties=(), base_version=base, idempotency_key=key
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


def test_of_two_saves_from_the_same_version_exactly_one_wins(empty_table):
    for repetition in range(REPETITIONS):
        base = repetition
        ours, theirs = deal_2_bids(repetition, 0), deal_2_bids(repetition, 1)
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


def test_of_many_saves_from_the_same_version_exactly_one_wins(empty_table):
    writers = 6
    for repetition in range(REPETITIONS // 5):
        submissions = [
            (deal_2_bids(repetition, index % 3, index // 3), repetition, None)
            for index in range(writers)
        ]
        outcomes = race(empty_table, submissions)
        assert [kind for kind, _n in outcomes].count("saved") == 1
        assert {number for _kind, number in outcomes} == {repetition + 1}
    assert SheetVersion.objects.filter(table=empty_table, number__isnull=True).count() == (
        (writers - 1) * (REPETITIONS // 5)
    )


def test_the_same_submission_sent_twice_at_once_is_stored_once(empty_table):
    for repetition in range(REPETITIONS):
        key = uuid.uuid4()
        cells = deal_2_bids(repetition, 1)
        outcomes = race(empty_table, [(cells, repetition, key), (cells, repetition, key)])
        assert outcomes == [("saved", repetition + 1), ("saved", repetition + 1)]
        assert SheetVersion.objects.filter(table=empty_table, idempotency_key=key).count() == 1
    assert SheetVersion.objects.filter(table=empty_table).count() == REPETITIONS
