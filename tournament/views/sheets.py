"""The score sheet of one table: entering it, its history, and restoring an earlier version.

The page works as a plain HTML form; ``static/sheet.js`` adds rule hints while typing and sends
the same form with ``fetch`` (``X-Requested-With: XMLHttpRequest``), then gets JSON back: the
saved version and the server's scores, the problems at their boxes, or the conflict.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from scoring.checks import check_sheet
from scoring.deals import DEAL_COUNT, bidding_order, deal_spec
from scoring.errors import ErrorCode
from scoring.sheet import SheetResult
from tournament.adapter import TableSheet, table_sheet
from tournament.forms_sheets import RestoreForm, SheetForm, cell_score, sheet_grid
from tournament.models import Player, SheetVersion, Table, Tournament
from tournament.permissions import director_required
from tournament.problems import RULE_MESSAGES, deal_name, place_rule_problem
from tournament.services.sheets import (
    CellChange,
    SheetConflict,
    SheetContent,
    SheetProblems,
    SheetSaved,
    sheet_changes,
    sheet_record,
    sheet_restore,
    sheet_version_number,
    sheet_versions,
)


@dataclass(frozen=True, slots=True)
class TablePage:
    """The table whose sheet a page shows, its sheet as stored, its players and version."""

    table: Table
    stored: TableSheet
    players: tuple[str, ...]
    version: int


def _sheet(tournament: Tournament, round_number: int, table_number: int) -> TablePage:
    table = get_object_or_404(
        Table.objects.select_related("round"),
        round__tournament=tournament,
        round__number=round_number,
        number=table_number,
    )
    table.round.tournament = tournament
    stored = table_sheet(table)
    names = dict(Player.objects.filter(pk__in=stored.player_ids).values_list("pk", "name"))
    players = tuple(names[pk] for pk in stored.player_ids)
    return TablePage(table, stored, players, sheet_version_number(table))


def _wants_json(request: HttpRequest) -> bool:
    return request.headers.get("X-Requested-With") == "XMLHttpRequest"


def _result(stored: TableSheet) -> SheetResult | None:
    return None if check_sheet(stored.sheet) else stored.result()


def _js_config(tournament: Tournament, sheet: TablePage) -> dict:
    n = len(sheet.players)
    return {
        "storageKey": f"bollen-sheet:{tournament.slug}:{sheet.table.round.number}:"
        f"{sheet.table.number}",
        "deals": [
            {
                "deal": deal,
                "hand": deal_spec(deal).hand_size,
                "order": list(bidding_order(deal, n)),
            }
            for deal in range(1, DEAL_COUNT + 1)
        ],
        "messages": {
            "forbidden": _("not %(bid)s"),
            "dealer_bid": str(RULE_MESSAGES[ErrorCode.DEALER_BID]),
            "bid_range": str(RULE_MESSAGES[ErrorCode.BID_RANGE]),
            "tricks_range": str(RULE_MESSAGES[ErrorCode.TRICKS_RANGE]),
            "tricks_sum": str(RULE_MESSAGES[ErrorCode.TRICKS_SUM]),
            "unsaved": _("Changes not saved yet."),
            "saving": _("Saving…"),
            "saved": _("Saved"),
            "version": _("version %(number)s"),
            "offline": _(
                "Not connected — your input is kept on this device and will be sent as soon "
                "as there is a connection again."
            ),
            "signed_out": _(
                "Not saved: you are signed out. Your input is kept on this device; sign in "
                "again (in another tab) and it will be sent."
            ),
            "server_error": _(
                "Not saved: the server had a problem. Your input is kept on this device and "
                "will be sent again."
            ),
            "problems": _("Not saved: the sheet has mistakes, see the marked boxes."),
            "conflict": _("Not saved: someone else saved this sheet in the meantime."),
            "restored_local": _(
                "Input from this device that was not sent yet is back in the form."
            ),
        },
    }


def _page(request, tournament, sheet: TablePage, form: SheetForm, *, conflict=None, status=200):
    result = _result(sheet.stored) if form.is_bound is False else None
    columns, rows = sheet_grid(form, result)
    numbers = list(
        Table.objects.filter(round_id=sheet.table.round_id).values_list("number", flat=True)
    )
    here = numbers.index(sheet.table.number)
    stored_problems = []
    if not form.is_bound:
        stored_problems = [
            place_rule_problem(p, round=None, table=None, players=sheet.players)
            for p in check_sheet(sheet.stored.sheet)
        ]
    context = {
        "tournament": tournament,
        "tab": "rounds",
        "table": sheet.table,
        "round": sheet.table.round,
        "form": form,
        "columns": columns,
        "rows": rows,
        "result": _result_context(sheet.players, result),
        "status": sheet.stored.status,
        "version": sheet.version,
        "previous_table": numbers[here - 1] if here > 0 else None,
        "next_table": numbers[here + 1] if here + 1 < len(numbers) else None,
        "stored_problems": stored_problems,
        "conflict": _conflict_context(conflict, sheet.players) if conflict else None,
        "config": _js_config(tournament, sheet),
        "penalties_json": json.dumps([[p.seat, p.deal] for p in sheet.stored.sheet.penalties]),
    }
    return render(request, "sheets/sheet_edit.html", context, status=status)


def _result_context(players: tuple[str, ...], result: SheetResult | None) -> dict:
    if result is None:
        return {"complete": False, "deals_complete": None}
    return {
        "complete": result.complete,
        "deals_complete": result.deals_complete,
        "losers": [players[seat] for seat in result.losers],
        "bol_free": [players[seat] for seat in result.bol_free],
    }


EMPTY = "\N{EN DASH}"


def describe_change(change: CellChange, players: tuple[str, ...]) -> dict:
    """A change in words: where (deal and player), what (bid, tricks, penalty bollen), from
    what to what."""
    what = {"bid": _("bid"), "tricks": _("tricks"), "penalties": _("penalty bollen")}
    player = players[change.seat] if change.seat < len(players) else str(change.seat + 1)
    return {
        "deal": deal_name(change.deal),
        "player": player,
        "what": what[change.what],
        "before": EMPTY if change.before is None else change.before,
        "after": EMPTY if change.after is None else change.after,
    }


def _conflict_context(conflict: SheetConflict, players: tuple[str, ...]) -> dict:
    current = conflict.current
    return {
        "base": conflict.base_number,
        "current": conflict.current_number,
        "by": current.user.get_username() if current and current.user else None,
        "at": current.created_at if current else None,
        "changes": [describe_change(c, players) for c in conflict.changes],
    }


def _saved_payload(request, tournament, sheet: TablePage, saved: SheetSaved) -> dict:
    stored = saved.table_sheet
    result = _result(stored)
    form = SheetForm(players=sheet.players, stored=stored.sheet, version=saved.version)
    cells = [
        [
            {"state": str(c.state), "score": cell_score(c), "penalties": c.penalty_bollen}
            for c in deal_cells
        ]
        for deal_cells in (result.cells if result else ())
    ]
    totals = [
        [t.bollen, t.points, t.correct, t.tournament_points]
        for t in (result.totals if result else [])
    ]
    return {
        "outcome": "saved",
        "version": saved.version,
        "created": saved.created,
        "cells": cells,
        "totals": totals,
        "status": str(stored.status),
        "status_label": str(stored.status.label),
        "penalties": [[p.seat, p.deal] for p in stored.sheet.penalties],
        "penalties_html": render_to_string(
            "sheets/_penalties.html", {"form": form}, request=request
        ),
        "result_html": render_to_string(
            "sheets/_result.html",
            {"result": _result_context(sheet.players, result)},
            request=request,
        ),
    }


def _problems_payload(form: SheetForm) -> dict:
    boxes = []
    for index, cell_form in enumerate(form.cells.forms):
        for kind in ("bid", "tricks"):
            for error in cell_form.errors.get(kind, []):
                boxes.append(
                    {
                        "deal": index // form.n_seats + 1,
                        "seat": index % form.n_seats,
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


@director_required
@require_http_methods(["GET", "POST"])
def sheet_edit(
    request: HttpRequest, tournament: Tournament, round: int, table: int
) -> HttpResponse:
    sheet = _sheet(tournament, round, table)
    if request.method != "POST":
        form = SheetForm(players=sheet.players, stored=sheet.stored.sheet, version=sheet.version)
        return _page(request, tournament, sheet, form)

    form = SheetForm(
        request.POST, players=sheet.players, stored=sheet.stored.sheet, version=sheet.version
    )
    if form.is_valid():
        try:
            saved = sheet_record(
                table=sheet.table,
                cells=form.cell_values(),
                penalties=form.penalty_values(),
                base_version=form.cleaned_data["base_version"],
                idempotency_key=form.cleaned_data["idempotency_key"],
                by_user=request.user,
                via=SheetVersion.Via.DIRECTOR,
                ip=request.META.get("REMOTE_ADDR"),
            )
        except SheetProblems as exc:
            form.add_problems(exc.rule_problems)
        except SheetConflict as conflict:
            return _conflict_response(request, tournament, sheet, conflict)
        else:
            if _wants_json(request):
                return JsonResponse(_saved_payload(request, tournament, sheet, saved))
            if saved.created or saved.replayed:
                messages.success(
                    request, _("Saved (version %(number)s).") % {"number": saved.version}
                )
            else:
                messages.info(request, _("Nothing changed."))
            return redirect(request.get_full_path())
    if _wants_json(request):
        return JsonResponse(_problems_payload(form), status=422)
    return _page(request, tournament, sheet, form, status=422)


def _conflict_response(
    request, tournament, sheet: TablePage, conflict: SheetConflict
) -> HttpResponse:
    """Show both versions. The page's form keeps the writer's values, now based on the version
    that is in the way, so saving again puts them over it (the script does the same)."""
    if _wants_json(request):
        html = render_to_string(
            "sheets/_conflict.html",
            {
                "conflict": _conflict_context(conflict, sheet.players),
                "tournament": tournament,
                "table": sheet.table,
                "round": sheet.table.round,
            },
            request=request,
        )
        return JsonResponse(
            {"outcome": "conflict", "current_version": conflict.current_number, "html": html},
            status=409,
        )
    data = request.POST.copy()
    data["base_version"] = str(conflict.current_number)
    data["idempotency_key"] = str(uuid.uuid4())
    form = SheetForm(
        data, players=sheet.players, stored=sheet.stored.sheet, version=conflict.current_number
    )
    form.is_valid()  # it was valid a moment ago; this lays out its boxes
    return _page(request, tournament, sheet, form, conflict=conflict, status=409)


@director_required
def sheet_history(
    request: HttpRequest, tournament: Tournament, round: int, table: int
) -> HttpResponse:
    sheet = _sheet(tournament, round, table)
    versions = sheet_versions(sheet.table)
    n = len(sheet.players)
    by_number = {v.number: v for v in versions if v.number is not None}
    rows, previous = [], SheetContent.build(n, {})
    for version in versions:
        content = SheetContent.of_version(version, n)
        if version.number is None:
            base = by_number.get(version.base_number)
            before = SheetContent.of_version(base, n) if base else SheetContent.build(n, {})
        else:
            before = previous
            previous = content
        changes = [describe_change(c, sheet.players) for c in sheet_changes(before, content)]
        # Each restore button is its own submission, with its own key.
        rows.append({"version": version, "changes": changes, "key": uuid.uuid4()})
    rows.reverse()
    return render(
        request,
        "sheets/sheet_history.html",
        {
            "tournament": tournament,
            "tab": "rounds",
            "table": sheet.table,
            "round": sheet.table.round,
            "rows": rows,
            "version": sheet.version,
        },
    )


@director_required
@require_POST
def sheet_version_restore(
    request: HttpRequest, tournament: Tournament, round: int, table: int, pk: int
) -> HttpResponse:
    sheet = _sheet(tournament, round, table)
    if not SheetVersion.objects.filter(pk=pk, table=sheet.table).exists():
        raise Http404
    history = reverse("sheet_history", args=[tournament.slug, round, table])
    form = RestoreForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("The restore was not understood. Try again."))
        return redirect(history)
    try:
        saved = sheet_restore(
            table=sheet.table,
            version_id=pk,
            base_version=form.cleaned_data["base_version"],
            idempotency_key=form.cleaned_data["idempotency_key"],
            by_user=request.user,
            ip=request.META.get("REMOTE_ADDR"),
        )
    except SheetConflict:
        messages.error(
            request,
            _("Not restored: the sheet was saved in the meantime. Look at the history again."),
        )
        return redirect(history)
    except SheetProblems as exc:
        messages.error(
            request, _("Not restored: %(problems)s") % {"problems": " ".join(exc.lines())}
        )
        return redirect(history)
    if saved.created:
        messages.success(request, _("Restored as version %(number)s.") % {"number": saved.version})
    else:
        messages.info(request, _("The sheet already is like that; nothing changed."))
    return redirect("sheet_edit", slug=tournament.slug, round=round, table=table)
