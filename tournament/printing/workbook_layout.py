"""How the ranking workbook looks and prints: its cell styles and each sheet's page set-up.

Every styled cell names its font (Calibri, the workbook's default): LibreOffice prints a font
without a name in a serif. Every sheet prints on A4 one page wide (fit to width, as many pages
down as it needs), upright unless that shrinks its type much, its header rows (and the round
sheets' name columns) on every page, the cells it fills as its print area, and the page header
and footer (``xlsx_page_header``) in margins of their own above and below them.

Excel and LibreOffice without Calibri measure columns differently (``tournament.exports.paging``):
LibreOffice prints a round sheet one page wide at about 72 % where Excel prints it at 97 %, and
its page holds 40 rows of players where Excel's holds 28. LibreOffice keeps a sheet's own page
breaks only while it fits the sheet to the page's width alone, so a round sheet whose rows fit
on one page at the smaller scale is fitted to one page tall (every program prints it on one
page), and a longer one is cut between tables for the larger scale (``round_page_starts``).
The other sheets are lists, which never end on a near-empty page (``paging.list_paging``).
"""

from __future__ import annotations

from collections.abc import Sequence
from copy import copy
from typing import Any

from openpyxl.cell import WriteOnlyCell
from openpyxl.cell.cell import Cell
from openpyxl.styles import Alignment, Border, Font, Side
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.page import PageMargins
from openpyxl.worksheet.worksheet import Worksheet

from tournament.exports import paging
from tournament.exports.base import HEADER_FONT, xlsx_cell, xlsx_printable
from tournament.exports.paging import (
    Orientation,
    excel_scale,
    printable_inches,
    sheet_paging,
)

BOLD = HEADER_FONT
CENTER = Alignment(horizontal="center")
LINE = Side(style="thin", color="808080")
# The header prints 0.3" below the paper's edge, the rows from 0.8": the heading's line (11 pt)
# stays clear of them in Excel and in LibreOffice, which takes the header's room from the top.
MARGINS = PageMargins(left=0.4, right=0.4, top=0.8, bottom=0.6, header=0.3, footer=0.3)
# A list prints upright (more rows a page) unless its type would shrink below 85 %.
UPRIGHT_SCALE = 0.85


def styled(
    sheet: Worksheet,
    value: Any,
    *,
    font: Font | None = None,
    alignment: Alignment | None = None,
    number: str | None = None,
    border: Border | None = None,
) -> Cell:
    """A cell with a font, alignment, number format or border. openpyxl files each style it is
    given by hashing it (a third of the workbook's time for 15,000 styled cells), so the first
    cell of each combination in a workbook is styled that way and the others share its style
    ids: one array for all of them, which nothing changes once a cell is made (a write-only cell
    is written as it is appended). ``value`` may be ``None``: an empty cell that shows its
    border."""
    cell = xlsx_cell(sheet, value) if isinstance(value, str) else WriteOnlyCell(sheet, value)
    if font is None and alignment is None and number is None and border is None:
        return cell
    styles = sheet.parent.__dict__.setdefault("_bollen_styles", {})
    key = (id(font), id(alignment), number, id(border))
    known = styles.get(key)
    if known is not None:
        cell._style = known[0]  # type: ignore[attr-defined]  # openpyxl's own, not in the stubs
        return cell
    if font is not None:
        cell.font = font
    if alignment is not None:
        cell.alignment = alignment
    if number is not None:
        cell.number_format = number
    if border is not None:
        cell.border = border
    # The styles are kept with the ids so that their ids are not reused.
    styles[key] = (copy(cell._style), font, alignment, border)  # type: ignore[attr-defined]
    return cell


def set_widths(sheet: Worksheet, widths: Sequence[float]) -> None:
    for index, width in enumerate(widths, start=1):
        sheet.column_dimensions[get_column_letter(index)].width = width


def widths_of(sheet: Worksheet, count: int) -> list[float]:
    """The widths set on the first ``count`` columns (Excel's default where none is)."""
    return [
        sheet.column_dimensions[get_column_letter(index)].width or 8.43
        for index in range(1, count + 1)
    ]


def fit_scale(widths: Sequence[float], orientation: Orientation) -> float:
    """The scale at which Excel prints columns of ``widths`` one page wide (at most 1)."""
    return excel_scale(widths, printable_inches(orientation, MARGINS)[0])


def fallback_scale(widths: Sequence[float]) -> float:
    """The scale at which LibreOffice without Calibri prints columns of ``widths`` one
    landscape page wide (at most 1): the smallest any program prints them at."""
    return paging.fallback_scale(widths, printable_inches("landscape", MARGINS)[0])


def rows_per_page(title_points: float, scale: float) -> int:
    """How many rows of the default height a landscape page holds below ``title_points`` of
    title rows at ``scale`` (Excel prints at a whole percentage, rounded down)."""
    return paging.rows_per_page(printable_inches("landscape", MARGINS)[1], title_points, scale)


def round_page_starts(
    sizes: Sequence[int], widths: Sequence[float], title_points: float
) -> list[int]:
    """Where the pages after the first start (the row from 0 below the title rows) for blocks
    of ``sizes`` rows that stay together (a table's players) under ``title_points`` of title
    rows: none if they fit on one page at ``fallback_scale`` (the sheet is then fitted to one
    page tall); otherwise a page takes blocks while they fit on it at the scale Excel fits
    ``widths`` to, the largest, and a block longer than a page has a page of its own."""
    if sum(sizes) <= rows_per_page(title_points, fallback_scale(widths)):
        return []
    per_page = rows_per_page(title_points, fit_scale(widths, "landscape"))
    starts: list[int] = []
    row = on_page = 0
    for size in sizes:
        if on_page and on_page + size > per_page:
            starts.append(row)
            on_page = 0
        row += size
        on_page += size
    return starts


def print_setup(
    sheet: Worksheet,
    *,
    widths: Sequence[float],
    rows: int,
    title_rows: str | None = None,
    title_columns: str | None = None,
    orientation: Orientation | None = None,
    paged: bool = True,
) -> None:
    """One page wide on A4, with ``rows`` rows of ``widths`` columns as the print area, the
    title rows (``"1:2"``) and columns (``"A:C"``) on every page, and the margins above.
    Upright unless told, or unless the columns would shrink to less than ``UPRIGHT_SCALE`` on
    an upright page. ``paged``: as a list, whose last page is never near-empty
    (``sheet_paging``); a round sheet has pages of its own."""
    if orientation is None:
        upright = fit_scale(widths, "portrait") >= UPRIGHT_SCALE
        orientation = "portrait" if upright else "landscape"
    xlsx_printable(sheet, title_rows=title_rows, orientation=orientation)
    if title_columns:
        sheet.print_title_cols = title_columns
    sheet.page_margins = MARGINS
    sheet.print_area = f"A1:{get_column_letter(len(widths))}{max(rows, 1)}"
    if paged:
        titles = int(title_rows.split(":")[1]) if title_rows else 0
        sheet_paging(sheet, rows - titles, widths, titles)
