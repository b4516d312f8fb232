"""The score sheet page's workings, shared by every page that shows a table's sheet: the
director's sheet page, the table's own link page, and the confirmation pages.

The page works as a plain HTML form; ``static/sheet.js`` adds rule hints while typing and sends
the same form with ``fetch`` (``X-Requested-With: XMLHttpRequest``), then gets JSON back: the
saved version and the server's scores, the problems at their boxes, or the conflict.
"""

from __future__ import annotations

import json
import uuid
from functools import cached_property

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified, JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from scoring.checks import check_sheet
from scoring.deals import DEAL_COUNT, bidding_order, deal_spec
from scoring.errors import ErrorCode, Problem
from scoring.sheet import SheetResult
from tournament.adapter import TableSheet, table_sheet
from tournament.errors import RULE_MESSAGES, Refused, deal_name, place_rule_problem
from tournament.models import Table, Tournament
from tournament.rounds.first_dealer import (
    first_dealer_context,
    first_dealer_needed,
    first_dealer_url,
)
from tournament.sheets.content import CellChange, SheetContent, SheetSplit, sheet_split
from tournament.sheets.forms import (
    BID_PROBLEMS,
    PENALTY_PROBLEMS,
    TRICKS_PROBLEMS,
    SheetForm,
    StoredPenalties,
)
from tournament.sheets.grid import cell_shown, sheet_grid, totals_shown
from tournament.sheets.phone import phone_done_message, phone_sheet_config
from tournament.sheets.selectors import sheet_state_tag
from tournament.sheets.services import (
    SheetConflict,
    SheetProblems,
    SheetRefusal,
    SheetSaved,
    SheetSubmission,
    sheet_draft_content,
    sheet_draft_token,
    sheet_version_number,
)


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
    def problems(self) -> list[Problem]:
        """What breaks a rule on the sheet as stored, checked once for the page."""
        return check_sheet(self.stored.sheet)

    @cached_property
    def result(self) -> SheetResult | None:
        """The scores of the sheet as stored; ``None`` while it breaks a rule."""
        return None if self.problems else self.stored.result()

    @cached_property
    def first_dealer_needed(self) -> bool:
        """Whether the table must say who deals first before deal 1 (the table draws it)."""
        return first_dealer_needed(self.table) and not self.stored.has_entries

    @property
    def first_dealer(self) -> int | None:
        """The seat that deals deal 1; ``None`` while the table has not drawn it."""
        return None if self.first_dealer_needed else self.stored.sheet.first_dealer

    @cached_property
    def draft(self) -> SheetSplit | None:
        """The table's input that is not counted (held back at its last save), as the split of
        the sheet typed; ``None`` when everything typed is counted."""
        counted = SheetContent.of_sheet(self.stored.sheet)
        typed = sheet_draft_content(self.table, counted)
        if typed is None:
            return None
        split = sheet_split(counted, typed, first_dealer=self.stored.sheet.first_dealer)
        return split if split.held else None

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


def wants_json(request: HttpRequest) -> bool:
    return request.headers.get("X-Requested-With") == "XMLHttpRequest"


def sheet_js_config(
    tournament: Tournament, sheet: TablePage, *, accounts: bool = True, first_dealer_url: str = ""
) -> dict:
    """The script's settings. ``accounts``: the director's page (signed in); without, the
    table's phone page (its private link), which opens at the first deal still to play.
    ``firstDealer``: whether deal 1 waits for the table to say who deals first, where to post
    ``seat=<row>`` to say it, and the players by row."""
    n = len(sheet.players)
    first = sheet.stored.sheet.first_dealer
    config = {
        "scrollToOpen": not accounts,
        "pollSeconds": settings.SHEET_POLL_SECONDS,
        "storageKey": f"bollen-sheet:{tournament.slug}:{sheet.table.round.number}:"
        f"{sheet.table.number}",
        "deals": [
            {
                "deal": deal,
                "hand": deal_spec(deal).hand_size,
                "order": list(bidding_order(deal, n, first)),
            }
            for deal in range(1, DEAL_COUNT + 1)
        ],
        "firstDealer": {
            "needed": sheet.first_dealer_needed,
            "url": first_dealer_url,
            "players": list(sheet.players),
        },
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
            )
            if accounts
            else _(
                "Not saved: this page has expired. Your input is kept on this device; reload "
                "the page and it will be sent."
            ),
            "server_error": _(
                "Not saved: the server had a problem. Your input is kept on this device and "
                "will be sent again."
            ),
            "problems": _("Not saved: the sheet has mistakes, see the marked boxes."),
            "conflict": _(
                "Another device typed something else in the same box. Choose below which "
                "value stays; nothing else is lost."
            ),
            "restored_local": _(
                "Input from this device that was not sent yet is back in the form."
            ),
        },
    }
    config["messages"].update(_saving_messages())
    # The phone sheet's keys (players, deals[].label and .kind, phone): sheets/phone.py.
    config = phone_sheet_config(config, sheet.players)
    config["phone"]["done"] = phone_done_message(tournament)
    return config


