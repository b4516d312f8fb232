"""The score sheet form: where its lines go, and its grid drawn as one image.

WeasyPrint lays out every table cell and shapes every text again on every page; as an HTML table
the form cost a round of 40 tables several seconds. So the grid (the boxes, the dealer's shaded
boxes with their "D") is one SVG image per table size, the same data URI on every page of that
size (WeasyPrint reads an image once per URL), and the page places only the texts over it: the
deal labels, the totals' names and the players. Image and texts share the millimetres below.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from urllib.parse import quote

from scoring.deals import DEAL_COUNT, dealer_seat

WIDTH = 277.0
"""The printable width of A4 landscape with 10 mm margins."""
NAME_WIDTH = 58.0
DEAL_WIDTH = 15.0
"""A deal's two boxes, bid and tricks won, 7.5 mm each."""
TOTAL_WIDTH = 13.5
TOTALS = 4
HEAD_HEIGHT = 17.0
BOX_LABELS_HEIGHT = 3.6
"""The strip at the bottom of the head that names the two boxes of each deal."""
DEALER_LINE_HEIGHT = 8.0
ROW_HEIGHTS = {3: 27.0, 4: 23.0, 5: 19.5, 6: 16.5}
"""Row heights that keep each table size on one page, blank sheets' dealer line included."""

THICK, MEDIUM, THIN, HAIR = 0.8, 0.6, 0.3, 0.25
SHADE = "#e0e0e0"
DIVIDER = "#555"
# A bold "D" (for dealer) 3.2 mm high, in relative moves from its top left corner, filled
# even-odd so that its bowl stays open.
D_PATH = "h1.3a1.6 1.6 0 0 1 0 3.2h-1.3zm0.7 0.65h0.55a0.95 0.95 0 0 1 0 1.9h-0.55z"
D_LEFT, D_TOP = 1.2, 1.1
"""Where the "D" sits in the dealer's box."""


def _mm(value: float) -> str:
    return f"{value:.2f}".rstrip("0").rstrip(".")


@dataclass(frozen=True, slots=True)
class FormGeometry:
    """The form of one table size; ``dealers`` marks the dealer's boxes (the seat
    ``first_dealer``, 0-based, deals deal 1), otherwise the form has a line to write the dealer
    of each deal (blank sheets, and the sheets of tables that draw their first dealer)."""

    n_seats: int
    dealers: bool
    first_dealer: int = 0

    @property
    def row_height(self) -> float:
        return ROW_HEIGHTS[self.n_seats]

    @property
    def body_top(self) -> float:
        return HEAD_HEIGHT + (0 if self.dealers else DEALER_LINE_HEIGHT)

    @property
    def height(self) -> float:
        return self.body_top + self.n_seats * self.row_height

    @property
    def row_height_css(self) -> str:
        return f"{_mm(self.row_height)}mm"

    @property
    def height_css(self) -> str:
        return f"{_mm(self.height)}mm"

    def deal_left(self, deal: int) -> float:
        return NAME_WIDTH + (deal - 1) * DEAL_WIDTH

    def dealer_boxes(self) -> list[tuple[int, int]]:
        """``(seat, deal)`` of every box marked as the dealer's (0-based seat)."""
        if not self.dealers:
            return []
        return [
            (dealer_seat(deal, self.n_seats, self.first_dealer), deal)
            for deal in range(1, DEAL_COUNT + 1)
        ]

    def svg(self) -> str:
        """The grid: shaded dealer boxes with a "D", every line, the outer frame.

        Lines of one kind are one path: WeasyPrint draws an SVG node by node on every page.
        """
        width, height, top, row = WIDTH, self.height, self.body_top, self.row_height
        deals_right = NAME_WIDTH + DEAL_COUNT * DEAL_WIDTH
        strokes: dict[tuple[float, str], list[str]] = {}

        def line(
            x1: float, y1: float, x2: float, y2: float, stroke: float, color: str = "#000"
        ) -> None:
            strokes.setdefault((stroke, color), []).append(
                f"M{_mm(x1)} {_mm(y1)}L{_mm(x2)} {_mm(y2)}"
            )

        labels_top = HEAD_HEIGHT - BOX_LABELS_HEIGHT
        line(NAME_WIDTH, labels_top, deals_right, labels_top, HAIR)
        for deal in range(1, DEAL_COUNT + 1):
            middle = self.deal_left(deal) + DEAL_WIDTH / 2
            line(middle, labels_top, middle, HEAD_HEIGHT, HAIR, DIVIDER)
            line(middle, top, middle, height, HAIR, DIVIDER)
        for deal in range(1, DEAL_COUNT + 2):
            line(self.deal_left(deal), 0, self.deal_left(deal), height, THICK)
        for total in range(1, TOTALS):
            x = deals_right + total * TOTAL_WIDTH
            line(x, 0, x, height, MEDIUM if total == TOTALS - 1 else THIN)
        for seat in range(1, self.n_seats):
            line(0, top + seat * row, width, top + seat * row, THIN)
        line(0, HEAD_HEIGHT, width, HEAD_HEIGHT, THICK)
        if not self.dealers:
            line(0, top, width, top, THICK)

        shades, marks = [], []
        for seat, deal in self.dealer_boxes():
            x, y = self.deal_left(deal), top + seat * row
            shades.append(f"M{_mm(x)} {_mm(y)}h{_mm(DEAL_WIDTH)}v{_mm(row)}h-{_mm(DEAL_WIDTH)}Z")
            marks.append(f"M{_mm(x + D_LEFT)} {_mm(y + D_TOP)}{D_PATH}")
        parts = [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{_mm(width)}mm" '
            f'height="{_mm(height)}mm" viewBox="0 0 {_mm(width)} {_mm(height)}">'
        ]
        if shades:
            parts.append(f'<path d="{"".join(shades)}" fill="{SHADE}"/>')
            parts.append(f'<path d="{"".join(marks)}" fill-rule="evenodd"/>')
        for (stroke, color), segments in strokes.items():
            parts.append(
                f'<path d="{"".join(segments)}" fill="none" stroke="{color}" '
                f'stroke-width="{_mm(stroke)}"/>'
            )
        half = THICK / 2
        parts.append(
            f'<rect x="{_mm(half)}" y="{_mm(half)}" width="{_mm(width - THICK)}" '
            f'height="{_mm(height - THICK)}" fill="none" stroke="#000" '
            f'stroke-width="{_mm(THICK)}"/></svg>'
        )
        return "".join(parts)


def _svg_data_uri(svg: str) -> str:
    return "data:image/svg+xml," + quote(svg)


@cache
def grid_image(n_seats: int, *, dealers: bool, first_dealer: int = 0) -> str:
    """The grid of a form as a data URI, the same string for every sheet of that size (and
    first dealer)."""
    return _svg_data_uri(FormGeometry(n_seats, dealers, first_dealer).svg())


DEALER_MARK = _svg_data_uri(
    '<svg xmlns="http://www.w3.org/2000/svg" width="5mm" height="5mm" viewBox="0 0 5 5">'
    f'<rect width="5" height="5" fill="{SHADE}"/>'
    f'<path d="M1.2 0.9{D_PATH}" fill-rule="evenodd"/></svg>'
)
"""The dealer's mark as it is on the form, for the legend."""
