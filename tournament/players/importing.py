"""Reading player lists: pasted text, CSV and Excel, checked before anything is stored.

Spreadsheets come from strangers' laptops, so an upload is checked before it is parsed: its
size, and for Excel (a zip file) the number of entries and their uncompressed size, which
refuses zip bombs; openpyxl parses the XML with defusedxml, which refuses entity expansion
("billion laughs"). Every row then gets its problems named with its line number.
"""

from __future__ import annotations

import csv
import io
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext as _
from openpyxl import load_workbook

from tournament.models import Player
from tournament.names import folded
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
NAME_HEADERS = {"naam", "name", "speler", "player", "spelersnaam"}
CLUB_HEADERS = {"club", "vereniging", "team"}


class PlayerFileError(ValueError):
    """The upload cannot be read at all; the message says why."""


@dataclass
class PlayerRow:
    """One line of a player list, with what is wrong with it."""

    line: int
    name: str
    club: str = ""
    problems: list[str] = field(default_factory=list)

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
    """Rows of an uploaded .xlsx or .csv file (first sheet; a header row is recognised)."""
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
    return _rows_from_table(table)


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


def _read_xlsx(data: bytes) -> list[list[str]]:
    _check_zip(data)
    try:
        workbook = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises many kinds for a damaged or hostile file
        raise PlayerFileError(
            _("The Excel file cannot be read (%(reason)s).") % {"reason": type(exc).__name__}
        ) from exc
    try:
        sheet = workbook.worksheets[0]
        table = []
        for row in sheet.iter_rows(values_only=True):
            table.append(["" if v is None else str(v).strip() for v in row])
            if len(table) > MAX_ROWS + 1:
                raise PlayerFileError(_("More than %(max)s rows.") % {"max": MAX_ROWS})
        return table
    finally:
        workbook.close()


def _read_csv(data: bytes) -> list[list[str]]:
    text = _csv_text(data)
    try:
        dialect = csv.Sniffer().sniff(text[:4096], delimiters=";,\t")
    except csv.Error:
        dialect = csv.excel
    try:
        table = []
        for row in csv.reader(io.StringIO(text), dialect):
            table.append([cell.strip() for cell in row])
            if len(table) > MAX_ROWS + 1:
                raise PlayerFileError(_("More than %(max)s rows.") % {"max": MAX_ROWS})
    except csv.Error as exc:  # a field too long for a name, a stray NUL, an open quote
        raise PlayerFileError(
            _("The CSV file cannot be read (line %(line)s). Save it again as CSV from Excel.")
            % {"line": len(table) + 1}
        ) from exc
    return table


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


def _rows_from_table(table: list[list[str]]) -> list[PlayerRow]:
    name_col, start = 0, 0
    club_col: int | None = 1
    if table:
        header = [cell.lower() for cell in table[0]]
        if any(h in NAME_HEADERS for h in header):
            name_col = next(i for i, h in enumerate(header) if h in NAME_HEADERS)
            club_col = next((i for i, h in enumerate(header) if h in CLUB_HEADERS), None)
            start = 1
    rows = []
    for number, cells in enumerate(table[start:], start=start + 1):
        if not any(cells):
            continue
        name = cells[name_col] if name_col < len(cells) else ""
        club = cells[club_col] if club_col is not None and club_col < len(cells) else ""
        rows.append(PlayerRow(line=number, name=name, club=club))
    return rows


def check_rows(rows: Iterable[PlayerRow], *, existing: Iterable[str]) -> list[PlayerRow]:
    """Name every problem: empty or too long, twice in the list, or already registered."""
    # Names read the one way every page reads them: "van 't Hof" and "van t Hof" are one.
    registered = {folded(name) for name in existing}
    seen: dict[str, int] = {}
    checked = []
    for row in rows:
        row.problems = []
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
