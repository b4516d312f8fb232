"""Saving a table's score sheet so that no result is ever lost.

Every save stores the whole sheet as a new ``SheetVersion``: a table's current version (its
highest number) is the one copy of its sheet, which the rest of the site reads through
``tournament.adapter``. Guards sit around that:

- *rules*: the sheet is checked with ``scoring.check_sheet`` before anything is written;
- *optimistic concurrency*: a save names the version it started from; if someone else saved
  since, the two are merged box by box from that version (``content.sheet_merge``); only when a
  box was changed differently on both sides is the save refused with :class:`SheetConflict`,
  and the refused sheet is kept as a conflict record (a version without a number) so it can
  still be applied;
- *held input*: a save that asks for it (``SheetSubmission.hold``, the page's script) never
  fails on the rules: what is legal and in order is counted, the rest is kept as the table's
  ``SheetDraft`` and answered with its problems (``content.sheet_split``);
- *idempotency*: a save carries a random key; the same key sent again (double tap, browser
  retry, the page's offline queue) gets the first outcome back and stores nothing new.

A save runs under its table's lock (``locks.sheet_locked``), so the version check and the writes
are decided on what is committed. The round's state is not stored: it follows from the tables'
``SheetScore`` rows, written with each version. A save that starts or finishes its table also
locks the round before it writes: a first entry so that the seating cannot change under it, a
finished table so that the round's completion (which writes a backup) is decided on every
table's committed sheet. The others (a deal entered at a table that is being played) leave the
round alone, so thirty tables saving at once do not queue behind one lock.

:func:`sheet_record_locked` reads as the steps of a save, each a function below it: refuse a
draft round, read the sheet as stored, replay a retried key, refuse an unknown base version,
merge with the saves made since the base (``_merged_with_saves_since``: ``sent`` becomes
``wanted``), judge it by the rules (``_judged``: ``wanted`` becomes ``counted``), and store
``counted`` as the next version (``_version_store``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from django.utils.translation import gettext as _

from scoring.errors import Problem
from scoring.sheet import Sheet, SheetResult, check_and_score
from tournament.adapter import TableScore, TableSheet, load_table_sheets, sheet_scores_store
from tournament.errors import PlacedProblem, Refused, place_rule_problem, refuse_when_finished
from tournament.models import Player, Round, SheetVersion, Table
from tournament.sheets.content import (
    SheetContent,
    SheetSplit,
    sheet_changes,
    sheet_merge,
    sheet_split,
)
from tournament.sheets.drafts import (
    sheet_draft_authors,
    sheet_draft_keep,
    sheet_draft_token,
    sheet_with_other_draft,
)
from tournament.sheets.first_dealer import sheet_first_dealer_check
from tournament.sheets.locks import sheet_locked
from tournament.sheets.photo_input import sheet_photo_link
from tournament.sheets.selectors import sheet_latest_version, table_seat_ids, version_number
from tournament.sheets.submission import (
    SheetConflict,
    SheetProblems,
    SheetRefusal,
    SheetSaved,
    SheetSubmission,
)
from tournament.tournament_file.backups import (
    round_backup_when_complete,
    round_backup_when_corrected,
)

# Conflict records a table keeps at most: each stale save stores one, and a real table makes a
# handful; past this a stale save is refused without being kept.
CONFLICTS_MAX = 100


def sheet_record(*, table: Table, submission: SheetSubmission) -> SheetSaved:
    """Store the whole sheet of ``table`` as ``submission`` has it.

    Raises :class:`SheetProblems` when the sheet breaks a rule (nothing stored) and
    :class:`SheetConflict` when the sheet was saved by someone else after the submission's
    base version (the submission is kept as a conflict record). A submission whose idempotency
    key was seen before gets that first outcome again. A sheet equal to the stored one stores
    nothing.
    """
    with sheet_locked(table) as locked:
        return sheet_record_locked(table=locked, submission=submission)


def sheet_record_locked(*, table: Table, submission: SheetSubmission) -> SheetSaved:
    """``sheet_record`` on a table locked with :func:`sheet_locked`, in its block. A conflict is
    raised once its record is stored: ``sheet_locked`` commits the record, then raises it."""
    _refuse_draft_round(table)
    stored = _stored_sheet(table)
    sent = SheetContent.build(stored.n_seats, submission.cells, submission.penalties)
    earlier = _earlier_save(table, submission, sent, stored)
    if earlier is not None:
        return _replayed(table, submission, sent, stored, earlier)
    refuse_when_finished(table.round.tournament)
    if not 0 <= submission.base_version <= stored.number:
        raise Refused.because(
            SheetRefusal.UNKNOWN_VERSION, round=table.round.number, table=table.number
        )
    sheet_first_dealer_check(table=table, started=bool(sent.cells) and not stored.has_entries)
    wanted = _merged_with_saves_since(table, submission, sent, stored)
    counted, split, result, held_by = _judged(table, submission, wanted, stored)
    if counted == stored.content:
        if split is None or not split.held:  # the photo's reading is the sheet as it stands
            sheet_photo_link(table=table, photo_id=submission.photo_id, version=stored.latest)
        return SheetSaved(
            stored.number,
            created=False,
            table_sheet=stored.table_sheet,
            split=split,
            merged=stored.number != submission.base_version,
            draft_token=sheet_draft_token(table),
            result=result,  # the sheet as stored, just checked
        )
    after = counted.sheet(first_dealer=stored.sheet.first_dealer)
    if _round_lock_needed(stored.sheet, after) and not _round_locked_on_same_seats(table, stored):
        # The seating changed after the seats were read (the round was not locked then): start
        # again on the seats as they are; with the round locked they stay so.
        return sheet_record_locked(table=table, submission=submission)
    return _version_store(table, submission, sent, counted, split, result, stored, held_by)


@dataclass(frozen=True, slots=True)
class _Stored:
    """The table's sheet as the save found it: its current version (``latest``, a save, or
    ``None``), that version's ``number`` (0 before the first save) and what it holds."""

    table_sheet: TableSheet
    latest: SheetVersion | None
    number: int
    content: SheetContent

    @property
    def sheet(self) -> Sheet:
        return self.table_sheet.sheet

    @property
    def n_seats(self) -> int:
        return self.table_sheet.sheet.n_seats

    @property
    def has_entries(self) -> bool:
        return self.table_sheet.has_entries


