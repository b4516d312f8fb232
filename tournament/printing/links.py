"""Where a printed score sheet's QR code sends the table."""

from __future__ import annotations

from django.http import HttpRequest
from django.urls import reverse

from tournament.adapter import TableSheet
from tournament.models import Table
from tournament.services.table_links import table_link_ensure


def table_entry_url(request: HttpRequest, table_sheet: TableSheet) -> str:
    """The absolute URL of the table's private link, at which the table enters its own sheet.

    The link is made now if the table has none yet, so printing the sheets hands out the
    links; printing again gives the same link until the director revokes or replaces it.
    """
    table = Table(pk=table_sheet.table_id)
    link = table_link_ensure(table=table, by_user=request.user)
    return request.build_absolute_uri(reverse("table_entry", args=[link.token]))
