"""Helpers for the score sheet tests: stored cells, legal deals, the form's fields."""

from __future__ import annotations

import uuid

from scoring.deals import DEAL_COUNT
from tournament.adapter import table_sheet
from tournament.models import Table


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
    return [(p.seat, p.deal) for p in table_sheet(table).sheet.penalties]


# A legal 4-seat deal 1 (dealer seat 0, bidding 1, 2, 3, 0) and deal 2 (dealer seat 1).
DEAL_1 = {(1, 0): (0, 0), (1, 1): (1, 1), (1, 2): (1, 0), (1, 3): (0, 0)}
DEAL_2 = {(2, 0): (1, 1), (2, 1): (0, 0), (2, 2): (0, 1), (2, 3): (0, 0)}


def form_data(
    n_seats: int,
    cells: dict[tuple[int, int], tuple[int | None, int | None]],
    penalties: list[tuple[int, int]] = (),
    *,
    base_version: int = 0,
    key: uuid.UUID | str | None = None,
    removed: list[int] = (),
) -> dict[str, str]:
    """The fields the sheet page posts: one form per deal and seat, and the penalty rows."""
    data = {
        "base_version": str(base_version),
        "idempotency_key": str(key or uuid.uuid4()),
        "cell-TOTAL_FORMS": str(DEAL_COUNT * n_seats),
        "cell-INITIAL_FORMS": str(DEAL_COUNT * n_seats),
        "cell-MIN_NUM_FORMS": "0",
        "cell-MAX_NUM_FORMS": "1000",
        "penalty-TOTAL_FORMS": str(len(penalties) + 1),
        "penalty-INITIAL_FORMS": str(len(penalties)),
        "penalty-MIN_NUM_FORMS": "0",
        "penalty-MAX_NUM_FORMS": "1000",
        f"penalty-{len(penalties)}-seat": "",
        f"penalty-{len(penalties)}-deal": "",
    }
    for deal in range(1, DEAL_COUNT + 1):
        for seat in range(n_seats):
            index = (deal - 1) * n_seats + seat
            bid, tricks = cells.get((deal, seat), (None, None))
            data[f"cell-{index}-bid"] = "" if bid is None else str(bid)
            data[f"cell-{index}-tricks"] = "" if tricks is None else str(tricks)
    for index, (seat, deal) in enumerate(penalties):
        data[f"penalty-{index}-seat"] = str(seat)
        data[f"penalty-{index}-deal"] = str(deal)
        if index in removed:
            data[f"penalty-{index}-DELETE"] = "on"
    return data
