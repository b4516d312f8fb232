"""A photographed score sheet read: which table's it is (its QR code), what every box holds,
chosen by the rules (``scoring.reading``), and which boxes a person must look at.

``read_sheet_photo`` is the one entry: the round page's and the table link's uploads and the
``read_sheet_photo`` command all read through it.
"""

from __future__ import annotations

import logging
import re
import time
from dataclasses import dataclass, field
from typing import TypedDict

import cv2
from django.utils.translation import gettext as _

from scoring.deals import DEAL_COUNT
from scoring.reading import BoxBelief, ChosenDeal, DealBeliefs, choose_sheet
from tournament.models import Round, Table, TableLink, Tournament
from tournament.photos import digits
from tournament.photos.grid import refined_rects
from tournament.photos.page import PX_PER_MM, Page, PageProblem, find_page
from tournament.printing.form import FormGeometry
from tournament.printing.sheet_layout import (
    FORM_LEFT,
    FORM_TOP,
    KINDS,
    Kind,
    LayoutBox,
    layout_boxes,
)

CERTAIN = 0.99
"""A box is pointed out unless the rules and the reader together give its value at least this
probability (``bench/photos.py`` measures what it lets through)."""
BOX_MARGIN_MM = 1.0
"""Cut around each box: a photo's straightening is off by a fraction of a millimetre, and a
digit may cross its box's line."""
PAGE_QUALITY = 80
"""The straightened page is kept as a JPEG of this quality, beside the grid for checking."""

logger = logging.getLogger(__name__)

TOKEN = re.compile(r"/s/([A-Za-z0-9_-]+)/?(?:[?#].*)?$")
"""A table link's address as the sheet's QR code has it (``table_entry``)."""

BoxKey = tuple[int, int, Kind]


class DealReading(TypedDict):
    deal: int
    bids: list[int | None]
    tricks: list[int | None]


@dataclass(frozen=True, slots=True)
class PhotoProblem:
    """Why a photo cannot be read, in the site's words."""

    message: str

    def as_json(self, file: str) -> dict[str, object]:
        return {"file": file, "problem": self.message}


@dataclass(frozen=True, slots=True)
class SheetPhotoReading:
    """What a photo of ``table``'s sheet says: ``deals`` (all 11, per printed row, ``None`` for
    an empty box), ``uncertain`` (the boxes to look at, ``(deal, row, kind)``), ``raw`` (every
    box as read on its own, before the rules), the straightened page (``page_jpeg``, ``px_per_mm``)
    and where each box is on it (``boxes``, ``[x, y, w, h]`` mm)."""

    table: Table
    deals: list[DealReading]
    uncertain: list[BoxKey]
    raw: dict[BoxKey, int | None]
    page_jpeg: bytes
    px_per_mm: float
    boxes: dict[BoxKey, list[float]]
    seconds: float = field(default=0.0, compare=False)

    @property
    def round(self) -> int:
        return self.table.round.number

    @property
    def table_number(self) -> int:
        return self.table.number

    def as_json(self, file: str) -> dict[str, object]:
        """The reading as ``read_sheet_photo`` prints it."""
        return {
            "file": file,
            "round": self.round,
            "table": self.table_number,
            "deals": self.deals,
            "uncertain": [list(key) for key in self.uncertain],
        }


def page_problem_message(code: str) -> str:
    messages = {
        "not_an_image": _("This file is not a photo the site can read (JPEG or PNG)."),
        "too_large": _("This photo has too many pixels; send it at most 60 megapixels."),
        "no_page": _(
            "No score sheet found in this photo: photograph the whole printed sheet, with its "
            "four black corner squares in view, and hold still."
        ),
        "marks_hidden": _(
            "Only one or two of the sheet's four black corner squares can be seen: photograph "
            "the whole sheet, nothing over its corners, and hold still."
        ),
        "blurred": _("This photo is too blurred to read: hold still and photograph it again."),
    }
    return messages[code]


def _table_of(page: Page, tournament: Tournament) -> Table | PhotoProblem:
    """The table whose sheet this is, by the QR code's private link (a replaced link still names
    its table: the paper was printed with it)."""
    if not page.qr_text:
        return PhotoProblem(
            _(
                "The sheet's QR code (top right) cannot be read in this photo: photograph it "
                "again, sharp and without glare on the code."
            )
        )
    match = TOKEN.search(page.qr_text)
    link = (
        TableLink.objects.select_related("table__round__tournament")
        .filter(token=match.group(1))
        .first()
        if match
        else None
    )
    if link is None:
        return PhotoProblem(_("This QR code is not that of a score sheet printed by this site."))
    table = link.table
    if table.round.tournament_id != tournament.pk:
        return PhotoProblem(
            _("This is a score sheet of another tournament, not of %(name)s.")
            % {"name": tournament.name}
        )
    state = Round.objects.with_state().get(pk=table.round_id).progress
    if state == Round.State.COMPLETE:
        return PhotoProblem(
            _(
                "Round %(round)s is complete: every sheet of it is counted. Correct table "
                "%(table)s's sheet on its sheet page."
            )
            % {"round": table.round.number, "table": table.number}
        )
    return table


