"""A photo's reading as input waiting on a table's sheet: what it puts in the boxes, which boxes
a person must look at, and the photo it came from, linked to the version that counts it.

A photo read on the round page or a table's link (``tournament.sheet_photos``) is kept as a
``SheetPhoto`` without a version: the table's photo waiting. The sheet pages open with its
reading in the boxes, over the sheet as counted, and count nothing of it until a person saves
the page (``SheetSubmission.photo_id``): that save links the photo to the version it stored.
Another device's saves meanwhile neither count the reading nor drop it.
"""

from __future__ import annotations

from typing import Any, TypedDict

from tournament.models import SheetPhoto, SheetVersion, Table
from tournament.sheets.content import SheetContent

Box = tuple[int, int, str]
"""``(deal, seat index, "bid" | "tricks")``."""


class PhotoReadingJson(TypedDict):
    """``SheetPhoto.reading``: the deals as read (row = seat index), the boxes the reader was
    not sure of, and where every box is on the straightened page (``"deal:row:kind"``: mm)."""

    deals: list[dict[str, Any]]
    uncertain: list[list[Any]]
    boxes: dict[str, list[float]]


class PhotoBox(TypedDict):
    """A box the sheet page points out: why (``doubt``: the reader was not sure; ``differs``:
    the photo says otherwise than the sheet as counted) and where on the photo (mm)."""

    deal: int
    seat: int
    kind: str
    why: str
    rect: list[float] | None


def box_key(deal: int, seat: int, kind: str) -> str:
    return f"{deal}:{seat}:{kind}"


def sheet_waiting_photo(table: Table) -> SheetPhoto | None:
    """The table's photo whose reading waits to be checked, without its bytes (one query)."""
    return (
        SheetPhoto.objects.filter(table=table, version__isnull=True, set_aside_at__isnull=True)
        .defer("photo", "page")
        .select_related("uploaded_by")
        .first()
    )


def photo_cells(reading: PhotoReadingJson, n_seats: int) -> dict[tuple[int, int], list[Any]]:
    """The boxes the photo has a digit in: ``{(deal, seat): [bid, tricks]}`` (``None`` where
    that box is empty); rows past the table's seats are left out."""
    cells: dict[tuple[int, int], list[Any]] = {}
    for entry in reading.get("deals", []):
        deal = int(entry["deal"])
        for kind, index in (("bids", 0), ("tricks", 1)):
            for seat, value in enumerate(entry.get(kind, [])[:n_seats]):
                if value is not None:
                    cells.setdefault((deal, seat), [None, None])[index] = int(value)
    return cells


def photo_over(content: SheetContent, reading: PhotoReadingJson) -> SheetContent:
    """``content`` with every box the photo has a digit in as the photo reads it. A box the
    photo shows empty keeps what ``content`` has: a photo never erases."""
    cells = content.cell_map
    for place, (bid, tricks) in photo_cells(reading, content.n_seats).items():
        had = cells.get(place, (None, None))
        cells[place] = (had[0] if bid is None else bid, had[1] if tricks is None else tricks)
    return SheetContent.build(content.n_seats, cells, content.penalties)


def photo_marks(reading: PhotoReadingJson, counted: SheetContent) -> list[PhotoBox]:
    """The boxes to look at, in the order of the deals and the rows: those the reader was not
    sure of, and those where the photo differs from the sheet as counted."""
    rects = reading.get("boxes", {})
    doubt = {(int(d), int(s), str(k)) for d, s, k in reading.get("uncertain", [])}
    stored = counted.cell_map
    differs = set()
    for (deal, seat), pair in photo_cells(reading, counted.n_seats).items():
        had = stored.get((deal, seat), (None, None))
        for index, kind in enumerate(("bid", "tricks")):
            if pair[index] is not None and had[index] is not None and pair[index] != had[index]:
                differs.add((deal, seat, kind))
    marks: list[PhotoBox] = []
    for deal, seat, kind in sorted(doubt | differs, key=lambda b: (b[0], b[2] != "bid", b[1])):
        if seat >= counted.n_seats:
            continue
        marks.append(
            {
                "deal": deal,
                "seat": seat,
                "kind": kind,
                "why": "differs" if (deal, seat, kind) in differs else "doubt",
                "rect": rects.get(box_key(deal, seat, kind)),
            }
        )
    return marks


def sheet_photo_link(*, table: Table, photo_id: int | None, version: SheetVersion | None) -> None:
    """A save from a page that showed the table's waiting photo (``photo_id``) counted it: the
    photo is kept with ``version``. (Under the table's lock, in the save's transaction.)"""
    if photo_id is None or version is None:
        return
    SheetPhoto.objects.filter(
        pk=photo_id, table=table, version__isnull=True, set_aside_at__isnull=True
    ).update(version=version)