def _saving_messages() -> dict[str, str]:
    """The script's words for saves that hold part of the sheet back, for merges and for the
    order of the deals."""
    return {
        "play_first": _("play deal %(deal)s first"),
        "held": _("not saved"),
        "leave": _("Some input is not saved yet. Leave the page anyway?"),
        "deal_line": _("Deal %(deal)s:"),
    }


def sheet_context(
    tournament: Tournament,
    sheet: TablePage,
    form: SheetForm,
    *,
    sheet_url: str,
    conflict: SheetConflict | None = None,
    mode: str = "edit",
    accounts: bool = True,
) -> dict:
    """What ``sheets/_sheet.html`` draws: the grid, the scores, the problems and the script's
    settings. ``mode``: ``edit`` (saving as you type), ``readonly`` (looking it over) or
    ``retype`` (a blank grid sent as a plain form, to be compared)."""
    shows_stored = not form.is_bound and mode != "retype"
    result = sheet.result if shows_stored else None
    columns, rows = sheet_grid(form, result, first_dealer=sheet.first_dealer)
    stored_problems = []
    if shows_stored:
        stored_problems = [
            place_rule_problem(p, round=None, table=None, players=sheet.players)
            for p in sheet.problems
        ]
    config = sheet_js_config(
        tournament,
        sheet,
        accounts=accounts,
        first_dealer_url=first_dealer_url(sheet.table, sheet_url=sheet_url, accounts=accounts),
    )
    config["plain"] = mode == "retype"
    held = None
    if shows_stored and mode == "edit" and sheet.draft is not None:
        held = held_payload(sheet.draft, sheet.players)
        config["held"] = held
        config["statusText"] = status_text(sheet.draft.counted, held, sheet.version)
    if shows_stored and mode == "edit":
        config["draftSeen"] = sheet_draft_token(sheet.table)
    return {
        "tournament": tournament,
        "table": sheet.table,
        "round": sheet.table.round,
        "form": form,
        "columns": columns,
        "rows": rows,
        "result": _result_context(sheet.players, result),
        "status": sheet.stored.status_given(sheet.problems, sheet.result),
        "version": sheet.version,
        "stored_problems": stored_problems,
        "conflict": (
            _conflict_context(conflict, sheet.players, accounts=accounts) if conflict else None
        ),
        "config": config,
        "penalties_json": json.dumps([[p.seat, p.deal] for p in sheet.stored.sheet.penalties]),
        "sheet_url": sheet_url,
        "mode": mode,
        "first_dealer": first_dealer_context(
            sheet.table,
            sheet.players,
            config["firstDealer"],
            # The team's pages always; a table's link only where the tables draw.
            may_change=accounts or tournament.first_dealer_rule == Tournament.FirstDealerRule.DRAWN,
        ),
        "held": held,
    }


def _first_lower(text: str) -> str:
    text = text.rstrip(".")
    return text[:1].lower() + text[1:]


