"""How many rows an A4 page of a sheet holds, in Excel and in LibreOffice, and where a list's
pages end: no printed list ends on a near-empty page.

Excel measures a column in widths of a digit of its default font (7 pixels for Calibri 11);
LibreOffice without Calibri (and without Carlito, its twin) measures it in digits of its
fallback, DejaVu Sans, a third wider, so it fits a sheet to the page's width at a smaller scale
and its page holds more rows. A row is 15 points in both (the workbook's default height).

A list (``list_paging``) prints one page wide at the scale its columns allow. Where a program
would print its last page less than a third full, the list is fitted to one page fewer tall,
if that shrinks it to no less than ``FIT_SHRINK`` of the scale LibreOffice prints it at anyway
(nor below ``LEGIBLE_SCALE``): every program then prints it on that many pages. Otherwise its
pages are cut evenly by page breaks (which LibreOffice keeps only while it fits the sheet to
the page's width alone, never when it fits it to a number of pages tall).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from openpyxl.worksheet.page import PageMargins
from openpyxl.worksheet.pagebreak import Break, RowBreak
from openpyxl.worksheet.worksheet import Worksheet

Orientation = Literal["portrait", "landscape"]

A4_INCHES = (8.27, 11.69)
PIXELS_PER_INCH = 96
POINTS_PER_INCH = 72
DIGIT_PIXELS = 7  # Calibri 11
ROW_POINTS = 15  # Excel's default row height for Calibri 11
# A width unit of a column in LibreOffice without Calibri: a digit of DejaVu Sans 11, measured
# on its PDF (Excel's is 7 pixels, 5.25 points).
FALLBACK_UNIT_POINTS = 7.05
# A list shrinks to save its near-empty last page by no more than this...
FIT_SHRINK = 0.85
# ... and never below this scale (7 points for 11-point type).
LEGIBLE_SCALE = 0.65
# A last page under this share of a full one is near-empty.
NEAR_EMPTY = 1 / 3


def printable_inches(orientation: Orientation, margins: PageMargins) -> tuple[float, float]:
    """The width and height of an A4 page within ``margins``."""
    short, long = A4_INCHES
    width, height = (short, long) if orientation == "portrait" else (long, short)
    return width - margins.left - margins.right, height - margins.top - margins.bottom


def excel_scale(widths: Sequence[float], page_inches: float) -> float:
    """The scale at which Excel prints columns of ``widths`` one page of ``page_inches`` wide
    (at most 1)."""
    pixels = sum(int(width * DIGIT_PIXELS + 0.5) for width in widths)
    return min(1.0, page_inches * PIXELS_PER_INCH / pixels)


def fallback_scale(widths: Sequence[float], page_inches: float) -> float:
    """The scale at which LibreOffice without Calibri prints columns of ``widths`` one page of
    ``page_inches`` wide (at most 1): the smallest any program prints them at."""
    return min(1.0, page_inches * POINTS_PER_INCH / (sum(widths) * FALLBACK_UNIT_POINTS))


def rows_per_page(page_inches: float, title_points: float, scale: float) -> int:
    """How many rows of the default height a page ``page_inches`` tall holds below
    ``title_points`` of title rows at ``scale`` (Excel prints at a whole percentage, rounded
    down); at least one."""
    page = page_inches * POINTS_PER_INCH / (int(scale * 100) / 100)
    return max(1, int((page - title_points) // ROW_POINTS))


def _pages(rows: int, per_page: int) -> int:
    return max(1, math.ceil(rows / per_page))


def _near_empty(rows: int, per_page: int) -> bool:
    pages = _pages(rows, per_page)
    return pages > 1 and rows - (pages - 1) * per_page < NEAR_EMPTY * per_page


def _fitting_scale(rows: int, pages: int, page_inches: float, title_points: float) -> float:
    """The largest whole percentage at which ``rows`` fit on ``pages`` pages."""
    per_page = math.ceil(rows / pages)
    points = title_points + per_page * ROW_POINTS
    return math.floor(100 * page_inches * POINTS_PER_INCH / points) / 100


@dataclass(frozen=True, slots=True)
class Paging:
    """How a list prints down its pages: fitted to ``tall`` pages (0: as many as it needs),
    and the rows (from 0, below the title rows) that start a page after the first."""

    tall: int = 0
    starts: list[int] = field(default_factory=list)


def list_paging(
    rows: int,
    widths: Sequence[float],
    title_points: float,
    orientation: Orientation,
    margins: PageMargins,
) -> Paging:
    """The paging of ``rows`` rows of ``widths`` columns below ``title_points`` of title rows
    (on every page): as it comes, unless a program would leave its last page near-empty; then
    one page fewer tall where that shrinks it little (LibreOffice, holding the most rows a
    page, is asked first), else cut into Excel's number of pages, evenly (no page holds more
    rows than Excel's, so LibreOffice keeps the same breaks)."""
    width, height = printable_inches(orientation, margins)
    libre = fallback_scale(widths, width)
    excel = excel_scale(widths, width)
    floor = max(FIT_SHRINK * min(libre, excel), LEGIBLE_SCALE)
    excel_rows = rows_per_page(height, title_points, excel)
    for scale in (libre, excel):
        per_page = rows_per_page(height, title_points, scale)
        if not _near_empty(rows, per_page):
            continue
        fewer = _pages(rows, per_page) - 1
        if _fitting_scale(rows, fewer, height, title_points) >= floor:
            return Paging(tall=fewer)
        pages = _pages(rows, excel_rows)
        return Paging(starts=[round(page * rows / pages) for page in range(1, pages)])
    return Paging()


def title_points(sheet: Worksheet, title_rows: int) -> float:
    """The height of the first ``title_rows`` rows: each its own, or the default."""
    heights = [sheet.row_dimensions.get(row) for row in range(1, title_rows + 1)]
    return sum((row.height if row else None) or ROW_POINTS for row in heights)


def sheet_paging(sheet: Worksheet, rows: int, widths: Sequence[float], title_rows: int) -> None:
    """Page ``sheet`` (its orientation and margins set) by ``list_paging``: ``rows`` rows of
    ``widths`` columns below ``title_rows`` title rows. Paging it again replaces the last."""
    upright = sheet.page_setup.orientation == "portrait"
    orientation: Orientation = "portrait" if upright else "landscape"
    paging = list_paging(
        rows, widths, title_points(sheet, title_rows), orientation, sheet.page_margins
    )
    sheet.page_setup.fitToHeight = paging.tall
    sheet.row_breaks = RowBreak()
    for start in paging.starts:
        # Below the title rows and the rows before it (a row counted from 1).
        sheet.row_breaks.append(Break(id=title_rows + start))
