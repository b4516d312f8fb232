"""The site's own records in the portable tournament file: what a backup needs beyond v1.

A v1 file holds the tournament (settings, players, seating, every sheet as it stands). A backup
must also give back what the site keeps around it: every sheet's history (``SheetVersion``,
conflict records included), the confirmations, the table links with their tokens (so printed QR
codes keep working after a restore) and the team by username. They travel in
``settings["x-site"]`` (see ``docs/tournament-file.md``): the v1 schema closes every object of
the file except ``settings``, so this is the one place where a v1 file may carry more and still
be a valid v1 file for every tool that reads one. Its own schema is
``formats/tournament-v1-site.schema.json``; the check is ``portable_site_check``.

Accounts and passwords are not in the file: names are restored onto the accounts of the same
username that exist in the database; the others are reported, never created.

The first dealer: v1 says ``seats[0]`` deals deal 1, while the site keeps the rows as printed
and stores the seat the table drew (``Table.first_dealer_seat``). So a table whose first dealer
is row k is written *turned* (``seats_turned``): its seats, every deal's bids and tricks, and
here every version's cells and penalty seats start at row k, so the file's own checks hold and
another tool reads a correct sheet. ``x-site`` keeps the rule and each table's drawn row, and
the restore turns the rows back (``seats_turned_back``) into their printed order.

This module keeps what writing and reading the record share; ``site_export`` writes it,
``site_reading`` checks it, ``site_restore`` stores it on an imported tournament.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TypeVar

from django.utils import timezone

from scoring.sheet import Sheet
from tournament.adapter import sheet_from_cells

SITE_KEY = "x-site"
SITE_VERSION = 1
SITE_SCHEMA_PATH = (
    Path(__file__).resolve().parent.parent / "formats" / "tournament-v1-site.schema.json"
)


T = TypeVar("T")


def seats_turned(row: Sequence[T], first: int) -> list[T]:
    """A table's row of values per seat (its seats, a deal's bids) in the file's order, which
    starts with the first dealer (row ``first`` of the printed sheet)."""
    return [*row[first:], *row[:first]]


def seats_turned_back(row: Sequence[T], first: int) -> list[T]:
    """The inverse of ``seats_turned``: a row of the file back in the printed order."""
    cut = (len(row) - first) % len(row) if row else 0
    return [*row[cut:], *row[:cut]]


# The file keeps a version's penalty bollen as ``[seat, deal]`` pairs (its contract with other
# tools, ``formats/tournament-v1-site.schema.json``); the site stores them ``[deal, seat]``, the
# cells' key order. These two are the only places the order is turned: reading a file's pairs,
# and writing the site's.


def penalties_from_file(penalties: Sequence[Sequence[int]]) -> list[list[int]]:
    """A file's ``[seat, deal]`` penalty pairs as the site keeps them: ``[deal, seat]``."""
    return [[deal, seat] for seat, deal in penalties]


def penalties_to_file(penalties: Sequence[Sequence[int]]) -> list[list[int]]:
    """The site's ``[deal, seat]`` penalty pairs as a file holds them: ``[seat, deal]``."""
    return [[seat, deal] for deal, seat in penalties]


def version_turned(
    cells: Sequence[Sequence[Any]],
    penalties: Sequence[Sequence[int]],
    first: int,
    n_seats: int,
    *,
    back: bool,
) -> tuple[list[list[Any]], list[list[int]]]:
    """A stored version's ``cells`` (one row per deal) and ``[deal, seat]`` penalties in the
    file's order and shape (``[seat, deal]`` penalties); with ``back``, a file's version in the
    printed order and the stored shape."""
    if back:
        return (
            [seats_turned_back(row, first) for row in cells],
            [[deal, (seat + first) % n_seats] for deal, seat in penalties_from_file(penalties)],
        )
    return (
        [seats_turned(row, first) for row in cells],
        penalties_to_file([[deal, (seat - first) % n_seats] for deal, seat in penalties]),
    )


def sheet_file_deals(sheet: Sheet) -> list[dict[str, Any]]:
    """The ``deals`` a v1 file holds for a sheet: complete bid rows only, and a deal whose
    tricks are not all in has ``tricks: []`` and is the last one."""
    deals = []
    for deal in sheet.deals:
        if any(bid is None for bid in deal.bids):
            break  # bidding still under way
        tricks = [] if any(t is None for t in deal.tricks) else list(deal.tricks)
        deals.append({"bids": list(deal.bids), "tricks": tricks})
        if not tricks:
            break
    return deals


# The times a file may hold: any page shows them in a time zone of its own, so a day's margin
# from the ends of Python's calendar (year 1, year 9999) keeps every zone inside it.
EARLIEST_TIME = datetime.datetime(2, 1, 1, tzinfo=datetime.UTC)
LATEST_TIME = datetime.datetime(9998, 12, 31, tzinfo=datetime.UTC)


def parse_time(value: str) -> datetime.datetime | None:
    """A date and time of the file (ISO 8601; without a zone: UTC), or ``None`` when it is not
    one, or lies at the ends of the calendar (year 1 or 9999), where no page could show it."""
    try:
        moment = datetime.datetime.fromisoformat(value)
    except ValueError:
        return None
    if timezone.is_naive(moment):
        moment = timezone.make_aware(moment, datetime.UTC)
    try:
        in_utc = moment.astimezone(datetime.UTC)
    except OverflowError:
        return None
    return moment if EARLIEST_TIME <= in_utc <= LATEST_TIME else None


def version_sheet(version: dict[str, Any], n_seats: int) -> Sheet:
    cells = {
        (deal, seat): (pair[0], pair[1])
        for deal, row in enumerate(version["cells"], start=1)
        for seat, pair in enumerate(row)
    }
    penalties = sorted(
        (deal, seat) for deal, seat in penalties_from_file(version.get("penalties", []))
    )
    return sheet_from_cells(n_seats, cells, penalties)
