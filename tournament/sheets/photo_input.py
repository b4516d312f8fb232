"""A photo's reading as input waiting on a table's sheet: what it puts in the boxes, which boxes
a person must look at, and the photo it came from, linked to the version that counts it.

A photo read on the round page or a table's link (``tournament.sheet_photos``) is kept as a
``SheetPhoto`` without a version: the table's photo waiting. The sheet pages open with its
reading in the boxes, over the sheet as counted, and count nothing of it until a person saves
the page (``SheetSubmission.photo_id``): that save links the photo to the version it stored.
Another device's saves meanwhile neither count the reading nor drop it.

A stored reading came from the reader or from a club backup, which a person may have written
by hand: ``photo_reading_valid`` is the restore's check of it, and the functions here read
whatever is stored without failing, leaving out what is not valid (a sheet page must open
whatever a photo holds).
"""

from __future__ import annotations

from typing import Any, TypedDict

from scoring.deals import DEAL_COUNT, MAX_SEATS, deal_spec
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
    the photo says otherwise than the sheet as counted, ``saved`` then being the counted digit)
    and where on the photo (mm)."""

    deal: int
    seat: int
    kind: str
    why: str
    saved: int | None
    rect: list[float] | None


KINDS = ("bid", "tricks")


def box_key(deal: int, seat: int, kind: str) -> str:
    return f"{deal}:{seat}:{kind}"


def _whole(value: object, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _is_box(box: object) -> bool:
    """``[deal, seat, kind]``: a box of the sheet."""
    return (
        isinstance(box, list | tuple)
        and len(box) == 3
        and _whole(box[0], 1, DEAL_COUNT)
        and _whole(box[1], 0, MAX_SEATS - 1)
        and box[2] in KINDS
    )


def _is_rect(rect: object) -> bool:
    """``[x, y, w, h]`` mm: four numbers on the page (an integer of 400 digits is no float)."""
    return (
        isinstance(rect, list)
        and len(rect) == 4
        and all(
            isinstance(n, int | float) and not isinstance(n, bool) and -1000 <= n <= 1000
            for n in rect
        )
    )


def _deal_values(entry: object) -> tuple[int, list[Any], list[Any]] | None:
    """A deal as read, ``(deal, bids, tricks)``; ``None`` when it is not valid: its number
    1-11, at most ``MAX_SEATS`` boxes of each kind, each empty or 0 to the hand's size."""
    if not isinstance(entry, dict) or not _whole(entry.get("deal"), 1, DEAL_COUNT):
        return None
    deal: int = entry["deal"]
    hand = deal_spec(deal).hand_size
    rows = [entry.get("bids", []), entry.get("tricks", [])]
    for row in rows:
        if not isinstance(row, list) or len(row) > MAX_SEATS:
            return None
        if not all(v is None or _whole(v, 0, hand) for v in row):
            return None
    return deal, rows[0], rows[1]


def _box_of_key(key: object) -> Box | None:
    parts = key.split(":") if isinstance(key, str) else []
    if len(parts) != 3 or not all(p.isdigit() and p.isascii() for p in parts[:2]):
        return None
    box = (int(parts[0]), int(parts[1]), parts[2])
    return box if _is_box(box) else None


def _parts(reading: object) -> tuple[list[Any], list[Any], dict[Any, Any]]:
    """A stored reading's deals, uncertain boxes and box places, each empty when missing or
    of the wrong kind."""
    if not isinstance(reading, dict):
        return [], [], {}
    deals, uncertain, boxes = (reading.get(k) for k in ("deals", "uncertain", "boxes"))
    return (
        deals if isinstance(deals, list) else [],
        uncertain if isinstance(uncertain, list) else [],
        boxes if isinstance(boxes, dict) else {},
    )


def photo_reading_valid(reading: object) -> bool:
    """Whether ``reading`` is a ``PhotoReadingJson`` in every part: each deal once, numbered
    1-11, its values empty or 0 to the hand's size; the uncertain boxes and the box places
    boxes of the sheet, each place four numbers."""
    if not isinstance(reading, dict):
        return False
    deals, uncertain, boxes = (reading.get(k) for k in ("deals", "uncertain", "boxes"))
    if not (isinstance(deals, list) and isinstance(uncertain, list) and isinstance(boxes, dict)):
        return False
    values = [_deal_values(entry) for entry in deals]
    numbers = [v[0] for v in values if v is not None]
    return (
        len(numbers) == len(values) == len(set(numbers))
        and all(_is_box(box) for box in uncertain)
        and all(_box_of_key(key) is not None and _is_rect(r) for key, r in boxes.items())
    )


def photo_rects(reading: PhotoReadingJson) -> dict[str, list[float]]:
    """Where each box is on the straightened page (``"deal:seat:kind"``: mm), the valid
    places only."""
    _deals, _uncertain, boxes = _parts(reading)
    return {k: r for k, r in boxes.items() if _box_of_key(k) is not None and _is_rect(r)}


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
    that box is empty); rows past the table's seats, and deals not valid, are left out."""
    cells: dict[tuple[int, int], list[Any]] = {}
    deals, _uncertain, _boxes = _parts(reading)
    for entry in deals:
        values = _deal_values(entry)
        if values is None:
            continue
        deal, bids, tricks = values
        for index, row in enumerate((bids, tricks)):
            for seat, value in enumerate(row[:n_seats]):
                if value is not None:
                    cells.setdefault((deal, seat), [None, None])[index] = value
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
    rects = photo_rects(reading)
    _deals, uncertain, _boxes = _parts(reading)
    doubt = {(box[0], box[1], box[2]) for box in uncertain if _is_box(box)}
    stored = counted.cell_map
    differs: dict[tuple[int, int, str], int] = {}  # the box: its digit as counted
    for (deal, seat), pair in photo_cells(reading, counted.n_seats).items():
        had = stored.get((deal, seat), (None, None))
        for index, kind in enumerate(("bid", "tricks")):
            saved = had[index]
            if pair[index] is not None and saved is not None and pair[index] != saved:
                differs[deal, seat, kind] = saved
    marks: list[PhotoBox] = []
    for deal, seat, kind in sorted(doubt | set(differs), key=lambda b: (b[0], b[2] != "bid", b[1])):
        if seat >= counted.n_seats:
            continue
        saved = differs.get((deal, seat, kind))
        marks.append(
            {
                "deal": deal,
                "seat": seat,
                "kind": kind,
                "why": "doubt" if saved is None else "differs",
                "saved": saved,
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
