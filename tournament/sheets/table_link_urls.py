"""Where a printed score sheet's QR code sends the table: its private link, at the address
phones open (``tournament.venue.site_address``), never the name the director's browser used."""

from __future__ import annotations

from django.urls import reverse

from tournament.adapter import TableSheet
from tournament.models import Table, TableLink, Tournament
from tournament.permissions import AnyUser
from tournament.sheets.table_links import table_link_ensure, table_links_ensure


def table_link_url(link: TableLink, *, site: str) -> str:
    """The absolute URL of a table link, under ``site`` (``site_address.site_url()``)."""
    return site + reverse("table_entry", args=[link.token])


def table_entry_url(table_sheet: TableSheet, *, site: str, by_user: AnyUser | None = None) -> str:
    """The absolute URL of the table's private link, at which the table enters its own sheet.

    The link is made now if the table has none yet (by ``by_user``; ``None`` from a command), so
    printing the sheets hands out the links; printing again gives the same link until the
    director revokes or replaces it.
    """
    link = table_link_ensure(table=Table(pk=table_sheet.table_id), by_user=by_user)
    return table_link_url(link, site=site)


def table_entry_urls(
    *, tournament: Tournament, round_number: int, site: str, by_user: AnyUser | None = None
) -> dict[int, str]:
    """:func:`table_entry_url` of every table of a round, by table id, in a fixed number of
    queries however many tables."""
    table_ids = list(
        Table.objects.filter(round__tournament=tournament, round__number=round_number).values_list(
            "pk", flat=True
        )
    )
    links = table_links_ensure(table_ids=table_ids, by_user=by_user)
    return {table_id: table_link_url(link, site=site) for table_id, link in links.items()}
