"""The phone sheet's settings: what ``static/sheet_phone.js`` needs beyond the grid's script to
show the sheet deal by deal on a narrow screen (``sheets/_phone.html``). It is a layer on the
same form: the script taps the grid's boxes and reads the grid's messages and totals."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.deals import deal_spec
from tournament.models import Tournament


def deal_kind(deal: int) -> str:
    """A deal's kind in words, as the printed sheet explains 5Z and 5B."""
    spec = deal_spec(deal)
    if spec.blind:
        return _("Blind, no trump: bid before looking at the cards")
    if not spec.trump:
        return _("No trump")
    return _("Trump turned up")


def phone_messages() -> dict[str, object]:
    """The phone sheet's words (``%(name)s`` placeholders filled in by the script)."""
    return {
        "cards": [
            ngettext("%(cards)s card", "%(cards)s cards", n) % {"cards": n} for n in range(6)
        ],
        "deal": _("Deal %(number)s (%(label)s)"),
        "dealer": _("Dealer: %(name)s"),
        "dealer_tag": _("Dealer"),
        "turn": _("to bid"),
        "bid_button": _("%(name)s bids %(n)s"),
        "tricks_button": _("%(name)s, tricks: %(n)s"),
        # Beside a name in the tricks: what that player bid, so nobody scrolls back up.
        "bid_was": _("bid %(n)s"),
        "bids_first": _("The tricks come once everyone has bid."),
        "tricks_left": _("%(sum)s of %(hand)s tricks, %(left)s still to give"),
        "tricks_done": _("%(sum)s of %(hand)s tricks: they add up"),
        "tricks_over": _("%(sum)s of %(hand)s tricks: %(over)s too many"),
        "saved": _("saved"),
        "held": _("not saved yet"),
        "problem": _("to correct"),
        "open": _("to play"),
        # While re-typing the paper form (nothing is saved until it is compared).
        "typed": _("typed"),
        "to_type": _("to type"),
        "started": _("started"),
        "current": _("being played"),
        "clear_question": _("Clear every bid and trick of deal %(number)s?"),
        "clear_saved_question": _(
            "Deal %(number)s is saved and counts in the points. Clear all its bids and tricks?"
        ),
        "clear_later_first": _(
            "To clear this deal, clear deal %(number)s first: only the last deal with input "
            "can be cleared."
        ),
        "cleared": _("Deal %(number)s is cleared."),
        "first_dealer_failed": _("Not saved: no connection to the site. Tap again."),
    }


def phone_sheet_config(config: dict[str, Any], players: tuple[str, ...]) -> dict[str, Any]:
    """``config`` (the sheet script's settings) with the phone sheet's keys added: the players'
    names in row order, each deal's label and kind in words, and the phone's messages."""
    for deal in config["deals"]:
        deal["label"] = deal_spec(deal["deal"]).label
        deal["kind"] = deal_kind(deal["deal"])
    config["players"] = list(players)
    config["phone"] = phone_messages()
    return config


def phone_done_message(tournament: Tournament) -> str:
    """What the phone says once all eleven deals are saved: the next step, as the tournament's
    confirmation rule has it (the paper sheet goes to the director, who confirms it, unless
    sheets count without a confirmation)."""
    if tournament.confirmation_rule == Tournament.ConfirmationRule.NONE:
        return _(
            "The sheet is complete and saved. It counts as it is; keep the paper sheet until "
            "the tournament is over."
        )
    return _("The sheet is complete and saved. Hand the paper sheet to the tournament director.")
