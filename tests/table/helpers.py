"""Helpers for the table link tests: the link's address, a save through it, a legal change."""

from __future__ import annotations

from django.urls import reverse

from scoring.deals import DEAL_COUNT
from tests.sheets.helpers import form_data, stored_cells, stored_penalties
from tournament.models import Table, TableLink
from tournament.sheets.selectors import sheet_version_number

XHR = {"HTTP_X_REQUESTED_WITH": "XMLHttpRequest"}


def link_url(link: TableLink) -> str:
    return reverse("table_entry", args=[link.token])


def changed_cells(table: Table, deal: int = DEAL_COUNT) -> dict:
    """The table's stored (complete) sheet with two players' tricks in ``deal`` swapped: still
    legal, and a real change, so a save of it stores a new version."""
    cells = stored_cells(table)
    n = table.seats.count()
    tricks = [cells[deal, seat][1] for seat in range(n)]
    a, b = next((a, b) for a in range(n) for b in range(a + 1, n) if tricks[a] != tricks[b])
    cells[deal, a] = (cells[deal, a][0], tricks[b])
    cells[deal, b] = (cells[deal, b][0], tricks[a])
    return cells


def save_via_link(client, link: TableLink, cells: dict, *, key=None, base=None, penalties=None):
    """Post a sheet through the link the way the page's script does (JSON answer)."""
    table = link.table
    data = form_data(
        table.seats.count(),
        cells,
        stored_penalties(table) if penalties is None else penalties,
        base_version=sheet_version_number(table) if base is None else base,
        key=key,
    )
    return client.post(link_url(link), data, **XHR)


def clashing_cells(table, deal=10):
    """Two changes of the stored sheet from the same version that change one box differently:
    ``changed_cells`` and the same box's tricks set to a third value."""
    theirs, mine = changed_cells(table, deal=deal), stored_cells(table)
    seat = next(s for s in range(table.seats.count()) if theirs[deal, s] != mine[deal, s])
    bid, tricks = mine[deal, seat]
    mine[deal, seat] = (bid, next(v for v in range(3) if v not in (tricks, theirs[deal, seat][1])))
    return theirs, mine
