"""Where the players are in an uploaded list: its header row, its name and club columns.

A list from a club's laptop is seldom a clean table. Above the header there may be a title
("Aanmeldingen kerstdrive 2026", often merged across the top) and empty rows; a number column
("Nr.", "#", "Volgnr") stands before the names; a merged header "Speler" spans the sub-headers
"Voornaam | Achternaam" in the row below it, while "Nr." and "Club" are merged down over both
rows (openpyxl gives a merged cell's value to its first cell, the others read as empty).

So the header row is found by its labels, within the first :data:`HEADER_SCAN` rows: the row
with the most known column names, one of them for the name, where an empty cell takes the
label above it when the row above is a header too. Without such a row the names come from the
column that looks most like names: the most distinct cells with letters and no digits. The
preview says which row and columns were taken, and the director can choose others.

Only the columns a name or a club can come from are kept (:func:`kept_for_layout`): the list
rides along the preview page to be laid out again, and an e-mail address, a phone number or a
date of birth has no business there.

Plain values only (a table is a list of rows of text, row 1 first, column A first).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from openpyxl.utils import get_column_letter

from tournament.names import folded

Table = list[list[str]]

HEADER_SCAN = 30
NAME, GIVEN, INFIX, SURNAME, CLUB, OTHER = "name", "given", "infix", "surname", "club", "other"
CONTACT = "contact"  # how to reach someone: never a name or a club, and not for every eye
_KINDS = {
    NAME: (
        "naam",
        "name",
        "speler",
        "player",
        "spelersnaam",
        "naam speler",
        "deelnemer",
        "naam deelnemer",
        "volledige naam",
        "full name",
        "participant",
    ),
    GIVEN: ("voornaam", "voornamen", "roepnaam", "first name", "firstname", "given name"),
    INFIX: ("tussenvoegsel", "tussenv", "tv", "voorvoegsel"),
    SURNAME: ("achternaam", "familienaam", "last name", "lastname", "surname"),
    CLUB: ("club", "clubnaam", "vereniging", "team", "bollenclub"),
    OTHER: (
        "nr",
        "no",
        "#",
        "volgnr",
        "volgnummer",
        "nummer",
        "number",
        "woonplaats",
        "plaats",
        "leeftijd",
        "betaald",
        "datum",
        "opmerking",
        "opmerkingen",
        "punten",
        "score",
        "totaal",
    ),
    CONTACT: (
        "e-mail",
        "email",
        "e-mailadres",
        "emailadres",
        "mail",
        "telefoon",
        "telefoonnummer",
        "tel",
        "telnr",
        "mobiel",
        "mobiel nummer",
        "gsm",
        "phone",
        "adres",
        "address",
        "straat",
        "postcode",
        "geboortedatum",
    ),
}
_LABELS = {label: kind for kind, labels in _KINDS.items() for label in labels}
_LABEL_END = re.compile(r"[\s.:*]+$")


def label_kind(text: str) -> str | None:
    """What a header cell names ("Nr." -> ``OTHER``, "Voornaam" -> ``GIVEN``), or ``None``."""
    return _LABELS.get(_LABEL_END.sub("", folded(text)))


def has_letter(text: str) -> bool:
    return any(character.isalpha() for character in text)


def looks_like_name(text: str) -> bool:
    """Text with letters and no digits, no e-mail address, no column name."""
    return (
        has_letter(text)
        and not any(character.isdigit() for character in text)
        and "@" not in text
        and label_kind(text) is None
    )


def cell(row: list[str], column: int | None) -> str:
    return row[column] if column is not None and 0 <= column < len(row) else ""


def column_letter(column: int) -> str:
    return get_column_letter(column + 1)


@dataclass(frozen=True, slots=True)
class Layout:
    """Where the players are: ``header`` is the header row's number (1 = the first row) or
    ``None``; ``name`` the columns (0 = A) joined into the name (given name, infix, surname);
    ``club`` the club's column or ``None``; ``guessed``: the name column was chosen as the most
    name-like, not by a header's label."""

    header: int | None
    name: tuple[int, ...]
    club: int | None
    guessed: bool = False

    @property
    def first_row(self) -> int:
        """The index in the table of the first row below the header."""
        return self.header or 0


def header_labels(table: Table, header: int) -> list[str]:
    """The labels of a header row; an empty cell takes the label above it when the row above
    is a header row too (a merged "Nr." over two header rows)."""
    row = table[header - 1] if 0 < header <= len(table) else []
    above = table[header - 2] if 1 < header <= len(table) else []
    if not any(above) or any(text and label_kind(text) is None for text in above):
        above = []
    return [cell(row, c) or cell(above, c) for c in range(max(len(row), len(above)))]


def _columns(labels: list[str]) -> tuple[tuple[int, ...], int | None] | None:
    kinds = [label_kind(label) for label in labels]

    def first(kind: str) -> int | None:
        return next((column for column, k in enumerate(kinds) if k == kind), None)

    name, given, infix, surname = first(NAME), first(GIVEN), first(INFIX), first(SURNAME)
    if name is not None and given is not None and surname is None:
        name, surname = None, name  # "Naam | Voornaam": the Naam is the surname
    if name is not None:
        return (name,), first(CLUB)
    joined = tuple(c for c in (given, infix, surname) if c is not None)
    if given is None and surname is None:
        return None
    return joined, first(CLUB)


