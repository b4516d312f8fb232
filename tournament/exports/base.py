"""The contract every export follows, and the writers that turn rows into files.

An exporter has a name, produces rows (a header and values), and renders itself to
``ExportFile(filename, content_type, data)``. CSV and Excel share the same rows, and text from
users is never turned into a formula in either.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol

from django.http import HttpResponse
from django.utils.formats import date_format
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.utils.translation import gettext as _
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE, Cell
from openpyxl.styles import Alignment, Font
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.worksheet import Worksheet

from tournament.exports.paging import sheet_paging

if TYPE_CHECKING:
    from tournament.models import Tournament

XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
CSV_TYPE = "text/csv; charset=utf-8"
JSON_TYPE = "application/json"
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
# A number that can still change shows a "*" after it (a number format: it stays a number).
PROVISIONAL_FORMAT = '0"*";-0"*";0"*"'
CREATOR = "Bollen-toernooi"
# Text one indent from the cell's left edge, so that a name never touches the number before it
# (Excel and LibreOffice indent only text aligned left or right, not by the default).
TEXT_INDENT = Alignment(horizontal="left", indent=1)
NUMBER_HEADER = Alignment(horizontal="right")
# The characters of a page header's line on an A4 page (upright, on its side) at 11 points in
# LibreOffice's fallback for Calibri, whose letters are the widest, within any sheet's margins.
HEADING_CHARACTERS = {True: 70, False: 105}


def xlsx_font(*, bold: bool = False, italic: bool = False, size: int = 11) -> Font:
    """Calibri, as openpyxl's default style, named on every styled cell: LibreOffice prints a
    font without a name in a serif."""
    return Font(name="Calibri", family=2, scheme="minor", sz=size, b=bold, i=italic)


TITLE_FONT = xlsx_font(bold=True, size=13)
# The title's row: as tall in every program (LibreOffice's fallback font is taller), so that
# the rows a page holds are known.
TITLE_ROW_POINTS = 18
HEADER_FONT = xlsx_font(bold=True)
PROVISIONAL_FONT = xlsx_font(italic=True)


@dataclass(frozen=True, slots=True)
class ExportFile:
    filename: str
    content_type: str
    data: bytes

    def response(self) -> HttpResponse:
        """The file as a download."""
        response = HttpResponse(self.data, content_type=self.content_type)
        response["Content-Disposition"] = content_disposition_header(True, self.filename)
        return response


def download_name(tournament: Tournament, what: str, extension: str) -> str:
    """``<slug>-<what>.<extension>``; ``what`` is in the language of the page it is asked from,
    so that a Dutch director downloads ``…-klassement.csv``."""
    return f"{tournament.slug}-{slugify(what)}.{extension}"


class Exporter(Protocol):
    """What every export provides."""

    def render(self) -> ExportFile: ...


@dataclass(frozen=True, slots=True)
class Rows:
    """A table of values: the header and the rows, as numbers and text.

    On an Excel sheet, and only there (a CSV file starts with its header, for the tools that
    read it): ``title`` is a heading above the header, ``notes`` are lines below the rows (a
    legend), and the numbers at ``marked`` (row and column index in ``rows``, from 0) can still
    change: they show a ``*`` and are italic, and stay numbers that sum and sort.
    """

    header: Sequence[str]
    rows: Sequence[Sequence[Any]]
    title: str = ""
    notes: Sequence[Sequence[Any]] = ()
    marked: frozenset[tuple[int, int]] = frozenset()


def csv_safe(value: Any) -> Any:
    """Text that a spreadsheet would read as a formula gets a leading apostrophe."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def csv_delimiter(language: str) -> str:
    """The separator Excel expects in that language: Dutch Excel splits on ";" (the comma is the
    decimal sign there), English Excel on ","."""
    return ";" if language == "nl" else ","