def held_payload(split: SheetSplit, players: tuple[str, ...]) -> dict:
    """What a save held back, in words, at its boxes: ``deals`` (``deal``, ``messages`` (every
    problem of the deal, the player's name before those at a box), ``deal_messages`` (those
    under the deal), ``boxes`` (``deal``, ``seat``, ``kind``, ``message``), ``values`` (per seat
    ``{"bid", "tricks"}`` as kept, another device's held input too)) and
    ``penalties`` (``seat``, ``deal``, ``message``)."""
    typed = split.submitted.cell_map
    deals = {
        deal: {
            "deal": deal,
            "messages": [],
            "deal_messages": [],
            "boxes": [],
            "values": [
                dict(zip(("bid", "tricks"), typed.get((deal, seat), (None, None)), strict=True))
                for seat in range(split.submitted.n_seats)
            ],
        }
        for deal in split.held_deals
    }
    penalties = []
    for problem in split.problems:
        placed = place_rule_problem(problem, round=None, table=None, players=players)
        if problem.code in PENALTY_PROBLEMS:
            if (problem.seat, problem.deal) in split.held_penalties:
                penalties.append(
                    {"seat": problem.seat, "deal": problem.deal, "message": str(placed)}
                )
            continue
        entry = deals.get(problem.deal)
        if entry is None:
            continue
        kind = (
            "bid"
            if problem.code in BID_PROBLEMS
            else "tricks"
            if problem.code in TRICKS_PROBLEMS
            else None
        )
        message = placed.message
        if problem.code == ErrorCode.DEAL_ORDER:
            message = _("Not saved yet: finish deal %(deal)s first.") % {
                "deal": problem.params["open_deal"]
            }
        if kind is not None and problem.seat is not None:
            entry["boxes"].append(
                {
                    "deal": problem.deal,
                    "seat": problem.seat,
                    "kind": kind,
                    "message": message,
                    "player": placed.player,
                }
            )
            entry["messages"].append(f"{placed.player}: {message}")
        else:
            entry["deal_messages"].append(message)
            entry["messages"].append(message)
    for entry in deals.values():
        if not entry["messages"]:
            wrong = [d for d, e in deals.items() if d < entry["deal"] and e["messages"]]
            if wrong:  # legal itself, after a deal that is not counted
                message = _("Not saved yet: finish deal %(deal)s first.") % {"deal": wrong[0]}
            else:  # legal itself, but counting it would leave a later deal out of order
                message = _("Not saved yet: the later deals would be out of order.")
            entry["messages"].append(message)
            entry["deal_messages"].append(message)
    return {"deals": list(deals.values()), "penalties": penalties}


def status_text(counted: SheetContent, held: dict | None, version: int) -> str:
    """The status line in words: what is saved and what is not, e.g. "Deals 1-4 saved · deal
    5: the tricks add up to 4; they must add up to 5"."""
    if not held or not (held["deals"] or held["penalties"]):
        return f"{_('Saved')} · {_('version %(number)s') % {'number': version}}"
    sheet = counted.sheet()
    last = next(
        (deal - 1 for deal, entry in enumerate(sheet.deals, 1) if not entry.is_complete),
        len(sheet.deals),
    )
    if last == 0:
        parts = [_("Nothing saved yet")]
    elif last == 1:
        parts = [_("Deal 1 saved")]
    else:
        parts = [_("Deals 1-%(last)s saved") % {"last": last}]
    for entry in held["deals"]:
        if entry["deal_messages"]:
            problem = _first_lower(entry["deal_messages"][0])
        else:
            first = entry["boxes"][0]
            problem = f"{first['player']}: {_first_lower(first['message'])}"
        parts.append(
            _("deal %(number)s: %(problem)s") % {"number": entry["deal"], "problem": problem}
        )
    for entry in held["penalties"]:
        parts.append(_first_lower(entry["message"]))
    return " · ".join(parts)


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


def _conflict_context(
    conflict: SheetConflict, players: tuple[str, ...], *, accounts: bool = True
) -> dict:
    """The conflict in words; ``accounts``: whether the page may name who saved (not to the
    holder of a table link)."""
    current = conflict.current
    what = {"bid": _("bid"), "tricks": _("tricks"), "penalties": _("penalty bollen")}
    boxes = []
    for c in conflict.conflicts:
        shown = {None: EMPTY}
        boxes.append(
            {
                "deal": deal_name(c.deal),
                "player": players[c.seat] if c.seat < len(players) else str(c.seat + 1),
                "what": what[c.what],
                "theirs": shown.get(c.theirs, c.theirs),
                "yours": shown.get(c.yours, c.yours),
                "field": f"{c.deal}-{c.seat}-{c.what}",
                "theirs_value": "" if c.theirs is None else c.theirs,
                "choosable": c.what != "penalties",
            }
        )
    return {
        "base": conflict.base_number,
        "current": conflict.current_number,
        "by": current.user.get_username() if accounts and current and current.user else None,
        "at": current.created_at if current else None,
        "changes": [describe_change(c, players) for c in conflict.changes],
        "boxes": boxes,
        "penalties": any(c.what == "penalties" for c in conflict.conflicts),
    }