def _header_score(table: Table, header: int) -> int:
    labels = header_labels(table, header)
    if _columns(labels) is None:
        return 0
    return sum(label_kind(label) is not None for label in labels)


def layout_guess(table: Table) -> Layout:
    """The layout read from the table: its header row if one is recognised, else the most
    name-like column (``guessed``)."""
    best, best_score = None, 0
    for header in range(1, min(len(table), HEADER_SCAN) + 1):
        score = _header_score(table, header)
        if score > best_score:
            best, best_score = header, score
    return layout_for_header(table, best)


def layout_for_header(table: Table, header: int | None) -> Layout:
    """The layout with ``header`` as the header row (``None``: no header row): the columns its
    labels name, else the most name-like column below it."""
    if header is not None:
        found = _columns(header_labels(table, header))
        if found is not None:
            return Layout(header, *found)
    below = table[header or 0 :]
    column = _most_name_like(below)
    if column is None:
        return Layout(header, (), None, guessed=True)
    club = column + 1 if any(has_letter(cell(row, column + 1)) for row in below) else None
    return Layout(header, (column,), club, guessed=True)


def _most_name_like(rows: Table) -> int | None:
    """The column with the most distinct name-like cells (the leftmost of equals), among those
    where they are at least half the filled cells (not a heading over a column of numbers)."""
    width = max((len(row) for row in rows), default=0)
    best, best_count = None, 0
    for column in range(width):
        filled = [text for row in rows if (text := cell(row, column))]
        names = {folded(text) for text in filled if looks_like_name(text)}
        named = sum(looks_like_name(text) for text in filled)
        if 2 * named >= len(filled) and len(names) > best_count:
            best, best_count = column, len(names)
    return best


def data_start(table: Table, layout: Layout) -> int:
    """The index of the first row that can hold a player: below the header; without a header
    row, the first row whose name cell looks like a name (a title above the list is not)."""
    if layout.header is not None or not layout.name:
        return layout.first_row
    return next(
        (index for index, row in enumerate(table) if looks_like_name(cell(row, layout.name[0]))),
        len(table),
    )


def row_text(row: list[str], limit: int = 60) -> str:
    """A row as one line ("Nr. · Naam · Club"), shortened to ``limit`` characters."""
    text = " · ".join(text for text in row if text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


_NAMED = frozenset((NAME, GIVEN, INFIX, SURNAME, CLUB))


def _column_needed(cells: list[str]) -> bool:
    """Whether a name or a club can come from a column: it has a name's or a club's label,
    or, without a contact label ("E-mail", "Telefoon", "Adres"), a cell with letters that is
    neither a column name nor an e-mail address (not only numbers, dates and phone numbers).
    Labels are looked for where a header row can be (the first :data:`HEADER_SCAN` rows)."""
    kinds = {label_kind(text) for text in cells[:HEADER_SCAN] if text}
    if kinds & _NAMED:
        return True
    if CONTACT in kinds:
        return False
    return any(
        has_letter(text) and "@" not in text and (index >= HEADER_SCAN or label_kind(text) is None)
        for index, text in enumerate(cells)
    )


def kept_for_layout(table: Table) -> Table:
    """The table with only the columns a name or a club can come from; the others are emptied
    (the columns keep their letters, the rows their numbers)."""
    width = max((len(row) for row in table), default=0)
    needed = [_column_needed([cell(row, c) for row in table]) for c in range(width)]
    if all(needed):
        return table
    kept = []
    for row in table:
        cells = [text if needed[c] else "" for c, text in enumerate(row)]
        while cells and not cells[-1]:
            cells.pop()
        kept.append(cells)
    return kept


def used_columns(table: Table) -> list[int]:
    """The columns with something in them."""
    width = max((len(row) for row in table), default=0)
    return [c for c in range(width) if any(cell(row, c) for row in table)]


def column_title(table: Table, layout: Layout, column: int) -> str:
    """A column's header text, or ``""`` when it has none: no header row, or a header row its
    labels did not name the columns by (a row of players chosen as header) where this cell is
    no known column name either."""
    if layout.header is None:
        return ""
    label = cell(header_labels(table, layout.header), column)
    return label if not layout.guessed or label_kind(label) is not None else ""


def column_example(table: Table, layout: Layout, column: int) -> str:
    """A column's first name-like cell below the header, else its first filled one."""
    cells = [cell(row, column) for row in table[layout.first_row :]]
    return next((t for t in cells if looks_like_name(t)), next((t for t in cells if t), ""))


@dataclass(frozen=True, slots=True)
class LayoutSummary:
    """What the preview says of a layout: the header row and its cells, the name's and the
    club's columns (letters) with their header text (``""`` without one)."""

    header: int | None
    header_text: str
    name_columns: str
    name_titles: str
    club_column: str
    club_title: str
    guessed: bool


def layout_summary(table: Table, layout: Layout) -> LayoutSummary:
    header_text = ""
    if layout.header is not None:
        header_text = row_text(header_labels(table, layout.header))
    return LayoutSummary(
        header=layout.header,
        header_text=header_text,
        name_columns=" + ".join(column_letter(c) for c in layout.name),
        name_titles=" + ".join(t for c in layout.name if (t := column_title(table, layout, c))),
        club_column="" if layout.club is None else column_letter(layout.club),
        club_title="" if layout.club is None else column_title(table, layout, layout.club),
        guessed=layout.guessed,
    )
