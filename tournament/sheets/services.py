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

A save locks its table's row (``select_for_update``; SQLite's ``BEGIN IMMEDIATE`` serialises all
writers), so the version check and the writes are decided on what is committed. The round's
state is not stored: it follows from the tables' ``SheetScore`` rows, written with each version.
A save that starts or finishes its table also locks the round before it writes: a first entry
so that the seating cannot change under it, a finished table so that the round's completion
(which writes a backup) is decided on every table's committed sheet. The others (a deal entered
at a table that is being played) leave the round alone, so thirty tables saving at once do not
queue behind one lock. While the round's seating may still change, the round is locked first
of all, so that the seats a save reads stay as they are (see :func:`sheet_lock`).
"""

from __future__ import annotations

from dataclasses import replace

from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils.translation import gettext as _

from scoring.errors import Problem
from scoring.sheet import Sheet, SheetResult, check_and_score
from tournament.adapter import TableScore, TableSheet, load_table_sheets, sheet_scores_store
from tournament.errors import PlacedProblem, Refused, place_rule_problem
from tournament.models import Player, Round, SheetScore, SheetVersion, Table
from tournament.sheets.content import SheetContent, sheet_changes, sheet_merge, sheet_split
from tournament.sheets.drafts import sheet_draft_keep, sheet_draft_token, sheet_with_other_draft
from tournament.sheets.first_dealer import sheet_first_dealer_check
from tournament.sheets.selectors import sheet_latest_version, table_seat_ids, version_number
from tournament.sheets.submission import (
    SheetConflict,
    SheetProblems,
    SheetRefusal,
    SheetSaved,
    SheetSubmission,
)
from tournament.tournament_file.backups import round_backup_when_complete

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
    with transaction.atomic():
        outcome = sheet_record_locked(table=sheet_lock(table), submission=submission)
    if isinstance(outcome, SheetConflict):
        raise outcome  # after the commit, so that the conflict record is kept
    return outcome


def sheet_record_locked(*, table: Table, submission: SheetSubmission) -> SheetSaved | SheetConflict:
    """``sheet_record`` inside the caller's transaction, on a table it locked with
    :func:`sheet_lock`. A conflict is returned, not raised: its record is stored, so the caller
    raises it after the commit."""
    key = submission.key
    base_version, by_user = submission.base_version, submission.by_user
    if not table.round.published:
        # A draft seating may still change; a sheet typed now would lock it unseen.
        raise SheetProblems(
            [
                PlacedProblem(
                    code="round_draft",
                    message=_(
                        "Round %(round)s is not published yet: publish its seating first, "
                        "then enter the sheets."
                    )
                    % {"round": table.round.number},
                    round=table.round.number,
                    table=table.number,
                )
            ],
            (),
        )
    latest = sheet_latest_version(table)
    current_number = version_number(latest)
    earlier = SheetVersion.objects.filter(table=table, idempotency_key=key).first() if key else None
    (stored,) = load_table_sheets(tournament=table.round.tournament, table_ids=[table.pk])
    now = SheetContent.of_sheet(stored.sheet)
    content = SheetContent.build(stored.sheet.n_seats, submission.cells, submission.penalties)
    if earlier is not None and (
        _submitted(earlier, stored.sheet.n_seats) != content or earlier.base_number != base_version
    ):
        # A retry sends what it sent the first time; anything else under the same key would be
        # answered with the first outcome while its content is dropped.
        raise Refused.because(SheetRefusal.KEY_REUSED, round=table.round.number, table=table.number)
    if earlier is not None and earlier.number is not None:
        counted = SheetContent.of_version(earlier, stored.sheet.n_seats)
        stored_problems, stored_result = stored.checked()
        return SheetSaved(
            earlier.number,
            created=False,
            table_sheet=stored,
            replayed=True,
            problems=tuple(stored_problems),
            result=stored_result,
            split=sheet_split(counted, content, first_dealer=stored.sheet.first_dealer)
            if submission.hold
            else None,
            merged=earlier.base_number != earlier.number - 1,
            draft_token=sheet_draft_token(table),
        )
    if earlier is not None:
        raise _conflict(earlier, latest, now, table, stored.sheet.n_seats)
    if not 0 <= base_version <= current_number:
        raise Refused.because(
            SheetRefusal.UNKNOWN_VERSION, round=table.round.number, table=table.number
        )

    sheet_first_dealer_check(table=table, started=bool(content.cells) and not stored.has_entries)
    first_dealer = stored.sheet.first_dealer
    record = {
        "table": table,
        "base_number": base_version,
        "via": submission.via,
        "user": by_user if by_user is not None and by_user.is_authenticated else None,
        "ip": submission.ip or None,
        "idempotency_key": key,
        "restored_from": submission.restored_from,
    }
    submitted, merged = content, base_version != current_number
    if merged:
        base = _version_content(table, base_version, stored.sheet.n_seats)
        content, conflicts = sheet_merge(base, now, submitted)
        if conflicts or submission.restored_from is not None:
            # A restore from a page drawn before the last save is not merged: it is meant to put
            # back that version as it was.
            if (
                SheetVersion.objects.filter(table=table, number__isnull=True).count()
                >= CONFLICTS_MAX
            ):
                raise Refused.because(
                    SheetRefusal.TOO_MANY_CONFLICTS, round=table.round.number, table=table.number
                )
            sent_cells, sent_penalties = submitted.to_json()
            rejected = SheetVersion.objects.create(
                number=None, cells=sent_cells, penalties=sent_penalties, **record
            )
            return _conflict(rejected, latest, now, table, stored.sheet.n_seats)
    split = None
    result: SheetResult | None = None  # the scores of what is stored, once it is checked
    if submission.hold:
        content = sheet_with_other_draft(table, submission, now, content)
        split = sheet_split(now, content, first_dealer=first_dealer)
        content, result = split.counted, split.result
        sheet_draft_keep(table, split)
    else:
        problems, result = check_and_score(content.sheet(first_dealer=first_dealer))
        if problems:
            raise SheetProblems(_placed(problems, table, stored), problems)
    if content == now:
        return SheetSaved(
            current_number,
            created=False,
            table_sheet=stored,
            split=split,
            merged=merged,
            draft_token=sheet_draft_token(table),
            result=result,  # the sheet as stored, just checked
        )

    cells_json, penalties_json = content.to_json()
    record.update(cells=cells_json, penalties=penalties_json, submitted=None)
    if submitted != content:
        sent_cells, sent_penalties = submitted.to_json()
        record["submitted"] = {"cells": sent_cells, "penalties": sent_penalties}
    after = content.sheet(first_dealer=first_dealer)
    finishing = after.finished and not stored.sheet.finished
    if _round_lock_needed(stored.sheet, after):
        _lock_round(table)  # before writing: the seating may not change under a first entry
        if _seats_now(table) != list(zip(stored.seat_ids, stored.player_ids, strict=True)):
            # The seating changed after the seats were read (the round was not locked then):
            # start again on the seats as they are; with the round locked they stay so.
            return sheet_record_locked(table=table, submission=submission)
    SheetVersion.objects.create(number=current_number + 1, **record)
    if result is None:  # counted from a submission that broke a rule: checked here, once
        _problems, result = check_and_score(after)
    saved = TableSheet(
        table_id=stored.table_id,
        round_number=stored.round_number,
        table_number=stored.table_number,
        seat_ids=stored.seat_ids,
        player_ids=stored.player_ids,
        sheet=after,
    )
    sheet_scores_store(
        {table.pk: TableScore.of_sheet(saved, result)}, versions={table.pk: current_number + 1}
    )
    if finishing:
        round_backup_when_complete(table.round)
    return SheetSaved(
        current_number + 1,
        created=True,
        table_sheet=saved,
        changes=sheet_changes(now, content),
        split=split,
        merged=merged,
        draft_token=sheet_draft_token(table),
        result=result,
    )


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


def _lock_round(table: Table) -> None:
    """Lock the table's round until the transaction ends: the seating's changes take this
    lock too, and so do saves that finish a table (the round's completion)."""
    Round.objects.select_for_update().values_list("pk", flat=True).get(pk=table.round_id)


def _seats_now(table: Table) -> list[tuple[int, int]]:
    """The table's ``(seat, player)`` ids in seat order, as committed."""
    return list(table.seats.order_by("position").values_list("pk", "player_id"))


def _round_lock_needed(before: Sheet, after: Sheet) -> bool:
    """Whether the save must lock the round: when it changes whether the table has entries
    (a first entry may not meet a change of the seating; entries taken back let the seating
    change again) or finishes the table (the round may be complete now). A deal at a table that
    is and stays in play leaves the round alone."""
    return before.started != after.started or (after.finished and not before.finished)


def _conflict(
    rejected: SheetVersion,
    latest: SheetVersion | None,
    now: SheetContent,
    table: Table,
    n_seats: int,
) -> SheetConflict:
    return SheetConflict(
        base_number=rejected.base_number,
        current=latest,
        theirs=now,
        yours=SheetContent.of_version(rejected, n_seats),
        rejected=rejected,
        base=_version_content(table, rejected.base_number, n_seats),
    )


def _placed(problems: list[Problem], table: Table, stored: TableSheet) -> list[PlacedProblem]:
    names = dict(Player.objects.filter(pk__in=stored.player_ids).values_list("pk", "name"))
    players = tuple(names[pk] for pk in stored.player_ids)
    return [
        place_rule_problem(p, round=table.round.number, table=table.number, players=players)
        for p in problems
    ]