def _refuse_draft_round(table: Table) -> None:
    """A draft seating may still change; a sheet typed now would lock it unseen."""
    if table.round.published:
        return
    message = _(
        "Round %(round)s is not published yet: publish its seating first, then enter the sheets."
    ) % {"round": table.round.number}
    raise SheetProblems(
        [
            PlacedProblem(
                code="round_draft",
                message=message,
                round=table.round.number,
                table=table.number,
            )
        ],
        (),
    )


def _stored_sheet(table: Table) -> _Stored:
    latest = sheet_latest_version(table)
    (table_sheet,) = load_table_sheets(tournament=table.round.tournament, table_ids=[table.pk])
    return _Stored(
        table_sheet, latest, version_number(latest), SheetContent.of_sheet(table_sheet.sheet)
    )


def _earlier_save(
    table: Table, submission: SheetSubmission, sent: SheetContent, stored: _Stored
) -> SheetVersion | None:
    """The version (or conflict record) stored for the submission's key, if it came before.
    A retry sends what it sent the first time; a submission with other content under a key
    already used is refused, so that it is not answered with the first outcome unseen."""
    key = submission.key
    earlier = SheetVersion.objects.filter(table=table, idempotency_key=key).first() if key else None
    if earlier is not None and (
        _submitted(earlier, stored.n_seats) != sent
        or earlier.base_number != submission.base_version
    ):
        raise Refused.because(SheetRefusal.KEY_REUSED, round=table.round.number, table=table.number)
    return earlier


