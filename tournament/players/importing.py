"""Reading player lists: pasted text, CSV and Excel, checked before anything is stored.

Spreadsheets come from strangers' laptops, so an upload is checked before it is parsed: its
size, and for Excel (a zip file) the number of entries and their uncompressed size, which
refuses zip bombs; openpyxl parses the XML with defusedxml, which refuses entity expansion
("billion laughs"). Only the columns a name or a club can come from are kept. Where the
players are in the table it holds (its header row, its name and club columns) is found in
``layout``; every row then gets its problems named with its line number.
"""

from __future__ import annotations

import csv
import datetime
import io
import re
import zipfile
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from openpyxl import load_workbook
from openpyxl.worksheet._read_only import ReadOnlyWorksheet

from tournament.models import Player
from tournament.names import folded
from tournament.players.layout import (
    GIVEN,
    NAME,
    SURNAME,
    Layout,
    Table,
    cell,
    data_start,
    has_letter,
    kept_for_layout,
    label_kind,
    layout_guess,
    looks_like_name,
    row_text,
)
from tournament.text import HIDDEN_CHARACTER, text_hidden_character, text_normalised


def _max_length(model_field: models.Field[Any, Any]) -> int:
    """The longest text a field holds (its model declares one)."""
    assert model_field.max_length is not None, f"{model_field} declares a max_length"
    return model_field.max_length


NAME_MAX = _max_length(Player._meta.get_field("name"))
CLUB_MAX = _max_length(Player._meta.get_field("club"))
MAX_ROWS = 2000
ZIP_MAX_ENTRIES = 200
ZIP_MAX_UNCOMPRESSED = 50 * 1024 * 1024
# What openpyxl parses (the sheets' and the shared strings' XML): a list of 2000 players is
# well under 1 MB of it; a file with far more costs seconds of CPU to read, for no list.
ZIP_MAX_XML = 10 * 1024 * 1024
ZIP_MAX_RATIO = 200
MAX_COLUMNS = 40
# A cell longer than any name or club is still shown too long, but no longer kept whole.
CELL_MAX = max(NAME_MAX, CLUB_MAX) + 1
NOT_A_NAME = gettext_lazy("Not a name: a number or a date.")
NAME_KINDS = (NAME, GIVEN, SURNAME)


class PlayerFileError(ValueError):
    """The upload cannot be read at all; the message says why."""


@dataclass
class PlayerRow:
    """One line of a player list, with what is wrong with it."""

    line: int
    name: str
    club: str = ""
    problems: list[str] = field(default_factory=list)
    read_problem: str = ""  # found while reading the file: the name is a number or a date

    @property
    def ok(self) -> bool:
        return not self.problems


def parse_pasted(text: str) -> list[PlayerRow]:
    """One player a line; an optional club after a tab or a semicolon."""
    rows = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        for separator in ("\t", ";"):
            if separator in line:
                name, club = line.split(separator, 1)
                break
        else:
            name, club = line, ""
        rows.append(PlayerRow(line=number, name=name.strip(), club=club.strip()))
    return rows


def pasted_clubs_after_commas(rows: Iterable[PlayerRow]) -> bool:
    """Whether a pasted list looks like ``name, club`` lines: no line has a club (no tab or
    semicolon) and every one has a comma. A comma is no separator (``Jansen, Piet`` is a name),
    so the preview only asks."""
    rows = list(rows)
    return bool(rows) and all(not r.club and "," in r.name for r in rows)


def parse_upload(filename: str, data: bytes) -> list[PlayerRow]:
    """Rows of an uploaded .xlsx or .csv file, laid out as :func:`layout_guess` finds."""
    table = read_upload(filename, data)
    return players_from(table, layout_guess(table))


