"""A second pair of eyes: someone on the team confirms that a sheet on the site matches the
paper form.

A confirmation belongs to one version of the sheet (``SheetConfirmation.version``), so a save
after it leaves the sheet unconfirmed again without anyone having to remember. Two ways to
confirm: look the sheet over, or re-type the paper form into a blank grid, which confirms only
when every box is equal and otherwise says exactly which boxes differ.

Whose confirmation counts is the tournament's confirmation rule (``scoring.confirmation``):
another person, or re-typing (the one who saved it included), or no confirmation at all. Both
ways check it here, on the server, under the same lock as a save, together with "the sheet is
still the version you looked at" and "the game is complete".
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from django.contrib.auth.models import User

from scoring.confirmation import (
    ConfirmationRule,
    ConfirmMethod,
    ConfirmRefusal,
    SheetState,
    confirm_methods,
    confirm_refusal,
    rule_in_force,
)
from tournament.adapter import SheetStatus, table_sheet
from tournament.errors import Refused
from tournament.models import SheetConfirmation, SheetVersion, Table, Tournament
from tournament.sheets.content import CellChange, Cells, SheetContent, sheet_changes
from tournament.sheets.locks import sheet_locked
from tournament.sheets.selectors import sheet_latest_version
from tournament.team.confirmation_rule import team_size

__all__ = [
    "ConfirmMethod",
    "ConfirmRefusal",
    "ConfirmationRule",
    "RetypeOutcome",
    "sheet_confirm",
    "sheet_confirm_methods",
    "sheet_confirm_refusal",
    "sheet_confirmation_now",
    "sheet_is_confirmed",
    "sheet_retype",
    "tournament_confirmation_rule",
    "tournament_count_unconfirmed_set",
    "tournament_counts_every_sheet",
    "tournament_team_size",
]


@dataclass(frozen=True, slots=True)
class RetypeOutcome:
    """What re-typing found: the boxes that differ (stored before, typed after) and, when none
    do, the confirmation."""

    changes: list[CellChange] = field(default_factory=list)
    confirmation: SheetConfirmation | None = None


def tournament_team_size(tournament: Tournament) -> int:
    """How many people are on the tournament's team: its directors and scorers (active
    accounts; a superuser who is not listed does not count)."""
    return team_size(tournament)


def tournament_confirmation_rule(tournament: Tournament) -> ConfirmationRule:
    """The confirmation rule in force for the tournament ("auto" resolved by its team)."""
    rule = ConfirmationRule(tournament.confirmation_rule)
    if rule is not ConfirmationRule.AUTO:
        return rule  # no query: the team's size only matters to "auto"
    return rule_in_force(rule, tournament_team_size(tournament))


def tournament_counts_every_sheet(tournament: Tournament) -> bool:
    """Whether every sheet counts in the standings without waiting for a confirmation: the
    tournament confirms nothing, or lets unconfirmed sheets count (marked provisional)."""
    return tournament.count_unconfirmed or tournament.confirmation_rule == ConfirmationRule.NONE


def sheet_confirmation_now(table: Table) -> SheetConfirmation | None:
    """The confirmation of the sheet as it stands, if someone has given one."""
    version = sheet_latest_version(table)
    if version is None:
        return None
    return SheetConfirmation.objects.filter(version=version).select_related("user").first()


def sheet_is_confirmed(table: Table) -> bool:
    """Whether someone has confirmed the sheet as it stands (one query: every save asks)."""
    confirmation = (
        SheetVersion.objects.current(table).values_list("confirmation__pk", flat=True).first()
    )
    return confirmation is not None


def sheet_confirm_refusal(
    *,
    table: Table,
    by_user: User,
    method: ConfirmMethod = ConfirmMethod.LOOK,
    version: int | None = None,
) -> ConfirmRefusal | None:
    """Why ``by_user`` cannot confirm the sheet by ``method`` (at ``version``, if given)."""
    try:
        _confirmable(table, by_user, version, method)
    except Refused as refused:
        return ConfirmRefusal(refused.code)
    return None


def sheet_confirm_methods(*, table: Table, by_user: User) -> tuple[ConfirmMethod, ...]:
    """The ways ``by_user`` may confirm the sheet as it stands (empty: none)."""
    latest = sheet_latest_version(table)
    return confirm_methods(
        rule=tournament_confirmation_rule(table.round.tournament),
        sheet=_state(table, latest),
        user=by_user.pk,
    )


def sheet_confirm(
    *, table: Table, version: int, by_user: User, method: str = SheetConfirmation.Method.LOOK
) -> SheetConfirmation:
    """Confirm the sheet's ``version`` (the one looked at) for ``by_user``.

    Raises :class:`~tournament.errors.Refused`. Confirming a version that is confirmed already
    returns the first confirmation.
    """
    with sheet_locked(table) as table:
        latest = _confirmable(table, by_user, version, ConfirmMethod(method))
        return _store(latest, by_user, method)


def sheet_retype(
    *,
    table: Table,
    version: int,
    cells: Cells,
    penalties: Iterable[tuple[int, int]],
    by_user: User,
) -> RetypeOutcome:
    """Compare the paper form as ``by_user`` re-typed it (``(deal, seat)`` ``penalties``) with
    the sheet's ``version``; confirm it when they are equal. Raises
    :class:`~tournament.errors.Refused`."""
    with sheet_locked(table) as table:
        latest = _confirmable(table, by_user, version, ConfirmMethod.RETYPE)
        n_seats = table.seats.count()
        stored = SheetContent.of_version(latest, n_seats)
        typed = SheetContent.build(n_seats, cells, penalties)
        changes = sheet_changes(stored, typed)
        if changes:
            return RetypeOutcome(changes=changes)
        return RetypeOutcome(confirmation=_store(latest, by_user, SheetConfirmation.Method.RETYPE))


def _state(table: Table, latest: SheetVersion | None) -> SheetState:
    return SheetState(
        saved=latest is not None,
        complete=latest is not None and table_sheet(table).status == SheetStatus.COMPLETE,
        saved_by=latest.user_id if latest is not None else None,
    )


def _confirmable(
    table: Table, by_user: User, version: int | None, method: ConfirmMethod
) -> SheetVersion:
    latest = sheet_latest_version(table)
    if latest is not None and version is not None and version != latest.number:
        raise Refused.because(ConfirmRefusal.CHANGED)
    refusal = confirm_refusal(
        rule=tournament_confirmation_rule(table.round.tournament),
        sheet=_state(table, latest),
        user=by_user.pk,
        method=method,
    )
    if refusal is not None:
        raise Refused.because(refusal)
    assert latest is not None  # a sheet never saved is refused above (NOTHING)
    return latest


def _store(version: SheetVersion, by_user: User, method: str) -> SheetConfirmation:
    confirmation, _created = SheetConfirmation.objects.get_or_create(
        version=version, defaults={"user": by_user, "method": method}
    )
    return confirmation


def tournament_count_unconfirmed_set(*, tournament: Tournament, count: bool) -> Tournament:
    """Whether sheets nobody has confirmed yet count in the standings (as provisional)."""
    tournament.count_unconfirmed = count
    tournament.save(update_fields=["count_unconfirmed"])
    return tournament
