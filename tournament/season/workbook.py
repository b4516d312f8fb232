"""The season workbook: its sheets written with the numbers kept numbers (``Points``), the
season's statistics sheet, and the page set-up every sheet prints with. What goes on the sheets
is ``exports``'s (the rows the CSV shares)."""

from __future__ import annotations

import io
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE, Cell
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.page import PageMargins
from openpyxl.worksheet.worksheet import Worksheet

from scoring.statistics import HAND_SIZES, BidTally, Game, tournament_statistics
from tournament.adapter import load_table_sheets
from tournament.exports.base import (
    TEXT_INDENT,
    Rows,
    new_workbook,
    xlsx_cell,
    xlsx_printable,
)
from tournament.season.selectors import Season

GREY = "808080"


def _font(
    *, bold: bool = False, italic: bool = False, size: int = 11, color: str | None = None
) -> Font:
    """The workbook's own font (Calibri, as openpyxl's default style) with a change: a font
    without a name prints in a serif in LibreOffice."""
    return Font(name="Calibri", family=2, scheme="minor", sz=size, b=bold, i=italic, color=color)


BOLD = _font(bold=True)
TITLE = _font(bold=True, size=13)
ITALIC = _font(italic=True)


@dataclass(frozen=True, slots=True)
class Points:
    """A number of the season workbook that stays a number (columns still sum and sort) and
    shows its marks by the cell's style: ``*`` (a number format) when provisional; bold when
    the evening counts, grey when it does not (``counts``: ``None`` for a number that is not
    an evening's)."""

    value: int
    provisional: bool = False
    counts: bool | None = None

    @property
    def number_format(self) -> str:
        mark = '"*"' if self.provisional else ""
        return f"0{mark};-0{mark};0{mark}"

    @property
    def font(self) -> Font | None:
        if self.counts is None:
            return ITALIC if self.provisional else None
        return _font(bold=self.counts, italic=self.provisional, color=None if self.counts else GREY)

    def __str__(self) -> str:
        return f"{self.value}{'*' if self.provisional else ''}"


@dataclass(frozen=True, slots=True)
class SeasonStatistics:
    """``bol_free``: complete rounds (a table's 11 deals) without a bol per member, most
    first; ``best``: the best evening results (member, evening number, points);
    ``by_hand_size``: bids over the season."""

    bol_free: list[tuple[int, int]]
    best: list[tuple[int, int, int]]
    by_hand_size: dict[int, BidTally]


def season_statistics(season: Season) -> SeasonStatistics:
    """The season's numbers, from the evenings' sheets (one load per evening)."""
    bol_free: Counter[int] = Counter()
    by_size = {size: BidTally() for size in HAND_SIZES}
    for evening in season.evenings:
        games = [
            Game(round=s.round_number, table=s.table_number, players=s.player_ids, result=r)
            for s in load_table_sheets(tournament=evening.tournament)
            if s.has_entries
            for r in [s.result()]
        ]
        stats = tournament_statistics(games)
        for size, tally in stats.by_hand_size.items():
            by_size[size] = by_size[size] + tally
        for game in stats.bol_free:
            member = evening.players[game.player].member_id
            if member is not None:
                bol_free[member] += 1
    results = [
        (row.member, number, result.points)
        for row in season.rows
        for number, result in zip(season.numbers, row.per_evening, strict=True)
        if result is not None
    ]
    top = max((points for _m, _n, points in results), default=None)
    return SeasonStatistics(
        bol_free=sorted(bol_free.items(), key=lambda item: (-item[1], item[0])),
        best=[r for r in results if r[2] == top],
        by_hand_size=by_size,
    )


def statistics_rows(season: Season, stats: SeasonStatistics) -> Rows:
    name = {pk: m.name for pk, m in season.members.items()}
    # A "game" of the statistics is one round at a table (11 deals); on the site a "spel" is
    # one deal, so the label says rounds.
    rows: list[list[Any]] = [[_("Most rounds without a bol"), None, None]]
    rows += [[name[m], count, None] for m, count in stats.bol_free[:10]]
    if not stats.bol_free:
        rows.append([_("nobody"), None, None])
    rows += [[None, None, None], [_("Best evening"), _("Evening"), _("Points")]]
    rows += [[name[m], number, points] for m, number, points in stats.best]
    rows += [[None, None, None], [_("Cards"), _("Bids"), _("Bol rate")]]
    for size, tally in sorted(stats.by_hand_size.items()):
        rate = round(1 - tally.kept / tally.bids, 3) if tally.bids else None
        rows.append([size, tally.bids, rate])
    return Rows(header=[_("Statistics"), "", ""], rows=rows)