def _replayed(
    table: Table,
    submission: SheetSubmission,
    sent: SheetContent,
    stored: _Stored,
    earlier: SheetVersion,
) -> SheetSaved:
    """The first outcome of a retried submission, on the sheet as it stands now: its version,
    or its conflict again."""
    if earlier.number is None:
        raise _conflict(earlier, stored, table)
    counted = SheetContent.of_version(earlier, stored.n_seats)
    problems, result = stored.table_sheet.checked()
    return SheetSaved(
        earlier.number,
        created=False,
        table_sheet=stored.table_sheet,
        replayed=True,
        problems=tuple(problems),
        result=result,
        split=sheet_split(counted, sent, first_dealer=stored.sheet.first_dealer)
        if submission.hold
        else None,
        merged=earlier.base_number != earlier.number - 1,
        draft_token=sheet_draft_token(table),
    )


def _merged_with_saves_since(
    table: Table, submission: SheetSubmission, sent: SheetContent, stored: _Stored
) -> SheetContent:
    """What the save asks the sheet to become: ``sent``, merged box by box with the saves made
    since its base version. A box changed differently on both sides (or a restore from a page
    drawn before the last save, which is meant to put back that version as it was) stores the
    submission as a conflict record and raises the conflict."""
    if submission.base_version == stored.number:
        return sent
    base = _version_content(table, submission.base_version, stored.n_seats)
    wanted, conflicts = sheet_merge(base, stored.content, sent)
    if not conflicts and submission.restored_from is None:
        return wanted
    if SheetVersion.objects.filter(table=table, number__isnull=True).count() >= CONFLICTS_MAX:
        raise Refused.because(
            SheetRefusal.TOO_MANY_CONFLICTS, round=table.round.number, table=table.number
        )
    sent_cells, sent_penalties = sent.to_json()
    rejected = SheetVersion.objects.create(
        number=None, cells=sent_cells, penalties=sent_penalties, **_record(table, submission)
    )
    raise _conflict(rejected, stored, table)


def _judged(
    table: Table, submission: SheetSubmission, wanted: SheetContent, stored: _Stored
) -> tuple[SheetContent, SheetSplit | None, SheetResult | None, list[int]]:
    """What of ``wanted`` is counted, by the rules (``scoring.check_sheet``), with how it was
    split and its scores once checked (``None``: not yet). A ``hold`` save counts what is legal
    and in order and keeps the rest as the table's draft; any other refuses a sheet that
    breaks a rule. Last: who typed the held input of another device merged in (their ids)."""
    first_dealer = stored.sheet.first_dealer
    if submission.hold:
        with_draft = sheet_with_other_draft(table, submission, stored.content, wanted)
        held_by = sheet_draft_authors(table) if with_draft != wanted else []
        split = sheet_split(stored.content, with_draft, first_dealer=first_dealer)
        user = submission.by_user
        sheet_draft_keep(
            table, split, by_user_id=user.pk if user is not None and user.is_authenticated else None
        )
        return split.counted, split, split.result, held_by
    problems, result = check_and_score(wanted.sheet(first_dealer=first_dealer))
    if problems:
        raise SheetProblems(_placed(problems, table, stored.table_sheet), problems)
    return wanted, None, result, []


def _version_store(
    table: Table,
    submission: SheetSubmission,
    sent: SheetContent,
    counted: SheetContent,
    split: SheetSplit | None,
    result: SheetResult | None,
    stored: _Stored,
    held_by: list[int],
) -> SheetSaved:
    """Store ``counted`` as the table's next version with its scores (and the round's backup
    when it finishes the round)."""
    number = stored.number + 1
    cells, penalties = counted.to_json()
    as_sent = None
    if sent != counted:
        sent_cells, sent_penalties = sent.to_json()
        as_sent = {"cells": sent_cells, "penalties": sent_penalties}
        if held_by:  # another device's held input came in: who typed it
            as_sent["held_by"] = held_by
    version = SheetVersion.objects.create(
        number=number,
        cells=cells,
        penalties=penalties,
        submitted=as_sent,
        **_record(table, submission),
    )
    sheet_photo_link(table=table, photo_id=submission.photo_id, version=version)
    after = counted.sheet(first_dealer=stored.sheet.first_dealer)
    if result is None:  # counted from a submission that broke a rule: checked here, once
        _problems, result = check_and_score(after)
    saved = replace(stored.table_sheet, sheet=after)
    sheet_scores_store({table.pk: TableScore.of_sheet(saved, result)}, versions={table.pk: number})
    if after.finished and not stored.sheet.finished:
        round_backup_when_complete(table.round)
    elif after.finished:  # a correction to a finished table: its round's backup again
        round_backup_when_corrected(table.round)
    return SheetSaved(
        number,
        created=True,
        table_sheet=saved,
        changes=sheet_changes(stored.content, counted),
        split=split,
        merged=stored.number != submission.base_version,
        draft_token=sheet_draft_token(table),
        result=result,
    )


