"""Who may confirm a score sheet: the tournament's confirmation rule, in plain values.

A confirmation is a second look at a sheet against the paper form, by looking it over or by
re-typing the paper form blind into an empty copy (the cell diff then decides). The rule says
whose look counts:

- ``OTHER_PERSON``: someone other than the one who saved the version, either way.
- ``RETYPE``: anyone, the one who saved it included, by re-typing; looking over one's own save
  proves nothing, so that is refused (another person may still look it over).
- ``NONE``: sheets need no confirmation; every sheet counts as final.
- ``AUTO``: ``OTHER_PERSON`` when the team has two or more people, ``RETYPE`` for one person
  working alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class ConfirmationRule(StrEnum):
    AUTO = "auto"
    OTHER_PERSON = "other"
    RETYPE = "retype"
    NONE = "none"


class ConfirmMethod(StrEnum):
    LOOK = "look"
    RETYPE = "retype"


class ConfirmRefusal(StrEnum):
    """Why a sheet cannot be confirmed (now, by this person, this way)."""

    NOT_NEEDED = "not_needed"
    """The tournament confirms no sheets."""
    NOTHING = "nothing_to_confirm"
    """The sheet was never saved on the site."""
    NOT_COMPLETE = "sheet_not_complete"
    """Only a complete sheet without mistakes can be confirmed."""
    CHANGED = "sheet_changed"
    """The sheet was saved again after the version being confirmed."""
    OWN_SHEET = "own_sheet"
    """The person saved this version and the rule wants someone else."""
    RETYPE_OWN_SHEET = "retype_own_sheet"
    """The person saved this version: they may confirm it by re-typing only."""


# A team this large has a second pair of eyes, so "auto" asks for another person.
TEAM_FOR_OTHER_PERSON = 2


def rule_in_force(rule: ConfirmationRule | str, team_size: int) -> ConfirmationRule:
    """The rule that applies: ``AUTO`` resolved by the size of the team (never ``AUTO``)."""
    rule = ConfirmationRule(rule)
    if rule is ConfirmationRule.AUTO:
        if team_size >= TEAM_FOR_OTHER_PERSON:
            return ConfirmationRule.OTHER_PERSON
        return ConfirmationRule.RETYPE
    return rule


@dataclass(frozen=True, slots=True)
class SheetState:
    """What is known of a sheet's current version: whether it was ``saved`` on the site,
    whether the sheet is ``complete`` (all deals, no mistakes), and who saved it (an account
    id; ``None``: nobody known, e.g. a phone at the table without an account)."""

    saved: bool
    complete: bool
    saved_by: int | None = None


def confirm_refusal(
    *,
    rule: ConfirmationRule,
    sheet: SheetState,
    user: int | None,
    method: ConfirmMethod,
) -> ConfirmRefusal | None:
    """Why ``user`` cannot confirm ``sheet`` by ``method`` under ``rule`` (the rule in force,
    see :func:`rule_in_force`), or ``None`` when they can."""
    rule = ConfirmationRule(rule)
    if rule is ConfirmationRule.AUTO:
        raise ValueError("resolve AUTO with rule_in_force() first")
    if rule is ConfirmationRule.NONE:
        return ConfirmRefusal.NOT_NEEDED
    if not sheet.saved:
        return ConfirmRefusal.NOTHING
    if not sheet.complete:
        return ConfirmRefusal.NOT_COMPLETE
    own = sheet.saved_by is not None and sheet.saved_by == user
    if not own:
        return None
    if rule is ConfirmationRule.OTHER_PERSON:
        return ConfirmRefusal.OWN_SHEET
    if ConfirmMethod(method) is ConfirmMethod.LOOK:
        return ConfirmRefusal.RETYPE_OWN_SHEET
    return None


def confirm_methods(
    *, rule: ConfirmationRule, sheet: SheetState, user: int | None
) -> tuple[ConfirmMethod, ...]:
    """The ways ``user`` may confirm ``sheet`` now (empty: none), in the order to offer them."""
    return tuple(
        method
        for method in ConfirmMethod
        if confirm_refusal(rule=rule, sheet=sheet, user=user, method=method) is None
    )
