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
from typing import Any, Protocol

from django.http import HttpResponse
from django.utils.http import content_disposition_header
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.worksheet import Worksheet

XLSX_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
CSV_TYPE = "text/csv; charset=utf-8"
JSON_TYPE = "application/json"
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


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


class Exporter(Protocol):
    """What every export provides."""

    identifier: str
    verbose_name: str

    def render(self) -> ExportFile: ...


@dataclass(frozen=True, slots=True)
class Rows:
    """A table of values: the header and the rows, as numbers and text."""

    header: Sequence[str]
    rows: Sequence[Sequence[Any]]


def csv_safe(value: Any) -> Any:
    """Text that a spreadsheet would read as a formula gets a leading apostrophe."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def render_csv(rows: Rows) -> bytes:
    """UTF-8 CSV with a byte-order mark so that Excel opens accents correctly."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow([csv_safe(h) for h in rows.header])
    for row in rows.rows:
        writer.writerow(["" if v is None else csv_safe(v) for v in row])
    return ("\ufeff" + buffer.getvalue()).encode("utf-8")


def xlsx_cell(sheet: Worksheet, value: Any, *, bold: bool = False) -> WriteOnlyCell:
    """A cell whose text is always stored as text, never as a formula."""
    cell = WriteOnlyCell(sheet, value=value)
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        cell.data_type = "s"
    if bold:
        cell.font = Font(bold=True)
    return cell


def xlsx_add_sheet(
    workbook: Workbook, title: str, rows: Rows, *, widths: Iterable[int] = ()
) -> None:
    """Add a sheet with a bold, frozen header row, an autofilter and sensible column widths."""
    sheet = workbook.create_sheet(title=title[:31])
    widths = list(widths)
    for index in range(len(rows.header)):
        width = widths[index] if index < len(widths) else None
        if width is None:
            longest = max(
                [len(str(rows.header[index]))]
                + [len(str(r[index])) for r in rows.rows[:500] if r[index] is not None],
            )
            width = min(max(longest + 2, 6), 40)
        sheet.column_dimensions[get_column_letter(index + 1)].width = width
    sheet.freeze_panes = "A2"
    if rows.header:
        sheet.auto_filter.ref = f"A1:{get_column_letter(len(rows.header))}{len(rows.rows) + 1}"
    sheet.append([xlsx_cell(sheet, h, bold=True) for h in rows.header])
    for row in rows.rows:
        sheet.append([xlsx_cell(sheet, v) for v in row])


def render_xlsx(sheets: Sequence[tuple[str, Rows]]) -> bytes:
    """A workbook with one sheet per (title, rows)."""
    workbook = Workbook(write_only=True)
    for title, rows in sheets:
        xlsx_add_sheet(workbook, title, rows)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()