def _record(table: Table, submission: SheetSubmission) -> dict[str, Any]:
    """The fields of a version or conflict record that say where the submission came from."""
    by_user = submission.by_user
    return {
        "table": table,
        "base_number": submission.base_version,
        "via": submission.via,
        "user": by_user if by_user is not None and by_user.is_authenticated else None,
        "ip": submission.ip or None,
        "idempotency_key": submission.key,
        "restored_from": submission.restored_from,
    }


def _submitted(version: SheetVersion, n_seats: int) -> SheetContent:
    """What the submission stored as ``version`` held, as it was sent."""
    if version.submitted:
        cells = {
            (deal, seat): (pair[0], pair[1])
            for deal, row in enumerate(version.submitted["cells"], start=1)
            for seat, pair in enumerate(row)
        }
        return SheetContent.build(
            n_seats, cells, (tuple(p) for p in version.submitted["penalties"])
        )
    return SheetContent.of_version(version, n_seats)


def _version_content(table: Table, number: int, n_seats: int) -> SheetContent:
    """The sheet as version ``number`` had it (version 0 without a record: blank)."""
    version = SheetVersion.objects.filter(table=table, number=number).first()
    if version is None:
        return SheetContent.build(n_seats, {})
    return SheetContent.of_version(version, n_seats)


def sheet_restore(*, table: Table, version_id: int, submission: SheetSubmission) -> SheetSaved:
    """Save an earlier version (or a conflict record) of the sheet again, as a new version."""
    version = SheetVersion.objects.get(pk=version_id, table=table)
    content = SheetContent.of_version(version, len(table_seat_ids(table)))
    restore = replace(
        submission, cells=content.cell_map, penalties=content.penalties, restored_from=version
    )
    return sheet_record(table=table, submission=restore)


def _round_locked_on_same_seats(table: Table, stored: _Stored) -> bool:
    """Lock the table's round until the transaction ends (the seating's changes take this lock
    too, and so do saves that finish a table: the round's completion), before writing; whether
    the seats are still those the save read."""
    Round.objects.select_for_update().values_list("pk", flat=True).get(pk=table.round_id)
    seats = list(table.seats.order_by("position").values_list("pk", "player_id"))
    return seats == list(
        zip(stored.table_sheet.seat_ids, stored.table_sheet.player_ids, strict=True)
    )


def _round_lock_needed(before: Sheet, after: Sheet) -> bool:
    """Whether the save must lock the round: when it changes whether the table has entries
    (a first entry may not meet a change of the seating; entries taken back let the seating
    change again) or finishes the table (the round may be complete now). A deal at a table that
    is and stays in play leaves the round alone."""
    return before.started != after.started or (after.finished and not before.finished)


def _conflict(rejected: SheetVersion, stored: _Stored, table: Table) -> SheetConflict:
    return SheetConflict(
        base_number=rejected.base_number,
        current=stored.latest,
        theirs=stored.content,
        yours=SheetContent.of_version(rejected, stored.n_seats),
        rejected=rejected,
        base=_version_content(table, rejected.base_number, stored.n_seats),
    )


def _placed(problems: list[Problem], table: Table, stored: TableSheet) -> list[PlacedProblem]:
    names = dict(Player.objects.filter(pk__in=stored.player_ids).values_list("pk", "name"))
    players = tuple(names[pk] for pk in stored.player_ids)
    return [
        place_rule_problem(p, round=table.round.number, table=table.number, players=players)
        for p in problems
    ]