def sheet_values(content: SheetContent) -> list[list[dict]]:
    """Every box of the sheet: per deal a list per seat of ``{"bid", "tricks"}``."""
    cells = content.cell_map
    return [
        [
            dict(zip(("bid", "tricks"), cells.get((deal, seat), (None, None)), strict=True))
            for seat in range(content.n_seats)
        ]
        for deal in range(1, DEAL_COUNT + 1)
    ]


def apply_picks(data, n_seats: int):
    """A conflict's choices as the form sends them: per conflicting box ``theirs-<deal>-<seat>-
    <kind>`` (the other side's value) and ``pick-...`` (``theirs`` or ``yours``), or
    ``pick_all``; the chosen value goes into the box. Returns the data to parse."""
    chosen = [name for name in data if name.startswith("theirs-")]
    if not chosen:
        return data
    data = data.copy()
    every = data.get("pick_all")
    for name in chosen:
        place = name.removeprefix("theirs-")
        try:
            deal, seat, kind = place.split("-")
            index = (int(deal) - 1) * n_seats + int(seat)
        except ValueError:
            continue  # not a box: the form refuses nothing it does not read
        if kind not in ("bid", "tricks") or not (0 <= int(seat) < n_seats):
            continue
        if (every or data.get(f"pick-{place}")) == "theirs":
            data[f"cell-{index}-{kind}"] = data[name]
    return data


def _saved_payload(request, tournament, sheet: TablePage, saved: SheetSaved) -> dict:
    held = (
        held_payload(saved.split, sheet.players) if saved.held else {"deals": [], "penalties": []}
    )
    # The save service has checked the sheet: what it found comes with the outcome.
    result = None if saved.problems else saved.table_sheet.result()
    payload = _sheet_payload(
        request, sheet, saved.table_sheet, saved.problems, result, held, saved.version
    )
    payload.update(
        {"created": saved.created, "merged": saved.merged, "draft_seen": saved.draft_token}
    )
    return payload


def _state_payload(request, sheet: TablePage) -> dict:
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