def render_csv(rows: Rows, *, delimiter: str = ",") -> bytes:
    """UTF-8 CSV with a byte-order mark so that Excel opens accents correctly."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=delimiter, lineterminator="\r\n")
    writer.writerow([csv_safe(h) for h in rows.header])
    for row in rows.rows:
        writer.writerow(["" if v is None else csv_safe(v) for v in row])
    return ("\ufeff" + buffer.getvalue()).encode("utf-8")


def new_workbook(title: str) -> Workbook:
    """A write-only workbook whose properties name this software and the file's subject."""
    workbook = Workbook(write_only=True)
    workbook.properties.creator = CREATOR
    workbook.properties.lastModifiedBy = CREATOR
    # The title is people's text (a competition's name): what an XML file cannot hold goes,
    # also from names stored before the site refused them.
    workbook.properties.title = ILLEGAL_CHARACTERS_RE.sub("", title)
    return workbook


def xlsx_printable(
    sheet: Worksheet,
    *,
    title_rows: str | None = None,
    orientation: Literal["portrait", "landscape"] = "landscape",
) -> None:
    """Printed from Excel: A4 landscape, as wide as one page, the header rows on every page."""
    sheet.page_setup.orientation = orientation
    sheet.page_setup.paperSize = Worksheet.PAPERSIZE_A4
    sheet.page_setup.fitToWidth = 1
    sheet.page_setup.fitToHeight = 0
    fit = sheet.sheet_properties.pageSetUpPr
    # openpyxl gives every sheet its page set-up properties; the stubs allow none.
    assert fit is not None
    fit.fitToPage = True
    if title_rows:
        sheet.print_title_rows = title_rows


def xlsx_heading(tournament: Tournament) -> str:
    """What every printed page says at the top left: the tournament's name and date, in the
    active language."""
    if tournament.date is None:
        return tournament.name
    return f"{tournament.name}, {date_format(tournament.date)}"


def xlsx_page_header(workbook: Workbook, heading: str) -> None:
    """Every sheet prints ``heading`` alone in the middle of the page header, and the sheet's
    name left and "Page 2 of 5" right in the footer, so that loose pages can be put back in
    order. Excel and LibreOffice print the three parts of a header or footer each from its own
    place, over each other where one is long: a tournament's name and date beside the sheet's
    name ran into it on an upright page. A heading too long for the page's width keeps its
    start and its end (the date)."""
    page = _("Page &P of &N")
    for sheet in workbook.worksheets:
        header, footer = sheet.oddHeader, sheet.oddFooter
        # openpyxl gives every sheet its header, footer and their parts; the stubs allow none.
        assert header is not None and footer is not None
        assert header.center is not None
        assert footer.left is not None and footer.right is not None
        upright = sheet.page_setup.orientation == "portrait"
        text = _shortened(ILLEGAL_CHARACTERS_RE.sub("", heading), HEADING_CHARACTERS[upright])
        # "&" starts a code in a header; a literal one is doubled.
        header.center.text = text.replace("&", "&&")
        footer.left.text = sheet.title.replace("&", "&&")
        footer.right.text = page


def _shortened(text: str, most: int) -> str:
    """``text``, or its start and its last third with "…" between them in ``most``
    characters."""
    if len(text) <= most:
        return text
    end = most // 3
    return f"{text[: most - end - 1].rstrip()}…{text[-end:].lstrip()}"


def xlsx_cell(sheet: Worksheet, value: Any, *, bold: bool = False) -> Cell:
    """A cell whose text is always stored as text, never as a formula, and without the control
    characters a workbook cannot hold (a name stored before they were refused)."""
    if isinstance(value, str):
        value = ILLEGAL_CHARACTERS_RE.sub("", value)
    cell = WriteOnlyCell(sheet, value=value)
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        cell.data_type = "s"
    if bold:
        cell.font = HEADER_FONT
    return cell


