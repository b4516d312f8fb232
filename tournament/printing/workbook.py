"""The ranking workbook for the club: the standings, every round's sheets, and statistics.

It is the final ranking ("Eindklassement", ``…-eindstand.xlsx``) only once the tournament is
finished; before that its title, file name and standings sheet say which round it stands at,
and the standings mark every provisional number (as the standings' own Excel file does).

Sheets (names in the tournament's language): the standings (``Klassement``: rank, name, club,
points per round, total, bollen, correct, provisional), one sheet per round with every table's
full sheet (bid, tricks, and the points or "bol" for each player and deal, then the totals of
the form), and ``Statistieken`` (``scoring.statistics`` laid out). Numbers are stored as
numbers, text from users never as a formula. Every sheet prints one page wide, in Excel and in
LibreOffice (``workbook_layout``).
"""

from __future__ import annotations

import io
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext
from openpyxl import Workbook
from openpyxl.styles import Alignment, Border
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.pagebreak import Break

# The sheets are write-only; the stubs type them, as they print, as a Worksheet.
from openpyxl.worksheet.worksheet import Worksheet

from scoring.deals import DEAL_COUNT, DEALS
from scoring.sheet import CellState, deal_box
from scoring.statistics import (
    BidTally,
    Boxes,
    GameScore,
    KeptGame,
    Statistics,
    tournament_statistics,
)
from tournament.adapter import TableScore, load_table_scores, table_boxes
from tournament.exports.base import (
    NUMBER_HEADER,
    TEXT_INDENT,
    XLSX_TYPE,
    ExportFile,
    Rows,
    download_name,
    new_workbook,
    xlsx_add_sheet,
    xlsx_cell,
    xlsx_heading,
    xlsx_page_header,
)
from tournament.exports.paging import ROW_POINTS
from tournament.models import Player, Round, Tournament
from tournament.printing.workbook_layout import (
    BOLD,
    CENTER,
    LINE,
    print_setup,
    round_page_starts,
    set_widths,
    styled,
    widths_of,
)
from tournament.standings.exports import standings_rows, workbook_title
from tournament.standings.selectors import tournament_standings

PERCENT = "0.0%"
NAME_WIDTH = 24
# A round sheet's 41 columns print one A4 landscape page wide, at about 95 % in Excel (a little
# smaller in LibreOffice without Calibri): the column headers stand on end, so that each column
# is as wide as what it holds (a digit, "bol", a total), and a grey line opens each deal and
# each table.
ROUND_NAME_WIDTH = 22
NUMBER_WIDTH = 3.6  # table, seat
DEAL_WIDTHS = (3.2, 3.2, 3.8)  # bid, tricks, points
TOTAL_WIDTH = 4.6
ON_END = Alignment(horizontal="center", vertical="bottom", textRotation=90)
NAME_HEADER = Alignment(horizontal="left", vertical="bottom", indent=1)
# A name longer than its column shrinks to fit it (the next column is never empty).
NAME_CELL = Alignment(horizontal="left", indent=1, shrink_to_fit=True)
DEAL_LINE = Border(left=LINE)
TABLE_LINE = Border(top=LINE)
BOTH_LINES = Border(left=LINE, top=LINE)
# Points a character of a bold header takes standing on end, in LibreOffice's wider font.
ON_END_POINTS = 7.5
WRAPPED = Alignment(horizontal="right", vertical="bottom", wrap_text=True)