def sheet_poll(request: HttpRequest, table: Table, page) -> HttpResponse:
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
    request, sheet: TablePage, stored: TableSheet, problems, result, held: dict, version: int
) -> dict:
    status = stored.status_given(problems, result)
    penalties = StoredPenalties(players=sheet.players, stored=stored.sheet)
    cells = [[cell_shown(c) for c in deal_cells] for deal_cells in (result.cells if result else ())]
    totals = [list(totals_shown(t)) for t in (result.totals if result else [])]
    return {
        "outcome": "saved",
        "version": version,
        "cells": cells,
        "totals": totals,
        "status": str(status),
        "status_label": str(status.label),
        "penalties": [[p.seat, p.deal] for p in stored.sheet.penalties],
        "penalties_html": render_to_string(
            "sheets/_penalties.html", {"form": penalties}, request=request
        ),
        "result_html": render_to_string(
            "sheets/_result.html",
            {"result": _result_context(sheet.players, result)},
            request=request,
        ),
        "values": sheet_values(SheetContent.of_sheet(stored.sheet)),
        "held": held["deals"],
        "held_penalties": held["penalties"],
        "status_text": status_text(SheetContent.of_sheet(stored.sheet), held, version),
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


class SheetPage:
    """A page that shows a table's sheet and takes it back, whoever sends it: the steps every
    such page shares. A subclass says where the page is, how a sheet is saved there and how
    the page looks (the director's page and the table's link page).

    A posted sheet is parsed by the form, judged and stored by the save service, and answered
    as the script wants it (JSON) or as the plain form does (a redirect, or the page again with
    the problems or the conflict).
    """

    accounts = True  # whether the page may name the people who saved

    def __init__(self, request: HttpRequest, sheet: TablePage) -> None:
        self.request = request
        self.sheet = sheet

    @property
    def sheet_url(self) -> str:
        raise NotImplementedError

    def save(self, submission: SheetSubmission) -> SheetSaved:
        raise NotImplementedError

    def render(self, form: SheetForm, *, conflict=None, status: int = 200) -> HttpResponse:
        raise NotImplementedError

    def get(self, *, status: int = 200) -> HttpResponse:
        return self.render(self.sheet.form(), status=status)

    def refused(self, refused: Refused, *, status: int = 409) -> HttpResponse:
        """Nothing was stored: the script shows the message and stops sending; the plain form
        gets the page as stored, with the message."""
        if wants_json(self.request):
            return JsonResponse({"outcome": "refused", "message": refused.message}, status=status)
        messages.error(self.request, refused.message)
        return self.get(status=status)

    def post(self) -> HttpResponse:
        request, sheet = self.request, self.sheet
        form = SheetForm(apply_picks(request.POST, len(sheet.players)), players=sheet.players)
        if form.malformed:
            return self.refused(Refused.because(SheetRefusal.MALFORMED), status=400)
        if form.is_valid():
            # The script's saves hold back what breaks a rule and count the rest; the plain
            # form is answered all or nothing, with the problems at their boxes.
            submission = form.submission(
                by_user=request.user,
                ip=request.META.get("REMOTE_ADDR"),
                hold=wants_json(request),
                draft_seen=request.POST.get("draft_seen") if wants_json(request) else None,
            )
            try:
                saved = self.save(submission)
            except SheetProblems as exc:
                form.add_problems(exc.rule_problems)
            except SheetConflict as conflict:
                return self._conflict_response(conflict)
            except Refused as refused:
                return self.refused(refused)
            else:
                return self._saved_response(saved)
        if wants_json(request):
            return JsonResponse(_problems_payload(form), status=422)
        return self.render(form, status=422)

    def _saved_response(self, saved: SheetSaved) -> HttpResponse:
        request = self.request
        if wants_json(request):
            tournament = self.sheet.table.round.tournament
            return JsonResponse(_saved_payload(request, tournament, self.sheet, saved))
        if saved.created or saved.replayed:
            messages.success(request, _("Saved (version %(number)s).") % {"number": saved.version})
        else:
            messages.info(request, _("Nothing changed."))
        return redirect(request.get_full_path())

    def _conflict_response(self, conflict: SheetConflict) -> HttpResponse:
        """Show both versions. The page's form keeps the writer's values, now based on the
        version that is in the way, so saving again puts them over it (the script does the
        same)."""
        request, sheet = self.request, self.sheet
        if wants_json(request):
            html = render_to_string(
                "sheets/_conflict.html",
                {
                    "conflict": _conflict_context(conflict, sheet.players, accounts=self.accounts),
                    "sheet_url": self.sheet_url,
                },
                request=request,
            )
            return JsonResponse(
                {
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
                },
                status=409,
            )
        data = request.POST.copy()
        # The other side's boxes that do not conflict go in, so that saving again keeps them.
        clashing = {(c.deal, c.seat, c.what) for c in conflict.conflicts}
        n = len(sheet.players)
        merged = conflict.merged.cell_map
        for deal in range(1, DEAL_COUNT + 1):
            for seat in range(n):
                pair = merged.get((deal, seat), (None, None))
                for index, kind in ((0, "bid"), (1, "tricks")):
                    if (deal, seat, kind) not in clashing:
                        value = pair[index]
                        data[f"cell-{(deal - 1) * n + seat}-{kind}"] = (
                            "" if value is None else str(value)
                        )
        data["base_version"] = str(conflict.current_number)
        data["idempotency_key"] = str(uuid.uuid4())
        form = SheetForm(data, players=sheet.players, version=conflict.current_number)
        form.is_valid()  # it was valid a moment ago; this lays out its boxes
        return self.render(form, conflict=conflict, status=409)
