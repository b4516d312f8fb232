"""A second pair of eyes: a director confirms that a sheet on the site matches the paper form.

A confirmation belongs to one version of the sheet (``SheetConfirmation.version``), so a save
after it leaves the sheet unconfirmed again without anyone having to remember. Two ways to
confirm: look the sheet over, or re-type the paper form into a blank grid, which confirms only
when every box is equal and otherwise says exactly which boxes differ.

The director who saved a version cannot confirm it: that takes someone else. Both ways check
this here, on the server, under the same lock as a save, together with "the sheet is still the
version you looked at" and "the game is complete".
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from tournament.adapter import SheetStatus, table_sheet
from tournament.models import SheetConfirmation, SheetVersion, Table, Tournament
from tournament.services.sheets import (
    CellChange,
    Cells,
    SheetContent,
    sheet_changes,
    sheet_latest_version,
    sheet_lock,
)


class ConfirmRefusal(StrEnum):
    NOTHING = "nothing_to_confirm"
    NOT_COMPLETE = "sheet_not_complete"
    CHANGED = "sheet_changed"
    OWN_SHEET = "own_sheet"


CONFIRM_REFUSALS = {
    ConfirmRefusal.NOTHING: _("This sheet has not been saved on the site: nothing to confirm."),
    ConfirmRefusal.NOT_COMPLETE: _("Only a complete sheet without mistakes can be confirmed."),
    ConfirmRefusal.CHANGED: _(
        "The sheet was saved again while you were checking it. Check the new version."
    ),
    ConfirmRefusal.OWN_SHEET: _(
        "You saved this version of the sheet yourself, so another director must confirm it."
    ),
}


class ConfirmRefused(Exception):
    """The sheet cannot be confirmed (now, or by this director); nothing was stored."""

    def __init__(self, code: ConfirmRefusal) -> None:
        self.code = code
        self.message = str(CONFIRM_REFUSALS[code])
        super().__init__(code)


@dataclass(frozen=True, slots=True)
class RetypeOutcome:
    """What re-typing found: the boxes that differ (stored before, typed after) and, when none
    do, the confirmation."""

    changes: list[CellChange] = field(default_factory=list)
    confirmation: SheetConfirmation | None = None


def sheet_confirmation_now(table: Table) -> SheetConfirmation | None:
    """The confirmation of the sheet as it stands, if a director has given one."""
    version = sheet_latest_version(table)
    if version is None:
        return None
    return SheetConfirmation.objects.filter(version=version).select_related("user").first()


def sheet_is_confirmed(table: Table) -> bool:
    """Whether a director has confirmed the sheet as it stands (one query: every save asks)."""
    latest = (
        SheetVersion.objects.filter(table=table, number__isnull=False)
        .order_by("-number")
        .values_list("confirmation__pk", flat=True)
        .first()
    )
    return latest is not None


def sheet_confirm_refusal(
    *, table: Table, by_user, version: int | None = None
) -> ConfirmRefusal | None:
    """Why ``by_user`` cannot confirm the sheet (at ``version``, if given), or ``None``."""
    try:
        _confirmable(table, by_user, version)
    except ConfirmRefused as refused:
        return refused.code
    return None


def sheet_confirm(
    *, table: Table, version: int, by_user, method: str = SheetConfirmation.Method.LOOK
) -> SheetConfirmation:
    """Confirm the sheet's ``version`` (the one the director looked at) for ``by_user``.

    Raises :class:`ConfirmRefused`. Confirming a version that is confirmed already returns the
    first confirmation.
    """
    with transaction.atomic():
        table = sheet_lock(table)
        latest = _confirmable(table, by_user, version)
        return _store(latest, by_user, method)


def sheet_retype(
    *,
    table: Table,
    version: int,
    cells: Cells,
    penalties: Iterable[tuple[int, int]],
    by_user,
) -> RetypeOutcome:
    """Compare the paper form as ``by_user`` re-typed it with the sheet's ``version``; confirm
    it when they are equal. Raises :class:`ConfirmRefused`."""
    with transaction.atomic():
        table = sheet_lock(table)
        latest = _confirmable(table, by_user, version)
        n_seats = table.seats.count()
        stored = SheetContent.of_version(latest, n_seats)
        typed = SheetContent.build(n_seats, cells, penalties)
        changes = sheet_changes(stored, typed)
        if changes:
            return RetypeOutcome(changes=changes)
        return RetypeOutcome(confirmation=_store(latest, by_user, SheetConfirmation.Method.RETYPE))


def confirm_refusal_of(
    *, saved: bool, complete: bool, saved_by_id: int | None, user_id: int | None
) -> ConfirmRefusal | None:
    """The rule, on what is known of the sheet's current version: it was ``saved`` on the site,
    the sheet is ``complete`` (all deals, no mistakes), and who saved it; a director does not
    confirm their own sheet."""
    if not saved:
        return ConfirmRefusal.NOTHING
    if not complete:
        return ConfirmRefusal.NOT_COMPLETE
    if saved_by_id is not None and saved_by_id == user_id:
        return ConfirmRefusal.OWN_SHEET
    return None


def _confirmable(table: Table, by_user, version: int | None) -> SheetVersion:
    latest = sheet_latest_version(table)
    if latest is not None and version is not None and version != latest.number:
        raise ConfirmRefused(ConfirmRefusal.CHANGED)
    refusal = confirm_refusal_of(
        saved=latest is not None,
        complete=latest is not None and table_sheet(table).status == SheetStatus.COMPLETE,
        saved_by_id=latest.user_id if latest is not None else None,
        user_id=by_user.pk,
    )
    if refusal is not None:
        raise ConfirmRefused(refusal)
    return latest


def _store(version: SheetVersion, by_user, method: str) -> SheetConfirmation:
    confirmation, _created = SheetConfirmation.objects.get_or_create(
        version=version, defaults={"user": by_user, "method": method}
    )
    return confirmation


def tournament_count_unconfirmed_set(*, tournament: Tournament, count: bool) -> Tournament:
    """Whether sheets no director has confirmed yet count in the standings (as provisional)."""
    tournament.count_unconfirmed = count
    tournament.save(update_fields=["count_unconfirmed"])
    return tournament
