"""The lock a sheet is changed under: a table's saves, confirmations and link changes, one at a
time, each in its transaction (:func:`sheet_locked`).

The table's row is locked (``select_for_update``; SQLite's ``BEGIN IMMEDIATE`` serialises all
writers), so whatever is decided under it is decided on what is committed. While the round's
seating may still change, the round is locked first of all, so that the seats read under the
lock stay as they are (see :func:`sheet_lock`).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import transaction
from django.db.models import Exists, OuterRef

from tournament.models import Round, SheetScore, Table
from tournament.sheets.submission import SheetConflict


@contextmanager
def sheet_locked(table: Table) -> Iterator[Table]:
    """A transaction holding the table's lock (:func:`sheet_lock`) for the block, which gets the
    table as read under it. A :class:`SheetConflict` raised in the block is raised after the
    commit, so that the conflict record it stored is kept; any other error rolls back."""
    conflict: SheetConflict | None = None
    with transaction.atomic():
        try:
            yield sheet_lock(table)
        except SheetConflict as raised:
            conflict = raised
    if conflict is not None:
        raise conflict


def sheet_lock(table: Table) -> Table:
    """Lock the table until the transaction ends (saves and confirmations of one table, one at
    a time); the table is read again, with its round and tournament.

    While the round's seating may still change (a draft, or seated with nothing entered), the
    round is locked first, in the order the seating's changes take their locks: a table's first
    entry and a change of its seats then never cross, nor wait for each other in a circle.
    """
    round_id, published, started = (
        Table.objects.annotate(
            round_started=Exists(
                SheetScore.objects.filter(table__round=OuterRef("round_id"), started=True)
            )
        )
        .values_list("round_id", "round__published", "round_started")
        .get(pk=table.pk)
    )
    if not (published and started):
        Round.objects.select_for_update().values_list("pk", flat=True).get(pk=round_id)
    return (
        Table.objects.select_for_update(of=("self",))
        .select_related("round__tournament", "sheet_draft")
        .get(pk=table.pk)
    )
