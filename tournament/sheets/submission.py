"""What a sheet save takes and what it answers: the :class:`SheetSubmission` a page sends, the
:class:`SheetSaved` outcome, and the refusals (:class:`SheetRefusal` before the rules are looked
at, :class:`SheetProblems` for the rules, :class:`SheetConflict` for a box changed on both
sides). The save itself is ``tournament.sheets.services.sheet_record``."""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db import models
from django.utils.translation import gettext_lazy

from scoring.errors import Problem
from scoring.sheet import SheetResult
from tournament.adapter import TableSheet
from tournament.errors import PlacedProblem, Refused
from tournament.models import SheetVersion
from tournament.sheets.content import (
    BoxConflict,
    CellChange,
    Cells,
    SheetContent,
    SheetSplit,
    sheet_changes,
    sheet_merge,
)


class SheetRefusal(models.TextChoices):
    """Why a save was refused before the rules were looked at; nothing was stored."""

    MALFORMED = (
        "sheet_malformed",
        gettext_lazy("The sheet arrived incomplete. Reload the page and try again."),
    )
    UNKNOWN_VERSION = (
        "sheet_unknown_version",
        gettext_lazy(
            "Not saved: the sheet names a version that does not exist. Reload the page and try "
            "again."
        ),
    )
    KEY_REUSED = (
        "sheet_key_reused",
        gettext_lazy(
            "Not saved: this submission was already received with other content. Reload the "
            "page and try again."
        ),
    )
    TOO_MANY_CONFLICTS = (
        "sheet_too_many_conflicts",
        gettext_lazy(
            "Not saved: this sheet has too many refused saves already. Reload the page to see "
            "the sheet as it stands."
        ),
    )


class SheetProblems(Refused):
    """The sheet breaks rules of the game; nothing was stored.

    ``rule_problems`` are ``scoring``'s own problems (deal 1-based, seat index), so a form can
    put each message at its cell.
    """

    def __init__(self, placed: list[PlacedProblem], rule_problems: Iterable[Problem]) -> None:
        super().__init__(placed)
        self.rule_problems = tuple(rule_problems)


class SheetConflict(Exception):
    """Someone else saved the sheet after the writer's starting version and changed a box the
    writer changed too, to something else; nothing was applied.

    ``yours`` (what was submitted, kept as the conflict record ``rejected``) and ``theirs`` (the
    sheet as it stands, version ``current_number``, saved as ``current``) differ in
    ``changes``; ``conflicts`` are the boxes both changed differently from ``base`` (the
    version the writer started from), and ``merged`` is the sheet with everything else of
    both sides (``theirs`` at the conflicting boxes).
    """

    def __init__(
        self,
        *,
        base_number: int,
        current: SheetVersion | None,
        theirs: SheetContent,
        yours: SheetContent,
        rejected: SheetVersion,
        base: SheetContent | None = None,
    ) -> None:
        self.base_number = base_number
        self.current = current
        # The version in the way is a counted one, so it has its number.
        self.current_number = (current.number or 0) if current is not None else 0
        self.theirs = theirs
        self.yours = yours
        self.rejected = rejected
        self.changes = sheet_changes(theirs, yours)
        self.merged, self.conflicts = (
            sheet_merge(base, theirs, yours) if base is not None else (theirs, [])
        )
        if not self.conflicts:  # a retried record the sheet has caught up with: show it all
            self.conflicts = [
                BoxConflict(c.deal, c.seat, c.what, c.before, c.before, c.after)
                for c in self.changes
            ]
        super().__init__(
            f"sheet of table {rejected.table_id} is at version {self.current_number}, "
            f"the save started from version {base_number}"
        )


@dataclass(frozen=True, slots=True)
class SheetSubmission:
    """One save of a whole sheet as it was sent: what is on it (``cells`` and ``(deal, seat)``
    ``penalties``), the version it started from, the random key that makes a retry harmless,
    and who sent it how. A restore sends no cells: the version it restores has them."""

    base_version: int
    cells: Cells = field(default_factory=dict)
    penalties: tuple[tuple[int, int], ...] = ()
    idempotency_key: uuid.UUID | str | None = None
    by_user: AbstractBaseUser | AnonymousUser | None = None
    via: str = SheetVersion.Via.DIRECTOR
    ip: str | None = None
    restored_from: SheetVersion | None = None
    hold: bool = False  # count what is legal and keep the rest, rather than refuse it all
    # The table's draft as the sending page showed it (``sheet_draft_token``; "" for none), on
    # ``hold`` saves: a draft saved since by another device keeps the boxes this save leaves.
    draft_seen: str | None = None
    # The table's waiting photo the sending page showed (``photo_input``): the save that counts
    # the page keeps the photo with its version.
    photo_id: int | None = None

    def __post_init__(self) -> None:
        # Kept as values: a save that starts again on new seats reads them a second time.
        object.__setattr__(self, "cells", dict(self.cells))
        object.__setattr__(self, "penalties", tuple(tuple(p) for p in self.penalties))

    @property
    def key(self) -> uuid.UUID | None:
        return uuid.UUID(str(self.idempotency_key)) if self.idempotency_key else None


@dataclass(frozen=True, slots=True)
class SheetSaved:
    """The outcome of a save: the sheet's version now and whether this call stored it, and what
    breaks a rule on the sheet now (nothing, unless a retry got an earlier outcome back)."""

    version: int
    created: bool
    table_sheet: TableSheet
    replayed: bool = False
    changes: list[CellChange] = field(default_factory=list)
    problems: tuple[Problem, ...] = ()
    split: SheetSplit | None = None  # what was counted and what held back (``hold`` saves)
    merged: bool = False  # merged with a save made since the submission's base version
    draft_token: str = ""  # the table's draft after the save (``sheet_draft_token``)
    # The scores of ``table_sheet`` as the save computed them (``None``: not computed, or the
    # sheet breaks a rule), so that nothing after the save checks or scores it again.
    result: SheetResult | None = None

    @property
    def held(self) -> bool:
        return self.split is not None and self.split.held
