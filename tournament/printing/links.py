"""Where a printed score sheet's QR code sends the table."""

from __future__ import annotations

from django.http import HttpRequest
from django.urls import reverse

from tournament.adapter import TableSheet


def table_entry_url(request: HttpRequest, table_sheet: TableSheet) -> str:
    """The absolute URL at which a table enters its scores.

    For now that is the director's sheet page of the table; a private per-table link will
    replace it here, and only here. Every page that prints sheets lives under ``t/<slug>/``,
    which names the tournament.
    """
    path = reverse(
        "sheet_edit",
        kwargs={
            "slug": request.resolver_match.kwargs["slug"],
            "round": table_sheet.round_number,
            "table": table_sheet.table_number,
        },
    )
    return request.build_absolute_uri(path)
