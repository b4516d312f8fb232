"""The first dealer of a table, as the club plays it.

By the rules the table draws who deals first ("de bepaling"). A tournament either lets the site
decide (``Tournament.FirstDealerRule.SITE``: the top row deals first, marked on the printed
sheet) or has its tables draw (``DRAWN``: the printed sheet leaves the dealer open, and the
table tells the site before deal 1). The drawn dealer is stored as its seat
(``Table.first_dealer_seat``, the sheet's row): the rows never move, so the paper the table
already wrote on stays right, and ``scoring`` deals deal ``d`` from seat ``first + d - 1``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import models, transaction
from django.urls import resolve, reverse
from django.utils.translation import gettext_lazy as _

from tournament.adapter import started_table_ids
from tournament.errors import Place, Refused
from tournament.models import Table, Tournament


class FirstDealerRefusal(models.TextChoices):
    """Why the first dealer of a table was not set, or why deal 1 waits for it."""

    NOT_AT_TABLE = "not_at_table", _("Choose one of the players at this table.")
    SHEET_STARTED = (
        "sheet_started",
        _(
            "Deal 1 has been entered, so the first dealer is fixed. To correct it, empty the "
            "sheet first."
        ),
    )
    NEEDED = (
        "first_dealer_needed",
        _("Who deals first? The table draws the first dealer before deal 1 is entered."),
    )


def first_dealer_needed(table: Table) -> bool:
    """Whether the table still has to say who deals first before deal 1 can be entered: the
    tournament lets the tables draw and this one has not told the site (``table.round`` and its
    tournament are loaded). Under the site's rule the top row deals first."""
    rule = table.round.tournament.first_dealer_rule
    return rule == Tournament.FirstDealerRule.DRAWN and table.first_dealer_seat is None


def sheet_first_dealer_check(*, table: Table, started: bool) -> None:
    """Refuse a sheet with entries while its table's first dealer is not known yet (the
    bidding order is unknown); the save service asks before it stores anything."""
    if started and first_dealer_needed(table):
        raise Refused.because(
            FirstDealerRefusal.NEEDED, round=table.round.number, table=table.number
        )


@transaction.atomic
def table_first_dealer(*, table: Table, seat: int) -> Table:
    """The table drew cards for the first dealer ("de bepaling"): the player in ``seat`` (the
    sheet's row, 0-based) deals deal 1. The seats never move, so the printed sheet stays right.
    Refused once deal 1 has an entry; before that it may be set again, as a correction."""
    table = (
        Table.objects.select_for_update(of=("self",))
        .select_related("round__tournament")
        .get(pk=table.pk)
    )
    place: Place = {"round": table.round.number, "table": table.number}
    if not 0 <= seat < table.seats.count():
        raise Refused.because(FirstDealerRefusal.NOT_AT_TABLE, **place)
    if started_table_ids(Table.objects.filter(pk=table.pk)):
        raise Refused.because(FirstDealerRefusal.SHEET_STARTED, **place)
    if table.first_dealer_seat != seat:
        table.first_dealer_seat = seat
        table.save(update_fields=["first_dealer_seat"])
    return table


def first_dealer_url(table: Table, *, sheet_url: str, accounts: bool) -> str:
    """Where a sheet page posts ``seat=<row>`` to set the first dealer: the director's address
    on the team's pages, the table link's own on the link's page (``sheet_url``)."""
    if accounts:
        round_ = table.round
        return reverse(
            "table_first_dealer", args=[round_.tournament.slug, round_.number, table.number]
        )
    match = resolve(sheet_url)
    return reverse("table_entry_first_dealer", args=[match.kwargs["token"]])


def first_dealer_context(
    table: Table, players: Sequence[str], config: dict[str, Any], *, may_change: bool
) -> dict[str, Any]:
    """What ``sheets/_first_dealer.html`` draws: the question with a button per player while
    the table has not said who deals first, else who does and, while nothing is entered and
    ``may_change``, the way to correct it."""
    chosen = None if config["needed"] else table.first_dealer
    return {
        "needed": config["needed"],
        "url": config["url"],
        "may_change": may_change,
        "dealer": players[chosen] if chosen is not None and chosen < len(players) else None,
        "players": [{"seat": seat, "name": name} for seat, name in enumerate(players)],
    }