@dataclass(frozen=True, slots=True)
class SeasonSheet:
    """A sheet of the season workbook: ``heading`` lines (the first one a title) above the
    table, ``after`` lines below it (guests, legend, key); the columns are as wide as the
    table's values and the ``measured`` lines' (the guests) need."""

    title: str
    heading: list[list[Any]]
    table: Rows
    after: list[list[Any]]
    measured: list[list[Any]] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Heading:
    """A heading below the table ("Guests (not ranked)", "Evenings"): bold text."""

    text: str

    def __str__(self) -> str:
        return self.text


def season_workbook(season: Season, sheets: list[SeasonSheet]) -> bytes:
    """The workbook: each ``Points`` stored as its number and shown with its marks by a number
    format and a font; every sheet prints A4 landscape, one page wide, with the table's header
    on every page, the competition at the top of the page and the sheet and "Page 2 of 5" at
    the bottom (each part of the header and footer on its own, so that none overlaps another
    in Excel or LibreOffice)."""
    competition = season.competition
    workbook = new_workbook(f"{competition}: {season.title()}")
    for spec in sheets:
        rows = spec.table
        measured = [*rows.rows, *spec.measured]
        widths = [
            min(
                max(
                    max([len(str(h))] + [len(str(r[i])) for r in measured if r[i] is not None]) + 2,
                    6,
                ),
                40,
            )
            for i, h in enumerate(rows.header)
        ]
        # A write-only workbook makes write-only sheets, which print as a Worksheet does.
        sheet: Worksheet = workbook.create_sheet(title=spec.title[:31])
        for index, width in enumerate(widths, start=1):
            sheet.column_dimensions[get_column_letter(index)].width = width
        header_row = len(spec.heading) + 1
        sheet.freeze_panes = f"A{header_row + 1}"
        xlsx_printable(sheet, title_rows=f"{header_row}:{header_row}")
        if rows.header:
            last = get_column_letter(len(rows.header))
            sheet.auto_filter.ref = f"A{header_row}:{last}{header_row + len(rows.rows)}"
        for index, line in enumerate(spec.heading):
            cells = [_cell(sheet, v) for v in line]
            if cells and index == 0:
                cells[0].font = TITLE
            sheet.append(cells)
        sheet.append([_bold(xlsx_cell(sheet, h)) for h in rows.header])
        for row in rows.rows:
            sheet.append([_cell(sheet, v) for v in row])
        for line in spec.after:
            sheet.append([_cell(sheet, v) for v in line])
        _page_header_and_footer(sheet, str(competition), competition.club.name)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def _page_header_and_footer(sheet: Worksheet, competition: str, club: str) -> None:
    """The competition (and the club) in the middle of the page header, alone; the sheet's
    name left and "Page 2 of 5" right in the footer. Margins leave the header and footer
    room above and below the table."""
    header, footer = sheet.oddHeader, sheet.oddFooter
    # openpyxl gives every sheet its header, footer and their parts; the stubs allow none.
    assert header is not None and footer is not None
    assert header.center is not None and footer.left is not None and footer.right is not None
    top = f"{competition} · {club}" if club else competition
    # "&" starts a code in a header; a literal one is doubled.
    header.center.text = ILLEGAL_CHARACTERS_RE.sub("", top).replace("&", "&&")
    footer.left.text = sheet.title.replace("&", "&&")
    footer.right.text = _("Page &P of &N")
    sheet.page_margins = PageMargins(
        left=0.5, right=0.5, top=0.8, bottom=0.8, header=0.3, footer=0.3
    )


def _bold(cell: Cell) -> Cell:
    cell.font = BOLD
    return cell


def _cell(sheet: Worksheet, value: Any) -> Cell:
    if isinstance(value, Heading):
        return _bold(xlsx_cell(sheet, value.text))
    if isinstance(value, Points):
        cell = xlsx_cell(sheet, value.value)
        cell.number_format = value.number_format
        if (font := value.font) is not None:
            cell.font = font
        return cell
    cell = xlsx_cell(sheet, value)
    if isinstance(value, float):
        cell.number_format = "0.00"
    elif isinstance(value, str):
        cell.alignment = TEXT_INDENT
    return cell