class FinalWorkbookExporter:
    """The workbook a director hands to the club after the last round."""

    def __init__(self, tournament: Tournament) -> None:
        self.tournament = tournament

    def render(self) -> ExportFile:
        with translation.override(self.tournament.language):
            data = self._workbook()
        return ExportFile(self._filename(), XLSX_TYPE, data)

    def _filename(self) -> str:
        """``final`` only once the tournament is finished; before that the file says which
        round it stands at, so an early copy is not taken for the final one. The words are in
        the language of the page it is downloaded from."""
        if self.tournament.finished_at is not None:
            return download_name(self.tournament, pgettext("file name", "final"), "xlsx")
        states = dict(self.tournament.rounds.with_state().values_list("number", "progress"))
        in_play = [number for number, state in states.items() if state != Round.State.COMPLETE]
        if in_play:
            what = pgettext("file name", "during round %(number)s") % {"number": max(in_play)}
        else:
            number = max(states, default=0)
            what = pgettext("file name", "after round %(number)s") % {"number": number}
        return download_name(self.tournament, what, "xlsx")

    def _workbook(self) -> bytes:
        standings = tournament_standings(self.tournament)
        # The totals as kept when each version was stored (scored afresh where a kept score is
        # not current); the boxes as stored, read through the same rule as scoring reads them.
        sheets = load_table_scores(tournament=self.tournament)
        boxes = table_boxes(self.tournament, {s.table_id: len(s.player_ids) for s in sheets})
        rows = standings_rows(standings)
        if standings.final:
            title = _("Final ranking %(tournament)s") % {"tournament": self.tournament.name}
        else:
            title = workbook_title(self.tournament, rows.title)
        workbook = new_workbook(title)
        _standings_print_setup(xlsx_add_sheet(workbook, _("Standings"), rows), rows)
        by_round: dict[int, list[TableScore]] = defaultdict(list)
        for sheet in sheets:
            by_round[sheet.round_number].append(sheet)
        for number, tables in sorted(by_round.items()):
            title = _("Round %(number)s") % {"number": number}
            add_round_sheet(workbook, title, tables, boxes, standings.players)
        games = [
            KeptGame(
                s.round_number,
                s.table_number,
                s.player_ids,
                boxes[s.table_id],
                s.totals,
                s.complete,
            )
            for s in sheets
        ]
        add_statistics_sheet(workbook, tournament_statistics(games), standings.players)
        xlsx_page_header(workbook, xlsx_heading(self.tournament))
        buffer = io.BytesIO()
        workbook.save(buffer)
        return buffer.getvalue()


def _round_widths(longest_name: int) -> list[float]:
    name = min(max(longest_name + 2, 12), ROUND_NAME_WIDTH)
    return [NUMBER_WIDTH, NUMBER_WIDTH, name, *DEAL_WIDTHS * len(DEALS), *[TOTAL_WIDTH] * 5]


def _round_page_setup(
    sheet: Worksheet, widths: Sequence[float], header_points: float, tables: Sequence[TableScore]
) -> None:
    """One A4 landscape page wide, the header rows and the table, seat and name columns on
    every page; a table's players never split over two pages: on one page (fitted to it) when
    they fit on one in every program, otherwise with a break wherever a table would not fit
    (``round_page_starts``)."""
    sizes = [len(t.player_ids) for t in tables]
    print_setup(
        sheet,
        widths=widths,
        rows=sum(sizes) + 2,
        title_rows="1:2",
        title_columns="A:C",
        orientation="landscape",
        paged=False,
    )
    starts = round_page_starts(sizes, widths, ROW_POINTS + header_points)
    for start in starts:
        # Below the two header rows and the players before it (a row counted from 1).
        sheet.row_breaks.append(Break(id=start + 2))
    if not starts:
        sheet.page_setup.fitToHeight = 1


def _round_row(
    sheet: Worksheet,
    values: Sequence[Any],
    alignments: Sequence[Alignment | None],
    lines: frozenset[int],
    bols: dict[int, str],
    *,
    first: bool,
    cells: dict[tuple[Any, ...], Any],
) -> list[Any]:
    """The cells of one player's row: a line left of each deal and of the totals, and above
    the table's first player; ``bols`` gives the number format of the columns that hold a
    bol. A write-only sheet writes each cell as it is appended (openpyxl places it, then writes
    it, before it looks at the next), so one styled cell of a number stands in every place that
    shows it with that style: ``cells`` keeps them for the sheet."""
    row: list[Any] = []
    for column, value in enumerate(values):
        if first:
            border: Border | None = BOTH_LINES if column in lines else TABLE_LINE
        else:
            border = DEAL_LINE if column in lines else None
        number, alignment = bols.get(column), alignments[column]
        if border is None and (value is None or (number is None and alignment is None)):
            row.append(value)
            continue
        if isinstance(value, str):
            row.append(styled(sheet, value, alignment=alignment, border=border))
            continue
        key = (value, id(alignment), number, id(border))
        cell = cells.get(key)
        if cell is None:
            cell = cells[key] = styled(
                sheet, value, alignment=alignment, number=number, border=border
            )
        row.append(cell)
    return row


