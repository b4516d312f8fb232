"""The score sheet's grid as the page draws it: a box pair per deal and seat, the scores and
totals under them, and the hints the script gives while typing."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypedDict

from django.forms import BoundField
from django.utils.translation import gettext as _

from scoring.deals import DEAL_COUNT, deal_spec, dealer_hint, dealer_seat
from scoring.sheet import Cell, CellState, SeatTotals, SheetResult
from tournament.sheets.forms import SheetForm

# The form laid out as the paper sheet: a column per deal, a row per player, the totals.


@dataclass(frozen=True, slots=True)
class BoxError:
    """A message at one of the pair's boxes (``kind``: bid or tricks); shown as its words."""

    kind: str
    message: str

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True, slots=True)
class GridCell:
    """One player's bid and tricks boxes in one deal, with what the sheet shows around them."""

    deal: int
    seat: int
    bid: BoundField
    tricks: BoundField
    dealer: bool
    errors: list[BoxError]
    hint: str
    state: str
    score: str
    penalties: int


@dataclass(frozen=True, slots=True)
class GridRow:
    """A player's row: the 11 deals, then bollen, points, correct and tournament points."""

    seat: int
    name: str
    cells: list[GridCell]
    totals: dict[str, int] | None


@dataclass(frozen=True, slots=True)
class DealColumn:
    """A deal's column head (label, cards, dealer) and the deal's own problems."""

    deal: int
    label: str
    hand_size: int
    dealer: str
    errors: list[str]


def cell_score(cell: Cell) -> str:
    """A box pair's tournament points as the sheet shows them ("+3", or -2 with a real minus
    sign), once the deal is played or a penalty bol is given."""
    if cell.state not in (CellState.KEPT, CellState.BOL) and not cell.penalty_bollen:
        return ""
    points = cell.tournament_points
    return f"+{points}" if points > 0 else str(points).replace("-", "\N{MINUS SIGN}")


class CellShown(TypedDict):
    state: str
    score: str
    penalties: int


def cell_shown(cell: Cell | None) -> CellShown:
    """What a box pair shows once scored: its state, its points and its penalty bollen (the page
    draws it, and the script redraws it after a save)."""
    if cell is None:
        return {"state": "", "score": "", "penalties": 0}
    return {"state": str(cell.state), "score": cell_score(cell), "penalties": cell.penalty_bollen}


def totals_shown(totals: SeatTotals) -> dict[str, int]:
    """A seat's totals as the sheet shows them, by name (``data-total`` on the page), in the
    sheet's column order."""
    return {
        "bollen": totals.bollen,
        "points": totals.points,
        "correct": totals.correct,
        "tournament_points": totals.tournament_points,
    }


def _box_value(field: BoundField) -> int | None:
    value = field.value()
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) < 4:
        return int(value)
    return None


def _forbidden_hint(form: SheetForm, deal: int, first_dealer: int) -> tuple[int, str]:
    """The dealer's box hint "not 1" once the others have bid (and the dealer has not)."""
    bids = [_box_value(form.cell_form(deal, seat)["bid"]) for seat in range(form.n_seats)]
    bid = dealer_hint(deal, bids, first_dealer)
    dealer = dealer_seat(deal, form.n_seats, first_dealer)
    return dealer, "" if bid is None else _("not %(bid)s") % {"bid": bid}


def sheet_grid(
    form: SheetForm, result: SheetResult | None, *, first_dealer: int | None = 0
) -> tuple[list[DealColumn], list[GridRow]]:
    """The paper form's layout: a column per deal, a row per seat, and the totals.
    ``first_dealer``: the seat that deals deal 1; ``None`` while the table has not drawn it
    (then no box is marked as the dealer's)."""
    columns, hints, dealers = [], {}, {}
    for deal in range(1, DEAL_COUNT + 1):
        spec = deal_spec(deal)
        name = ""
        if first_dealer is not None:
            dealer, hint = _forbidden_hint(form, deal, first_dealer)
            hints[deal, dealer] = hint
            dealers[deal] = dealer
            name = form.players[dealer]
        columns.append(DealColumn(deal, spec.label, spec.hand_size, name, form.deal_errors[deal]))
    rows = []
    for seat, name in enumerate(form.players):
        cells = []
        for deal in range(1, DEAL_COUNT + 1):
            cell_form = form.cell_form(deal, seat)
            errors = [
                BoxError(kind, str(e))
                for kind in ("bid", "tricks")
                for e in cell_form.errors.get(kind, [])
            ]
            for kind in ("bid", "tricks"):
                if kind in cell_form.errors:
                    cell_form.fields[kind].widget.attrs["aria-invalid"] = "true"
            scored = result.cells[deal - 1][seat] if result else None
            cells.append(
                GridCell(
                    deal=deal,
                    seat=seat,
                    bid=cell_form["bid"],
                    tricks=cell_form["tricks"],
                    dealer=dealers.get(deal) == seat,
                    errors=errors,
                    hint=hints.get((deal, seat), ""),
                    **cell_shown(scored),
                )
            )
        totals = totals_shown(result.totals[seat]) if result else None
        rows.append(GridRow(seat, name, cells, totals))
    return columns, rows