def xlsx_add_sheet(
    workbook: Workbook, title: str, rows: Rows, *, widths: Iterable[int] = ()
) -> Worksheet:
    """Add a sheet with a bold, frozen header row, an autofilter and sensible column widths;
    it prints landscape, one page wide, with the header on every page, and never ends on a
    near-empty page (``sheet_paging``). With ``rows.title`` the title stands in bold above the
    header (and on every page too); ``rows.notes`` follow the rows after an empty line; the
    ``rows.marked`` numbers show a ``*``."""
    # A write-only workbook makes write-only sheets, which print as a Worksheet does.
    sheet: Worksheet = workbook.create_sheet(title=ILLEGAL_CHARACTERS_RE.sub("", title)[:31])
    header_row = 2 if rows.title else 1
    given = list(widths)
    used: list[float] = []
    columns = [[r[i] for r in rows.rows[:500] if r[i] is not None] for i in range(len(rows.header))]
    for index, values in enumerate(columns):
        width = given[index] if index < len(given) else None
        if width is None:
            longest = max([len(str(rows.header[index]))] + [len(str(v)) for v in values])
            # Room for the indent of text (and of its bold header in a wider font).
            width = min(max(longest + (2 if _numbers(values) else 3), 6), 40)
        sheet.column_dimensions[get_column_letter(index + 1)].width = width
        used.append(width)
    sheet.freeze_panes = f"A{header_row + 1}"
    xlsx_printable(sheet, title_rows=f"1:{header_row}")
    if rows.title:
        sheet.row_dimensions[1].height = TITLE_ROW_POINTS
    below = len(rows.rows) + (1 + len(rows.notes) if rows.notes else 0)
    sheet_paging(sheet, below, used, header_row)
    if rows.header:
        last = get_column_letter(len(rows.header))
        sheet.auto_filter.ref = f"A{header_row}:{last}{len(rows.rows) + header_row}"
        # The cells it fills: LibreOffice widens the page for a last column's header aligned
        # left (into the empty column beside it) and shrinks the type to fit.
        sheet.print_area = f"A1:{last}{header_row + below}"
    if rows.title:
        title_cell = xlsx_cell(sheet, rows.title)
        title_cell.font = TITLE_FONT
        sheet.append([title_cell])
    sheet.append(
        [
            _header_cell(sheet, h, numbers=_numbers(v))
            for h, v in zip(rows.header, columns, strict=True)
        ]
    )
    for index, row in enumerate(rows.rows):
        sheet.append(
            [
                _row_value(sheet, v, marked=(index, column) in rows.marked)
                for column, v in enumerate(row)
            ]
        )
    if rows.notes:
        sheet.append([])
        for note in rows.notes:
            sheet.append([xlsx_cell(sheet, v) for v in note])
    return sheet


def _numbers(values: Sequence[Any]) -> bool:
    """Whether a column's values (``None`` left out) are numbers only, and some."""
    return bool(values) and all(isinstance(value, int | float) for value in values)


def _header_cell(sheet: Worksheet, header: Any, *, numbers: bool) -> Cell:
    """A column's bold header, over its values as they stand: to the right over numbers only,
    indented as text over the rest (clear of a number's header on its left)."""
    cell = xlsx_cell(sheet, header, bold=True)
    cell.alignment = NUMBER_HEADER if numbers else TEXT_INDENT
    return cell


def _row_value(sheet: Worksheet, value: Any, *, marked: bool) -> Any:
    """Only text and a marked number need a cell of their own (an indent and never a formula;
    the mark); openpyxl writes a number, a date or nothing given as it is just as in a cell."""
    if isinstance(value, str):
        return _indented(xlsx_cell(sheet, value))
    if marked and isinstance(value, int):
        cell = WriteOnlyCell(sheet, value=value)
        cell.number_format = PROVISIONAL_FORMAT
        cell.font = PROVISIONAL_FONT
        return cell
    return value


def _indented(cell: Cell) -> Cell:
    if isinstance(cell.value, str):
        cell.alignment = TEXT_INDENT
    return cell


def render_xlsx(title: str, sheets: Sequence[tuple[str, Rows]], *, heading: str = "") -> bytes:
    """A workbook called ``title`` with one sheet per (title, rows); ``heading`` at the top of
    every printed page."""
    workbook = new_workbook(title)
    for sheet_title, rows in sheets:
        xlsx_add_sheet(workbook, sheet_title, rows)
    xlsx_page_header(workbook, heading or title)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()