def add_round_sheet(
    workbook: Workbook,
    title: str,
    tables: Sequence[TableScore],
    boxes: dict[int, Boxes],
    players: dict[int, Player],
) -> None:
    """One row per player in table and seat order, as on the paper form: per deal the bid, the
    tricks and the points (the bid when kept), then revokes and the totals: each table's
    ``boxes`` (``adapter.table_boxes``) and its kept totals.

    A bol is the number 0 shown as "bol" by its number format, so that a column still sums to
    the points. The first header row names the deals (1 2 3 4 5 5Z 5B 4 3 2 1) above their three
    columns; the second names the columns, on end, and carries the autofilter.
    """
    sheet = workbook.create_sheet(title=title[:31])
    bol = _("bol").replace('"', "")
    bol_format = f'"{bol}";"{bol}";"{bol}"'
    fixed = [_("Table"), _("Seat"), _("Name")]
    totals = [_("Revokes"), _("Bollen"), _("Points"), _("Correct"), _("Total")]
    per_deal = [_("Bid"), _("Tricks"), _("Points")]
    header = fixed + per_deal * len(DEALS) + totals
    longest = max((len(players[p].name) for t in tables for p in t.player_ids), default=10)
    widths = _round_widths(longest)
    set_widths(sheet, widths)
    header_points = max(len(h) for h in header if h != fixed[2]) * ON_END_POINTS + 6
    sheet.row_dimensions[2].height = header_points
    sheet.freeze_panes = "D3"
    _round_page_setup(sheet, widths, header_points, tables)
    rows = sum(len(t.player_ids) for t in tables)
    sheet.auto_filter.ref = f"A2:{get_column_letter(len(header))}{rows + 2}"

    # The first column of each deal and of the totals.
    lines = frozenset(len(fixed) + 3 * index for index in range(len(DEALS) + 1))
    labels: list[Any] = [None] * len(fixed)
    for spec in DEALS:
        # "5Z" and "5B" are text, the hand sizes numbers: no "number stored as text" flag.
        label = int(spec.label) if spec.label.isdigit() else spec.label
        labels += [styled(sheet, label, font=BOLD, alignment=CENTER, border=DEAL_LINE), None, None]
        first = len(labels) - 2
        sheet.merged_cells.add(f"{get_column_letter(first)}1:{get_column_letter(first + 2)}1")
    labels.append(styled(sheet, None, border=DEAL_LINE))
    sheet.append(labels)
    sheet.append(
        [
            styled(
                sheet,
                h,
                font=BOLD,
                alignment=NAME_HEADER if column == 2 else ON_END,
                border=DEAL_LINE if column in lines else None,
            )
            for column, h in enumerate(header)
        ]
    )

    cells: dict[tuple[Any, ...], Any] = {}
    alignments = [CENTER, CENTER, NAME_CELL, *[CENTER] * (3 * len(DEALS)), *[None] * len(totals)]
    for table in tables:
        deals = boxes[table.table_id]
        for seat, player_id in enumerate(table.player_ids):
            values: list[Any] = [table.table_number, seat + 1, players[player_id].name]
            bols: dict[int, str] = {}
            for deal in deals:
                bid, tricks = deal[seat]
                state, points = deal_box(bid, tricks)
                if state is CellState.BOL:
                    bols[len(values) + 2] = bol_format
                score = points if state in (CellState.KEPT, CellState.BOL) else None
                values += (bid, tricks, score)
            values += [None] * 3 * (DEAL_COUNT - len(deals))
            seat_totals = table.totals[seat]
            values += (
                seat_totals.penalty_bollen,
                seat_totals.bollen,
                seat_totals.points,
                seat_totals.correct,
                seat_totals.tournament_points,
            )
            sheet.append(
                _round_row(sheet, values, alignments, lines, bols, first=seat == 0, cells=cells)
            )


def _tally_row(kind: str, group: str, tally: BidTally) -> list[Any]:
    return [
        kind,
        group,
        tally.bids,
        tally.kept,
        tally.bollen,
        tally.over,
        tally.under,
        tally.accuracy,
        tally.bol_rate,
        tally.over_rate,
        tally.under_rate,
    ]


def statistics_rows(statistics: Statistics[int]) -> Rows:
    """The bid tallies as one table: per hand size, blind against the rest, per deal, all."""
    header = [
        _("Kind"),
        _("Deals"),
        _("Bids"),
        _("Kept"),
        _("Bollen"),
        _("Over-bid"),
        _("Under-bid"),
        _("Accuracy"),
        _("Bol rate"),
        _("Over-bid share"),
        _("Under-bid share"),
    ]
    hand, blind, deal = _("Hand size"), _("Blind or not"), _("Deal")
    rows = [
        _tally_row(
            hand, ngettext("%(cards)s card", "%(cards)s cards", size) % {"cards": size}, tally
        )
        for size, tally in statistics.by_hand_size.items()
    ]
    rows.append(_tally_row(blind, _("5B (bid blind)"), statistics.blind))
    rows.append(_tally_row(blind, _("All other deals"), statistics.others))
    rows += [
        _tally_row(
            deal, _("Deal %(number)s (%(label)s)") % {"number": s.number, "label": s.label}, t
        )
        for s, t in zip(DEALS, statistics.by_deal, strict=True)
    ]
    rows.append(_tally_row(_("All"), _("All deals"), statistics.overall))
    return Rows(header=header, rows=rows)