def _geometry(table: Table, tournament: Tournament) -> FormGeometry:
    """The table's form as it was printed (``documents.round_sheet_forms``)."""
    drawn = tournament.first_dealer_rule == Tournament.FirstDealerRule.DRAWN
    return FormGeometry(table.seats.count(), not drawn, table.first_dealer_seat or 0)


def _found_boxes(page: Page, geometry: FormGeometry) -> list[LayoutBox]:
    """Every box where the page's lines really are (``grid``: a curled sheet moves them)."""
    columns = [FORM_LEFT + geometry.deal_left(d) for d in range(1, DEAL_COUNT + 2)]
    top = FORM_TOP + geometry.body_top
    rows = [top + r * geometry.row_height for r in range(geometry.n_seats + 1)]
    found_columns, found_rows = refined_rects(page.image, PX_PER_MM, columns=columns, rows=rows)
    boxes = []
    for box in layout_boxes(geometry):
        deal, row = box["deal"], box["row"]
        left, right = found_columns[row - 1][deal - 1], found_columns[row - 1][deal]
        upper, lower = found_rows[deal - 1][row - 1], found_rows[deal - 1][row]
        middle = (left + right) / 2
        x = left if box["kind"] == "bid" else middle
        rect = [round(v, 2) for v in (x, upper, middle - left, lower - upper)]
        boxes.append({**box, "rect_mm": rect})
    return boxes  # type: ignore[return-value]


def _belief(box: digits.BoxReading) -> BoxBelief:
    return BoxBelief(empty=box.empty, digits=box.digits)


def _chosen_json(chosen: list[ChosenDeal]) -> list[DealReading]:
    return [{"deal": d.deal, "bids": list(d.bids), "tricks": list(d.tricks)} for d in chosen]


def _uncertain(
    chosen: list[ChosenDeal], raw: dict[BoxKey, int | None], over_mark: set[BoxKey]
) -> list[BoxKey]:
    """The boxes to look at: not certain under the rules, read otherwise on their own (the
    rules overruled what the box looked like), or written into the printed "D"."""
    boxes: list[BoxKey] = []
    for deal in chosen:
        for kind, values, certainty in (
            ("bid", deal.bids, deal.bid_certainty),
            ("tricks", deal.tricks, deal.tricks_certainty),
        ):
            for row, (value, sure) in enumerate(zip(values, certainty, strict=True), start=1):
                key: BoxKey = (deal.deal, row, kind)  # type: ignore[assignment]
                if sure < CERTAIN or raw[key] != value or key in over_mark:
                    boxes.append(key)
    return sorted(boxes, key=lambda k: (k[0], k[1], KINDS.index(k[2])))


def read_sheet_photo(tournament: Tournament, data: bytes) -> SheetPhotoReading | PhotoProblem:
    """Read the photo ``data`` of one of ``tournament``'s printed score sheets."""
    started = time.perf_counter()
    try:
        page = find_page(data)
    except PageProblem as problem:
        return PhotoProblem(page_problem_message(problem.code))
    except (cv2.error, ValueError, MemoryError):
        # A file OpenCV chokes on (a damaged or hostile image): a problem with this photo,
        # told as such, never the server's error.
        logger.warning("A photo could not be decoded", exc_info=True)
        return PhotoProblem(page_problem_message("not_an_image"))
    table = _table_of(page, tournament)
    if isinstance(table, PhotoProblem):
        return table
    geometry = _geometry(table, tournament)
    layout = _found_boxes(page, geometry)
    crops = [page.crop(box["rect_mm"], BOX_MARGIN_MM) for box in layout]
    readings = digits.read_boxes(crops, PX_PER_MM)
    by_key = {
        (box["deal"], box["row"], box["kind"]): reading
        for box, reading in zip(layout, readings, strict=True)
    }
    rows = range(1, geometry.n_seats + 1)
    beliefs = [
        DealBeliefs(
            bids=tuple(_belief(by_key[(deal, row, "bid")]) for row in rows),
            tricks=tuple(_belief(by_key[(deal, row, "tricks")]) for row in rows),
        )
        for deal in range(1, DEAL_COUNT + 1)
    ]
    raw = {key: _belief(reading).best for key, reading in by_key.items()}
    chosen = choose_sheet(beliefs)
    ok, jpeg = cv2.imencode(".jpg", page.image, [cv2.IMWRITE_JPEG_QUALITY, PAGE_QUALITY])
    return SheetPhotoReading(
        table=table,
        deals=_chosen_json(chosen),
        uncertain=_uncertain(chosen, raw, {k for k, r in by_key.items() if r.over_mark}),
        raw=raw,
        page_jpeg=jpeg.tobytes() if ok else b"",
        px_per_mm=PX_PER_MM,
        boxes={(b["deal"], b["row"], b["kind"]): b["rect_mm"] for b in layout},
        seconds=time.perf_counter() - started,
    )
