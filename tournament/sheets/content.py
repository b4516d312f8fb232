"""What is written on a sheet, as the save service, the history and the confirmations compare
it: the cells and the penalty bollen, and the differences between two sheets."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from scoring.deals import DEAL_COUNT
from scoring.sheet import Sheet
from tournament.adapter import sheet_from_cells
from tournament.models import SheetVersion

Cells = Mapping[tuple[int, int], tuple[int | None, int | None]]
"""``{(deal, seat index): (bid, tricks)}``, as ``tournament.adapter.sheet_from_cells`` takes."""


@dataclass(frozen=True, slots=True)
class SheetContent:
    """What is written on a sheet: the non-empty cells and the penalty bollen, comparable."""

    n_seats: int
    cells: tuple[tuple[tuple[int, int], tuple[int | None, int | None]], ...]
    penalties: tuple[tuple[int, int], ...]

    @classmethod
    def build(
        cls, n_seats: int, cells: Cells, penalties: Iterable[tuple[int, int]] = ()
    ) -> SheetContent:
        """Normalise cells and ``(seat, deal)`` penalties; a place off the sheet is a bug."""
        kept = {}
        for (deal, seat), (bid, tricks) in cells.items():
            if not (1 <= deal <= DEAL_COUNT and 0 <= seat < n_seats):
                raise ValueError(f"no cell for deal {deal}, seat {seat} on a {n_seats}-seat sheet")
            if bid is not None or tricks is not None:
                kept[deal, seat] = (bid, tricks)
        return cls(n_seats, tuple(sorted(kept.items())), tuple(sorted(map(tuple, penalties))))

    @classmethod
    def of_sheet(cls, sheet: Sheet) -> SheetContent:
        cells = {
            (deal, seat): (entry.bids[seat], entry.tricks[seat])
            for deal, entry in enumerate(sheet.deals, start=1)
            for seat in range(sheet.n_seats)
        }
        return cls.build(sheet.n_seats, cells, ((p.seat, p.deal) for p in sheet.penalties))

    @classmethod
    def of_version(cls, version: SheetVersion, n_seats: int) -> SheetContent:
        cells = {
            (deal, seat): (pair[0], pair[1])
            for deal, row in enumerate(version.cells, start=1)
            for seat, pair in enumerate(row)
        }
        return cls.build(n_seats, cells, (tuple(p) for p in version.penalties))

    @property
    def cell_map(self) -> dict[tuple[int, int], tuple[int | None, int | None]]:
        return dict(self.cells)

    def sheet(self, *, first_dealer: int = 0) -> Sheet:
        """The sheet, with ``first_dealer`` (the table's) dealing deal 1."""
        return sheet_from_cells(
            self.n_seats, self.cell_map, self.penalties, first_dealer=first_dealer
        )

    def to_json(self) -> tuple[list, list]:
        """``(cells, penalties)`` in the form ``SheetVersion`` stores them."""
        cells = self.cell_map
        last = max((deal for deal, _seat in cells), default=0)
        rows = [
            [list(cells.get((deal, seat), (None, None))) for seat in range(self.n_seats)]
            for deal in range(1, last + 1)
        ]
        return rows, [list(p) for p in self.penalties]


@dataclass(frozen=True, slots=True)
class CellChange:
    """One difference between two sheets: a bid, tricks or the penalty bollen of one cell."""

    deal: int
    seat: int
    what: str  # "bid", "tricks" or "penalties"
    before: int | None
    after: int | None


def sheet_changes(before: SheetContent, after: SheetContent) -> list[CellChange]:
    """Every cell that differs, deal by deal and seat by seat."""
    old, new = before.cell_map, after.cell_map
    old_pen, new_pen = Counter(before.penalties), Counter(after.penalties)
    changes = []
    for deal in range(1, DEAL_COUNT + 1):
        for seat in range(max(before.n_seats, after.n_seats)):
            was, now = old.get((deal, seat), (None, None)), new.get((deal, seat), (None, None))
            for what, index in (("bid", 0), ("tricks", 1)):
                if was[index] != now[index]:
                    changes.append(CellChange(deal, seat, what, was[index], now[index]))
            if old_pen[seat, deal] != new_pen[seat, deal]:
                changes.append(
                    CellChange(deal, seat, "penalties", old_pen[seat, deal], new_pen[seat, deal])
                )
    return changes
