"""The table whose sheet a page shows (``TablePage``): its players in seat order, its sheet as
stored with its version, problems and scores, the input not counted yet, and the form that
opens it; and how the director's pages find a table (404 unless the tournament has it).
"""

from __future__ import annotations

from functools import cached_property

from django.shortcuts import get_object_or_404

from scoring.errors import Problem
from scoring.sheet import SheetResult
from tournament.adapter import TableSheet, table_sheet
from tournament.models import SheetPhoto, Table, Tournament
from tournament.sheets.content import SheetContent, SheetSplit, sheet_split
from tournament.sheets.drafts import sheet_draft_content
from tournament.sheets.first_dealer import first_dealer_needed
from tournament.sheets.forms import SheetForm
from tournament.sheets.photo_input import photo_over, sheet_waiting_photo
from tournament.sheets.selectors import sheet_version_number


class TablePage:
    """The table whose sheet a page shows, with its players in seat order; its sheet as stored
    and its version are read when first asked for (a save through the script needs neither:
    the save service reads the sheet itself, under its lock)."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.players: tuple[str, ...] = tuple(
            table.seats.order_by("position").values_list("player__name", flat=True)
        )

    @cached_property
    def stored(self) -> TableSheet:
        return table_sheet(self.table)

    @cached_property
    def version(self) -> int:
        return sheet_version_number(self.table)

    @cached_property
    def _checked(self) -> tuple[list[Problem], SheetResult | None]:
        return self.stored.checked()

    @property
    def problems(self) -> list[Problem]:
        """What breaks a rule on the sheet as stored, checked once for the page."""
        return self._checked[0]

    @property
    def result(self) -> SheetResult | None:
        """The scores of the sheet as stored; ``None`` while it breaks a rule."""
        return self._checked[1]

    @cached_property
    def first_dealer_needed(self) -> bool:
        """Whether the table must say who deals first before deal 1 (the table draws it)."""
        return first_dealer_needed(self.table) and not self.stored.has_entries

    @property
    def first_dealer(self) -> int | None:
        """The seat that deals deal 1; ``None`` while the table has not drawn it."""
        return None if self.first_dealer_needed else self.stored.sheet.first_dealer

    @cached_property
    def photo(self) -> SheetPhoto | None:
        """The table's photo whose reading waits to be checked (``sheets.photo_input``)."""
        return sheet_waiting_photo(self.table)

    @cached_property
    def draft(self) -> SheetSplit | None:
        """The table's input that is not counted (held back at its last save, and the reading
        of a photo waiting to be checked), as the split of the sheet typed; ``None`` when
        everything typed is counted and no photo waits."""
        counted = SheetContent.of_sheet(self.stored.sheet)
        typed = sheet_draft_content(self.table, counted)
        if self.photo is not None:
            typed = photo_over(typed or counted, self.photo.reading)
        if typed is None:
            return None
        split = sheet_split(counted, typed, first_dealer=self.stored.sheet.first_dealer)
        return split if split.held or self.photo is not None else None

    def form(self, *, draft: bool = True) -> SheetForm:
        """The sheet's form as the page opens it: the stored sheet, with the input that is not
        counted yet back in its boxes (``draft``: a page that edits)."""
        shown = (
            self.stored.sheet
            if not draft or self.draft is None
            else self.draft.submitted.sheet(first_dealer=self.stored.sheet.first_dealer)
        )
        return SheetForm(players=self.players, stored=shown, version=self.version)


def table_page(table: Table) -> TablePage:
    """The sheet of ``table`` (whose ``round.tournament`` is loaded) as a page shows it."""
    return TablePage(table)


def director_table(tournament: Tournament, round_number: int, table_number: int) -> TablePage:
    """The director's view of a table's sheet: 404 unless the tournament has that table."""
    table = get_object_or_404(
        Table.objects.select_related("round", "sheet_draft"),
        round__tournament=tournament,
        round__number=round_number,
        number=table_number,
    )
    table.round.tournament = tournament
    return table_page(table)
