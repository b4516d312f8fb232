"""The JSON answers the sheet script gets: a save's outcome (the version, the server's scores,
what was held back), the problems at their boxes, the conflict, and the idle page's poll
(``sheet_poll``: 304 while nothing changed, else the sheet as it stands).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from django.http import HttpRequest, HttpResponse, HttpResponseNotModified, JsonResponse
from django.template.loader import render_to_string

from scoring.deals import DEAL_COUNT
from scoring.errors import Problem
from scoring.sheet import SheetResult
from tournament.adapter import TableSheet
from tournament.models import Table, Tournament
from tournament.sheets.content import SheetContent
from tournament.sheets.drafts import sheet_draft_token
from tournament.sheets.forms import SheetForm, StoredPenalties, cell_place
from tournament.sheets.grid import cell_shown, totals_shown
from tournament.sheets.held import Held, held_payload, status_text
from tournament.sheets.page_context import result_context
from tournament.sheets.selectors import sheet_state_tag
from tournament.sheets.submission import SheetConflict, SheetSaved
from tournament.sheets.table_page import TablePage

if TYPE_CHECKING:
    from tournament.sheets.page import SheetPage

# A JSON answer as the script reads it (static/sheet.js).
Payload = dict[str, object]


def sheet_values(content: SheetContent) -> list[list[dict[str, int | None]]]:
    """Every box of the sheet: per deal a list per seat of ``{"bid", "tricks"}``."""
    cells = content.cell_map
    return [
        [
            dict(zip(("bid", "tricks"), cells.get((deal, seat), (None, None)), strict=True))
            for seat in range(content.n_seats)
        ]
        for deal in range(1, DEAL_COUNT + 1)
    ]


def saved_payload(
    request: HttpRequest, tournament: Tournament, sheet: TablePage, saved: SheetSaved
) -> Payload:
    held: Held = (
        held_payload(saved.split, sheet.players)
        if saved.split is not None and saved.held
        else {"deals": [], "penalties": []}
    )
    # The save service has checked and scored the sheet: what it found comes with the outcome.
    result = saved.result
    if result is None and not saved.problems:
        result = saved.table_sheet.result()  # not scored by the save (a hold that kept all)
    payload = _sheet_payload(
        request, sheet, saved.table_sheet, saved.problems, result, held, saved.version
    )
    payload.update(
        {"created": saved.created, "merged": saved.merged, "draft_seen": saved.draft_token}
    )
    return payload


def _state_payload(request: HttpRequest, sheet: TablePage) -> Payload:
    """The sheet as it stands now, in the shape of a save's answer (outcome ``state``): what
    an idle page puts in place when another device saved."""
    held = held_payload(sheet.draft, sheet.players) if sheet.draft else None
    payload = _sheet_payload(
        request,
        sheet,
        sheet.stored,
        sheet.problems,
        sheet.result,
        held or {"deals": [], "penalties": []},
        sheet.version,
    )
    payload.update({"outcome": "state", "draft_seen": sheet_draft_token(sheet.table)})
    return payload


def sheet_poll(request: HttpRequest, table: Table, page: Callable[[], SheetPage]) -> HttpResponse:
    """The idle sheet page's question "was it saved elsewhere?" (a GET with ``?state``): 304
    while the tag it sends as ``If-None-Match`` is the sheet's (two queries on a table's link),
    else the sheet as it stands. ``page``: makes the ``SheetPage``, only when needed."""
    tag = sheet_state_tag(table.pk)
    if request.headers.get("If-None-Match") == tag:
        response: HttpResponse = HttpResponseNotModified()
    else:
        response = JsonResponse(_state_payload(request, page().sheet))
    response["ETag"] = tag
    response["Cache-Control"] = "no-cache, private"
    return response


def _sheet_payload(
    request: HttpRequest,
    sheet: TablePage,
    stored: TableSheet,
    problems: Sequence[Problem],
    result: SheetResult | None,
    held: Held,
    version: int,
) -> Payload:
    status = stored.status_given(problems, result)
    penalties = StoredPenalties(players=sheet.players, stored=stored.sheet)
    cells = [[cell_shown(c) for c in deal_cells] for deal_cells in (result.cells if result else ())]
    totals = [totals_shown(t) for t in (result.totals if result else [])]
    return {
        "outcome": "saved",
        "version": version,
        "cells": cells,
        "totals": totals,
        "status": str(status),
        "status_label": str(status.label),
        "penalties": [[p.deal, p.seat] for p in stored.sheet.penalties],
        "penalties_html": render_to_string(
            "sheets/_penalties.html", {"form": penalties}, request=request
        ),
        "result_html": render_to_string(
            "sheets/_result.html",
            {"result": result_context(sheet.players, result)},
            request=request,
        ),
        "values": sheet_values(SheetContent.of_sheet(stored.sheet)),
        "held": held["deals"],
        "held_penalties": held["penalties"],
        "status_text": status_text(SheetContent.of_sheet(stored.sheet), held, version),
    }


def problems_payload(form: SheetForm) -> Payload:
    boxes = []
    for index, cell_form in enumerate(form.cells.forms):
        deal, seat = cell_place(form.n_seats, index)
        for kind in ("bid", "tricks"):
            for error in cell_form.errors.get(kind, []):
                boxes.append(
                    {
                        "deal": deal,
                        "seat": seat,
                        "kind": kind,
                        "message": str(error),
                    }
                )
    return {
        "outcome": "problems",
        "summary": [str(e) for e in form.non_field_errors()],
        "boxes": boxes,
        "deals": {str(deal): msgs for deal, msgs in form.deal_errors.items() if msgs},
        "penalties": form.penalty_errors,
    }


def conflict_payload(conflict: SheetConflict, html: str) -> Payload:
    """The conflict as the script shows it: ``html`` (both versions, drawn), the boxes that
    clash with both values, and every box of the two sides merged."""
    return {
        "outcome": "conflict",
        "current_version": conflict.current_number,
        "html": html,
        "conflicts": [
            {
                "deal": c.deal,
                "seat": c.seat,
                "kind": c.what,
                "theirs": c.theirs,
                "yours": c.yours,
            }
            for c in conflict.conflicts
        ],
        "values": sheet_values(conflict.merged),
    }
