"""What ``sheets/_sheet.html`` draws (``sheet_context``): the grid, the scores, the problems as
stored, the held input and the conflict; and the script's settings (``sheet_js_config``):
the deals' bidding orders, the first-dealer question and the words it shows.
"""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _

from scoring.deals import DEAL_COUNT, bidding_order, deal_spec
from scoring.errors import ErrorCode
from scoring.sheet import SheetResult
from tournament.errors import RULE_MESSAGES, place_rule_problem
from tournament.models import Tournament
from tournament.sheets.conflict_context import conflict_context
from tournament.sheets.drafts import sheet_draft_token
from tournament.sheets.first_dealer import first_dealer_context, first_dealer_url
from tournament.sheets.forms import SheetForm
from tournament.sheets.grid import sheet_grid
from tournament.sheets.held import held_payload, status_text
from tournament.sheets.phone import phone_done_message, phone_sheet_config
from tournament.sheets.photo_context import photo_context
from tournament.sheets.submission import SheetConflict
from tournament.sheets.summary_heads import summary_heads
from tournament.sheets.table_page import TablePage


def sheet_js_config(
    tournament: Tournament, sheet: TablePage, *, accounts: bool = True, first_dealer_url: str = ""
) -> dict[str, Any]:
    """The script's settings. ``accounts``: the director's page (signed in); without, the
    table's phone page (its private link), which opens at the first deal still to play.
    ``firstDealer``: whether deal 1 waits for the table to say who deals first, where to post
    ``seat=<row>`` to say it, and the players by row."""
    n = len(sheet.players)
    first = sheet.stored.sheet.first_dealer
    # JSON for static/sheet.js, filled in by steps (the phone's keys, the held input).
    config: dict[str, Any] = {
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
            "not_saved_because": _("Not saved: %(reason)s"),
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
    photo_url: str = "",
) -> dict[str, Any]:
    """What ``sheets/_sheet.html`` draws: the grid, the scores, the problems and the script's
    settings. ``mode``: ``edit`` (saving as you type), ``readonly`` (looking it over) or
    ``retype`` (a blank grid sent as a plain form, to be compared). ``photo_url``: where the
    page's waiting photo is shown from (its straightened page), when one waits."""
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
    if shows_stored and mode == "edit" and sheet.draft is not None and sheet.draft.held:
        held = held_payload(sheet.draft, sheet.players)
        config["held"] = held
        config["statusText"] = status_text(sheet.draft.counted, held, sheet.version)
    photo = None
    if shows_stored and mode == "edit" and sheet.photo is not None and photo_url:
        photo = photo_context(sheet, form, photo_url)
        config["photo"] = photo["config"]
    if shows_stored and mode == "edit":
        config["draftSeen"] = sheet_draft_token(sheet.table)
    return {
        "tournament": tournament,
        "table": sheet.table,
        "round": sheet.table.round,
        "form": form,
        "columns": columns,
        "rows": rows,
        "result": result_context(sheet.players, result),
        "status": sheet.stored.status_given(sheet.problems, sheet.result),
        "version": sheet.version,
        "stored_problems": stored_problems,
        "conflict": (
            conflict_context(conflict, sheet.players, accounts=accounts) if conflict else None
        ),
        "config": config,
        # The stored penalty bollen, for the script to see what changed; a blank grid to re-type
        # holds none (re-typing is blind).
        "penalties_json": json.dumps(
            [] if mode == "retype" else [[p.deal, p.seat] for p in sheet.stored.sheet.penalties],
            separators=(",", ":"),
        ),
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
        "photo": photo,
        # The same boxes a row per deal (the read-only summary on a phone: sheets/_summary.html).
        "by_deal": [
            {"column": column, "cells": [row.cells[index] for row in rows]}
            for index, column in enumerate(columns)
        ]
        if mode == "readonly"
        else [],
        # Over the summary's columns: the names, or numbers and the names above the table.
        "summary_heads": summary_heads(sheet.players) if mode == "readonly" else "",
    }


def result_context(players: tuple[str, ...], result: SheetResult | None) -> dict[str, object]:
    if result is None:
        return {"complete": False, "deals_complete": None}
    return {
        "complete": result.complete,
        "deals_complete": result.deals_complete,
        "losers": [players[seat] for seat in result.losers],
        "bol_free": [players[seat] for seat in result.bol_free],
    }