def read_upload(filename: str, data: bytes) -> Table:
    """The cells of an uploaded .xlsx (its first sheet) or .csv file, as text; refused when
    it cannot be read or holds no name at all."""
    if len(data) > settings.IMPORT_MAX_BYTES:
        raise PlayerFileError(
            _("The file is too large (%(size)s MB; at most %(max)s MB).")
            % {"size": round(len(data) / 1e6, 1), "max": settings.IMPORT_MAX_BYTES // 1_000_000}
        )
    lower = filename.lower()
    if lower.endswith(".xlsx"):
        table = _read_xlsx(data)
    elif lower.endswith((".csv", ".txt")):
        table = _read_csv(data)
    else:
        raise PlayerFileError(_("Upload an Excel file (.xlsx) or a CSV file (.csv)."))
    _drop_empty_end(table)
    if not table:
        raise PlayerFileError(_("The file is empty: there is nothing in its first sheet."))
    table = _drop_empty_end(kept_for_layout(table))
    if not layout_guess(table).name:
        raise PlayerFileError(
            _(
                "No names found in the file: it holds only numbers, dates or column headings. "
                "Is this the list of players?"
            )
        )
    return table


def _drop_empty_end(table: Table) -> Table:
    while table and not any(table[-1]):
        table.pop()
    return table


@dataclass(frozen=True, slots=True)
class NoteRow:
    """A row below the list of players that is no player: a total or a note."""

    line: int
    text: str


# The first words of a line under a list that says something of the list.
_NOTE_START = re.compile(
    r"^(totaal|totalen|total|aantal|opmerking|opmerkingen|nb|n\.b\.?|let op|noot|note|"
    r"opgemaakt|bijgewerkt)\b"
)


def _is_note(name: str, cells: list[str]) -> bool:
    """Whether a row below an empty row under the players is a note rather than a player: its
    name is empty, or is no name ("Totaal: 19 aanmeldingen" has a digit and a colon), or the
    row starts as a note does ("Let op", "Opmerking")."""
    first = next((text for text in cells if text), "")
    return not looks_like_name(name) or ":" in name or bool(_NOTE_START.match(folded(first)))


def read_players(table: Table, layout: Layout) -> tuple[list[PlayerRow], list[NoteRow]]:
    """The players of a table as ``layout`` places them, and the notes left out below them.

    Never a player: the header or a row above it, a repeated header, a row without a letter
    (a number column's empty places, a date), and, below an empty row under the players, a
    total or a note ("Totaal: 19 aanmeldingen"). A name that is a number or a date is a row
    with a problem."""
    if not layout.name:
        return [], []
    rows: list[PlayerRow] = []
    notes: list[NoteRow] = []
    below_gap = False
    for index in range(data_start(table, layout), len(table)):
        cells = table[index]
        if not any(has_letter(text) for text in cells):
            below_gap = below_gap or bool(rows)
            continue
        parts = [cell(cells, column) for column in layout.name]
        if any(label_kind(part) in NAME_KINDS for part in parts):
            continue  # the header again (a list printed over several pages)
        name = " ".join(part for part in parts if part)
        if below_gap and _is_note(name, cells):
            notes.append(NoteRow(line=index + 1, text=row_text(cells)))
            continue
        row = PlayerRow(line=index + 1, name=name, club=cell(cells, layout.club))
        if name and not has_letter(name):
            row.read_problem = str(NOT_A_NAME)
        rows.append(row)
    return rows, notes


def players_from(table: Table, layout: Layout) -> list[PlayerRow]:
    """The players of a table as ``layout`` places them (:func:`read_players`)."""
    return read_players(table, layout)[0]


def _check_zip(data: bytes) -> None:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile as exc:
        raise PlayerFileError(_("This is not a valid Excel file (.xlsx).")) from exc
    entries = archive.infolist()
    if len(entries) > ZIP_MAX_ENTRIES:
        raise PlayerFileError(
            _("The Excel file has %(count)s parts; a player list has far fewer. Refused.")
            % {"count": len(entries)}
        )
    unpacked = sum(entry.file_size for entry in entries)
    packed = max(sum(entry.compress_size for entry in entries), 1)
    xml = sum(entry.file_size for entry in entries if entry.filename.endswith((".xml", ".rels")))
    if unpacked > ZIP_MAX_UNCOMPRESSED or unpacked / packed > ZIP_MAX_RATIO or xml > ZIP_MAX_XML:
        raise PlayerFileError(
            _("The Excel file unpacks to %(size)s MB, far more than a player list. Refused.")
            % {"size": round(unpacked / 1e6)}
        )


def _read_xlsx(data: bytes) -> Table:
    _check_zip(data)
    try:
        workbook = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises many kinds for a damaged or hostile file
        raise PlayerFileError(
            _("The Excel file cannot be read (%(reason)s).") % {"reason": type(exc).__name__}
        ) from exc
    try:
        sheet = workbook.worksheets[0]
        if isinstance(sheet, ReadOnlyWorksheet):
            sheet.reset_dimensions()  # some programs write a wrong size; read every row
        return _table(sheet.iter_rows(values_only=True))
    finally:
        workbook.close()


def _table(rows: Iterable[Sequence[object]]) -> Table:
    """Rows of cells as text: :data:`MAX_ROWS` players with something in them (and a few
    more for a title and a header), among at most five times as many rows."""
    table: Table = []
    filled = 0
    for row in rows:
        table.append([_text(value) for value in row[:MAX_COLUMNS]])
        filled += any(table[-1])
        if filled > MAX_ROWS + 10 or len(table) > 5 * MAX_ROWS:
            raise PlayerFileError(_("More than %(max)s rows.") % {"max": MAX_ROWS})
    return table


def _text(value: object) -> str:
    """A cell as text: a whole number without ".0", a date without its midnight."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    elif isinstance(value, datetime.datetime) and value.time() == datetime.time():
        value = value.date()
    return str(value).strip()[:CELL_MAX]


def _read_csv(data: bytes) -> Table:
    text = _csv_text(data)
    lines = text.splitlines()
    delimiter = _csv_delimiter(lines[:50])
    if lines and lines[0].lower().startswith("sep=") and len(lines[0]) == 5:
        # Excel's own first line "sep=;": the delimiter, no row (kept empty for line numbers)
        delimiter, text = lines[0][4], "\n" + text.split("\n", 1)[-1]
    reader = csv.reader(io.StringIO(text), delimiter=delimiter)
    rows: list[list[str]] = []
    try:
        for row in reader:
            rows.append(row)
            if len(rows) > 5 * MAX_ROWS:
                break
    except csv.Error as exc:  # a field too long for a name, a stray NUL, an open quote
        raise PlayerFileError(
            _("The CSV file cannot be read (line %(line)s). Save it again as CSV from Excel.")
            % {"line": reader.line_num}
        ) from exc
    return _table(rows)


def _csv_delimiter(lines: list[str]) -> str:
    """The separator most lines have equally often (a title line has none): a semicolon, a
    tab or a comma, in that order of preference."""
    best, best_lines = ",", 0
    for delimiter in ";\t,":
        counts = Counter(line.count(delimiter) for line in lines if delimiter in line)
        agreeing = counts.most_common(1)[0][1] if counts else 0
        if agreeing > best_lines:
            best, best_lines = delimiter, agreeing
    return best


def _csv_text(data: bytes) -> str:
    """The text of a CSV file: UTF-16 when it starts with its byte order mark (Excel's "Unicode
    text"), else UTF-8, else Windows-1252 (older Excel)."""
    encodings = ("utf-16",) if data.startswith((b"\xff\xfe", b"\xfe\xff")) else ()
    for encoding in (*encodings, "utf-8-sig", "cp1252"):
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise PlayerFileError(
        _("The CSV file is not text in a known encoding. Save it again as CSV UTF-8 from Excel.")
    )


def check_rows(rows: Iterable[PlayerRow], *, existing: Iterable[str]) -> list[PlayerRow]:
    """Name every problem: empty or too long, twice in the list, or already registered."""
    # Names read the one way every page reads them: "van 't Hof" and "van t Hof" are one.
    registered = {folded(name) for name in existing}
    seen: dict[str, int] = {}
    checked = []
    for row in rows:
        row.problems = [row.read_problem] if row.read_problem else []
        hidden = text_hidden_character(row.name + row.club) is not None
        # "Jan  de Boer" typed with two spaces is the same Jan de Boer.
        row.name, row.club = text_normalised(row.name), text_normalised(row.club)
        key = folded(row.name)
        if hidden:
            row.problems.append(str(HIDDEN_CHARACTER))
        if not row.name:
            row.problems.append(_("The name is empty."))
        elif len(row.name) > NAME_MAX:
            row.problems.append(
                _("The name is longer than %(max)s characters.") % {"max": NAME_MAX}
            )
        if len(row.club) > CLUB_MAX:
            row.problems.append(
                _("The club is longer than %(max)s characters.") % {"max": CLUB_MAX}
            )
        if row.name and key in registered:
            row.problems.append(_("Already registered."))
        elif row.name and key in seen:
            row.problems.append(_("The same name as line %(line)s.") % {"line": seen[key]})
        if row.name:
            seen.setdefault(key, row.line)
        checked.append(row)
    return checked