GAME_HEADER_WIDTHS = (8, 7, NAME_WIDTH, 8, 8, 8, 8)


def _game_rows(
    sheet: Worksheet, games: Sequence[GameScore[int]], players: dict[int, Player]
) -> None:
    if not games:
        # A header over nothing reads as if the rows went missing.
        sheet.append([xlsx_cell(sheet, pgettext("no games", "none"))])
        return
    header = [_("Round"), _("Table"), _("Name"), _("Total"), _("Bollen"), _("Points"), _("Correct")]
    # Each header over its column: the name's indented as the names, the numbers' right.
    aligned = [TEXT_INDENT if i == 2 else NUMBER_HEADER for i in range(len(header))]
    sheet.append(
        [styled(sheet, h, font=BOLD, alignment=a) for h, a in zip(header, aligned, strict=True)]
    )
    for game in games:
        sheet.append(
            [
                game.round,
                game.table,
                styled(sheet, players[game.player].name, alignment=TEXT_INDENT),
                game.tournament_points,
                game.bollen,
                game.points,
                game.correct,
            ]
        )


def _statistics_widths(rows: Rows) -> list[float]:
    """The kind and deal columns as wide as their text; a number column as wide as the longest
    word of its header, which wraps (with room for LibreOffice's wider bold letters)."""
    texts = [max(len(str(r[column])) for r in [rows.header, *rows.rows]) + 2 for column in (0, 1)]
    words = [max(len(word) for word in h.split()) for h in rows.header[2:]]
    return [*texts, *(max(10, round(1.2 * length + 2)) for length in words)]


def add_statistics_sheet(
    workbook: Workbook, statistics: Statistics[int], players: dict[int, Player]
) -> None:
    """The bid tallies on one sheet (header frozen and filtered); the bol-free games and the
    best single game on the next, with column widths of their own."""
    rows = statistics_rows(statistics)
    sheet = workbook.create_sheet(title=_("Statistics")[:31])
    widths = _statistics_widths(rows)
    set_widths(sheet, widths)
    wraps = any(len(h) > width - 2 for h, width in zip(rows.header, widths, strict=True))
    sheet.row_dimensions[1].height = 2 * ROW_POINTS if wraps else ROW_POINTS
    sheet.freeze_panes = "A2"
    print_setup(sheet, widths=widths, rows=len(rows.rows) + 1, title_rows="1:1")
    sheet.auto_filter.ref = f"A1:{get_column_letter(len(rows.header))}{len(rows.rows) + 1}"
    sheet.append(
        [
            styled(sheet, h, font=BOLD, alignment=None if i < 2 else WRAPPED)
            for i, h in enumerate(rows.header)
        ]
    )
    for values in rows.rows:
        sheet.append(
            [xlsx_cell(sheet, v) for v in values[:7]]
            + [styled(sheet, v, number=PERCENT) for v in values[7:]]
        )

    games = workbook.create_sheet(title=_("Games")[:31])
    set_widths(games, GAME_HEADER_WIDTHS)
    # The set-up goes before the first row: a write-only sheet writes its properties with it.
    written = 3 + sum(1 + len(g) if g else 1 for g in (statistics.bol_free, statistics.best))
    print_setup(games, widths=GAME_HEADER_WIDTHS, rows=written)
    bol_free = _("Bol-free games: %(count)s of %(games)s games") % {
        "count": len(statistics.bol_free),
        "games": statistics.player_games,
    }
    games.append([styled(games, bol_free, font=BOLD)])
    _game_rows(games, statistics.bol_free, players)
    games.append([])
    games.append([styled(games, _("Best single game"), font=BOLD)])
    _game_rows(games, statistics.best, players)


def _standings_print_setup(sheet: Worksheet, rows: Rows) -> None:
    """The standings as ``xlsx_add_sheet`` lays them out, printed as the other sheets are: the
    title, the header, the rows and the legend below them."""
    header_rows = 2 if rows.title else 1
    columns = max([len(rows.header), *(len(note) for note in rows.notes)])
    count = header_rows + len(rows.rows) + (1 + len(rows.notes) if rows.notes else 0)
    print_setup(sheet, widths=widths_of(sheet, columns), rows=count, title_rows=f"1:{header_rows}")
