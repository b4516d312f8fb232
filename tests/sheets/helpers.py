"""Helpers for the score sheet tests: stored cells, legal deals, the form's fields."""

from __future__ import annotations

from tournament.adapter import table_sheet
from tournament.models import Table
from tournament.sheets.forms import sheet_form_data as form_data  # noqa: F401  the tests' name


def names(table: Table) -> list[str]:
    return list(table.seats.order_by("position").values_list("player__name", flat=True))


def stored_cells(table: Table) -> dict[tuple[int, int], tuple[int | None, int | None]]:
    sheet = table_sheet(table).sheet
    return {
        (deal, seat): (entry.bids[seat], entry.tricks[seat])
        for deal, entry in enumerate(sheet.deals, start=1)
        for seat in range(sheet.n_seats)
        if entry.bids[seat] is not None or entry.tricks[seat] is not None
    }


def stored_penalties(table: Table) -> list[tuple[int, int]]:
    """The table's penalty bollen as ``(deal, seat)`` pairs, the cells' key order."""
    return [(p.deal, p.seat) for p in table_sheet(table).sheet.penalties]


# A legal 4-seat deal 1 (dealer seat 0, bidding 1, 2, 3, 0) and deal 2 (dealer seat 1).
DEAL_1 = {(1, 0): (0, 0), (1, 1): (1, 1), (1, 2): (1, 0), (1, 3): (0, 0)}
DEAL_2 = {(2, 0): (1, 1), (2, 1): (0, 0), (2, 2): (0, 1), (2, 3): (0, 0)}
