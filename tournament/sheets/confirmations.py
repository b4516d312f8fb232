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

"Own" is more than "saved it last": a save merged with one made from an older page holds the
other person's input unseen, so whoever typed input in a version that nobody else has seen
counts as its saver (``tournament.sheets.authorship``). Re-typing one's own input is blind: the
answer says where the boxes differ, never what is stored.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from django.contrib.auth.models import User
from django.utils.text import get_text_list
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.confirmation import (
    ConfirmationRule,
    ConfirmMethod,
    ConfirmRefusal,
    SheetState,
    confirm_refusal,
    rule_in_force,
)
from tournament.adapter import SheetStatus, table_sheet
from tournament.errors import PlacedProblem, Refused
from tournament.models import SheetConfirmation, SheetVersion, Table, Tournament
from tournament.sheets.authorship import sheet_unseen_input
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
    "sheet_confirm_refused",
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
    do, the confirmation. ``blind``: the one re-typing typed (some of) this version themselves,
    so the page tells them where the boxes differ, never what is stored: shown the stored
    values, they would copy them instead of reading the paper form."""

    changes: list[CellChange] = field(default_factory=list)
    confirmation: SheetConfirmation | None = None
    blind: bool = False


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


def sheet_confirm_refused(
    *,
    table: Table,
    by_user: User,
    method: ConfirmMethod = ConfirmMethod.LOOK,
    version: int | None = None,
) -> Refused | None:
    """Why ``by_user`` cannot confirm the sheet by ``method`` (at ``version``, if given): the
    refusal with its code and the sentence to show, or ``None``."""
    try:
        _confirmable(table, by_user, version, method)
    except Refused as refused:
        return refused
    return None


def sheet_confirm_refusal(
    *,
    table: Table,
    by_user: User,
    method: ConfirmMethod = ConfirmMethod.LOOK,
    version: int | None = None,
) -> ConfirmRefusal | None:
    """Why ``by_user`` cannot confirm the sheet by ``method`` (at ``version``, if given)."""
    refused = sheet_confirm_refused(table=table, by_user=by_user, method=method, version=version)
    return None if refused is None else ConfirmRefusal(refused.code)


def sheet_confirm_methods(*, table: Table, by_user: User) -> tuple[ConfirmMethod, ...]:
    """The ways ``by_user`` may confirm the sheet as it stands (empty: none)."""
    return tuple(
        method
        for method in ConfirmMethod
        if sheet_confirm_refused(table=table, by_user=by_user, method=method) is None
    )


def sheet_confirm(
    *, table: Table, version: int, by_user: User, method: str = SheetConfirmation.Method.LOOK
) -> SheetConfirmation:
    """Confirm the sheet's ``version`` (the one looked at) for ``by_user``.

    Raises :class:`~tournament.errors.Refused`. Confirming a version that is confirmed already
    returns the first confirmation.
    """
    with sheet_locked(table) as table:
        latest, _own = _confirmable(table, by_user, version, ConfirmMethod(method))
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
        latest, own = _confirmable(table, by_user, version, ConfirmMethod.RETYPE)
        n_seats = table.seats.count()
        stored = SheetContent.of_version(latest, n_seats)
        typed = SheetContent.build(n_seats, cells, penalties)
        changes = sheet_changes(stored, typed)
        if changes:
            return RetypeOutcome(changes=changes, blind=own)
        confirmation = _store(latest, by_user, SheetConfirmation.Method.RETYPE)
        return RetypeOutcome(confirmation=confirmation, blind=own)


def _state(table: Table, latest: SheetVersion | None, saved_by: int | None) -> SheetState:
    return SheetState(
        saved=latest is not None,
        complete=latest is not None and table_sheet(table).status == SheetStatus.COMPLETE,
        saved_by=saved_by,
    )


def _confirmable(
    table: Table, by_user: User, version: int | None, method: ConfirmMethod
) -> tuple[SheetVersion, bool]:
    """The version ``by_user`` may confirm by ``method``, and whether it holds their own input
    (they saved it, or their input in it nobody else has seen); raises :class:`Refused`."""
    latest = sheet_latest_version(table)
    if latest is not None and version is not None and version != latest.number:
        raise Refused.because(ConfirmRefusal.CHANGED)
    rule = tournament_confirmation_rule(table.round.tournament)
    saved_by = latest.user_id if latest is not None else None
    state = _state(table, latest, saved_by)
    refusal = confirm_refusal(rule=rule, sheet=state, user=by_user.pk, method=method)
    own = saved_by == by_user.pk
    unseen: tuple[int, ...] = ()
    if refusal is None and not own and latest is not None:
        # Saved last by someone else, who may not have seen all of it: a merged save keeps
        # this person's input without showing it. Whoever typed that input is its author.
        unseen = sheet_unseen_input(table=table, version=latest, user_id=by_user.pk)
        if unseen:
            own = True
            state = _state(table, latest, by_user.pk)
            refusal = confirm_refusal(rule=rule, sheet=state, user=by_user.pk, method=method)
    if refusal is not None:
        if unseen:
            raise Refused([PlacedProblem(str(refusal), _unseen_message(refusal, unseen))])
        raise Refused.because(refusal)
    assert latest is not None  # a sheet never saved is refused above (NOTHING)
    return latest, own


def _unseen_message(refusal: ConfirmRefusal, deals: tuple[int, ...]) -> str:
    """Why a version holding this person's input nobody else has seen is refused, and what to
    do: someone else confirms it, or (where re-typing confirms) they re-type it."""
    where = ngettext("deal %(deals)s", "deals %(deals)s", len(deals)) % {
        "deals": get_text_list([str(deal) for deal in deals], _("and"))
    }
    why = _(
        "This version holds your own input in %(where)s, and nobody else has seen it: the "
        "saves after yours started from a page without it and were merged with it."
    ) % {"where": where}
    if refusal is ConfirmRefusal.RETYPE_OWN_SHEET:
        return " ".join((why, _("Confirm it by re-typing the paper form into an empty copy.")))
    return " ".join((why, _("So someone else on the team must confirm this version.")))


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
