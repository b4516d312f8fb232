"""Where everything a reader looks for sits on a printed score sheet, in millimetres from the
page's top-left corner: the four alignment marks, the QR code and every bid and tricks box.

The print CSS places the sheet's parts at these same millimetres (``print.css``: the page's
margins, the head's height, the QR code's corner), and ``tests/printing`` checks them against
the PDF as WeasyPrint lays it out; so a photo of the sheet can be read from this module alone,
without rendering the page again.

The marks are ArUco markers (OpenCV's 4x4 dictionary, ids 0 to 3): square, black and white,
found at any angle and tell which corner they are, so a page photographed upside down is turned
the right way round.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypedDict
from urllib.parse import quote

from scoring.deals import DEAL_COUNT
from tournament.printing.form import DEAL_WIDTH, FormGeometry

PAGE_WIDTH, PAGE_HEIGHT = 297.0, 210.0
"""A4 landscape."""
MARGIN_TOP, MARGIN_LEFT = 9.0, 10.0
"""``@page``'s margins in print.css."""
HEAD_HEIGHT, HEAD_GAP = 30.0, 3.0
"""``.sheet-head``: its height and its bottom margin; the form starts under them."""
FORM_LEFT, FORM_TOP = MARGIN_LEFT, MARGIN_TOP + HEAD_HEIGHT + HEAD_GAP
QR_SIZE = 26.0
QR_LEFT = PAGE_WIDTH - MARGIN_LEFT - 34.0 + (34.0 - QR_SIZE) / 2
"""``.qr`` is 34 mm wide at the head's right edge, its image 26 mm square in the middle."""
QR_TOP = MARGIN_TOP

MARK_SIZE = 8.0
"""An alignment mark: 6 x 6 cells (a black border around 4 x 4 bits) of 1.33 mm."""
MARK_INSET = 5.0
"""From the paper's edges: inside what office printers print (they leave 3 to 5 mm)."""
MARK_BITS: tuple[tuple[str, ...], ...] = (
    ("1011", "0101", "0011", "0010"),
    ("0000", "1111", "1001", "1010"),
    ("0011", "0011", "0010", "1101"),
    ("1001", "1001", "0100", "0110"),
)
"""ArUco markers 0 to 3 of ``DICT_4X4_50`` (1 is white), for the top-left, top-right,
bottom-left and bottom-right corners."""

Kind = Literal["bid", "tricks"]
KINDS: tuple[Kind, Kind] = ("bid", "tricks")


class LayoutBox(TypedDict):
    deal: int
    row: int
    kind: Kind
    rect_mm: list[float]


@dataclass(frozen=True, slots=True)
class Mark:
    id: int
    left: float
    top: float

    @property
    def corners(self) -> list[tuple[float, float]]:
        """The mark's outer corners clockwise from its top-left, as OpenCV reports them."""
        x, y, s = self.left, self.top, MARK_SIZE
        return [(x, y), (x + s, y), (x + s, y + s), (x, y + s)]

    @property
    def style(self) -> str:
        """Its place in the sheet's ``<section>``, whose origin is the page's margin corner."""
        return (
            f"left: {self.left - MARGIN_LEFT:g}mm; top: {self.top - MARGIN_TOP:g}mm; "
            f"width: {MARK_SIZE:g}mm; height: {MARK_SIZE:g}mm"
        )

    @property
    def svg(self) -> str:
        """The mark as an SVG data URI: the black square, then its white bits."""
        white = "".join(
            f"M{col + 1} {row + 1}h1v1h-1z"
            for row, bits in enumerate(MARK_BITS[self.id])
            for col, bit in enumerate(bits)
            if bit == "1"
        )
        svg = (
            '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 6 6" '
            'shape-rendering="crispEdges">'
            f'<rect width="6" height="6"/><path d="{white}" fill="#fff"/></svg>'
        )
        return "data:image/svg+xml," + quote(svg)


_FAR = PAGE_WIDTH - MARK_INSET - MARK_SIZE
_LOW = PAGE_HEIGHT - MARK_INSET - MARK_SIZE
MARKS: tuple[Mark, ...] = (
    Mark(0, MARK_INSET, MARK_INSET),
    Mark(1, _FAR, MARK_INSET),
    Mark(2, MARK_INSET, _LOW),
    Mark(3, _FAR, _LOW),
)


def _round(value: float) -> float:
    return round(value, 2)


def box_rect(geometry: FormGeometry, *, deal: int, row: int, kind: Kind) -> list[float]:
    """``[x, y, w, h]`` in mm of one box: ``row`` counts from 1 (the top row)."""
    half = DEAL_WIDTH / 2
    x = FORM_LEFT + geometry.deal_left(deal) + (half if kind == "tricks" else 0.0)
    y = FORM_TOP + geometry.body_top + (row - 1) * geometry.row_height
    return [_round(x), _round(y), half, geometry.row_height]


def layout_boxes(geometry: FormGeometry) -> list[LayoutBox]:
    """Every bid and tricks box of every deal, deal by deal, row by row."""
    return [
        {
            "deal": deal,
            "row": row,
            "kind": kind,
            "rect_mm": box_rect(geometry, deal=deal, row=row, kind=kind),
        }
        for deal in range(1, DEAL_COUNT + 1)
        for row in range(1, geometry.n_seats + 1)
        for kind in KINDS
    ]


QR_RECT: list[float] = [_round(QR_LEFT), QR_TOP, QR_SIZE, QR_SIZE]


class LayoutPage(TypedDict):
    page: int
    round: int | None
    table: int | None
    size_mm: list[float]
    boxes: list[LayoutBox]


def pages_layout(sheets: list[tuple[int | None, int | None, FormGeometry]]) -> list[LayoutPage]:
    """The layout of printed sheets, one page each: ``(round, table, geometry)`` per page."""
    return [
        {
            "page": page,
            "round": round_number,
            "table": table,
            "size_mm": [PAGE_WIDTH, PAGE_HEIGHT],
            "boxes": layout_boxes(geometry),
        }
        for page, (round_number, table, geometry) in enumerate(sheets, start=1)
    ]
