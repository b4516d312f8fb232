"""The ranking workbook for the club: the standings, every round's sheets, and statistics.

It is the final ranking ("Eindklassement", ``…-eindstand.xlsx``) only once the tournament is
finished; before that its title, file name and standings sheet say which round it stands at,
and the standings mark every provisional number (as the standings' own Excel file does).

Sheets (names in the tournament's language): the standings (``Klassement``: rank, name, club,
points per round, total, bollen, correct, provisional), one sheet per round with every table's
full sheet (bid, tricks, and the points or "bol" for each player and deal, then the totals of
the form), and ``Statistieken`` (``scoring.statistics`` laid out). Numbers are stored as
numbers, text from users never as a formula.
"""

from __future__ import annotations

import io
from collections import defaultdict
from collections.abc import Sequence
from copy import copy
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext
from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.cell.cell import Cell
from openpyxl.styles import Alignment, Font
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.page import PageMargins
from openpyxl.worksheet.pagebreak import Break

# The sheets are write-only; the stubs type them, as they print, as a Worksheet.
from openpyxl.worksheet.worksheet import Worksheet

from scoring.deals import DEAL_COUNT, DEALS, MAX_SEATS
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
    xlsx_printable,
)
from tournament.models import Player, Round, Tournament
from tournament.standings.exports import standings_rows, workbook_title
from tournament.standings.selectors import tournament_standings

BOLD = Font(bold=True)
CENTER = Alignment(horizontal="center")
PERCENT = "0.0%"
NAME_WIDTH = 24
ROUND_NAME_WIDTH = 20
# A round sheet prints at 75 %: Excel's 11 pt becomes 8.25 pt on paper. The first six deals fill
# one A4 landscape width; the other five and the totals the next. Fitting all 41 columns on one
# width would print them at about 5 pt. Each width is planned at no more than 85 % of the page
# in Excel's measure, because LibreOffice without Calibri draws the columns about 17 % wider.
ROUND_SCALE = 75
DEALS_ON_FIRST_PAGE = 6
ROWS_PER_PAGE = 34
ROUND_MARGINS = PageMargins(left=0.25, right=0.25, top=0.75, bottom=0.6, header=0.3, footer=0.3)


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
        xlsx_add_sheet(workbook, _("Standings"), rows)
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


def _set_widths(sheet: Worksheet, widths: Sequence[float]) -> None:
    for index, width in enumerate(widths, start=1):
        sheet.column_dimensions[get_column_letter(index)].width = width


def _styled(
    sheet: Worksheet,
    value: Any,
    *,
    font: Font | None = None,
    alignment: Alignment | None = None,
    number: str | None = None,
) -> Cell:
    """A cell with a font, alignment or number format. openpyxl files each style it is given
    by hashing it (a third of the workbook's time for 15,000 styled cells), so the first cell
    of each combination in a workbook is styled that way and the others share its style ids:
    one array for all of them, which nothing changes once a cell is made (a write-only cell is
    written as it is appended)."""
    cell = xlsx_cell(sheet, value) if isinstance(value, str) else WriteOnlyCell(sheet, value)
    if font is None and alignment is None and number is None:
        return cell
    styles = sheet.parent.__dict__.setdefault("_bollen_styles", {})
    key = (id(font), id(alignment), number)
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
    # The font and alignment are kept with the ids so that their ids are not reused.
    styles[key] = (copy(cell._style), font, alignment)  # type: ignore[attr-defined]  # as above
    return cell


def _round_widths(
    fixed: Sequence[str], per_deal: Sequence[str], totals: Sequence[str], longest_name: int
) -> list[float]:
    return (
        [max(len(h) + 1.5, 5) for h in fixed[:2]]
        + [min(max(longest_name + 2, 12), ROUND_NAME_WIDTH)]
        + [max(len(h) + 0.5, 4) for h in per_deal] * len(DEALS)
        + [max(len(h) + 0.5, 5) for h in totals]
    )


def _round_page_setup(sheet: Worksheet, n_fixed: int, tables: Sequence[TableScore]) -> None:
    """Printed on A4 landscape at a fixed scale (type stays above 8 pt): the first deals on one
    page width, the other deals and the totals on the next, the table, seat and name columns and
    both header rows repeated on each; a table's players never split over two pages."""
    xlsx_printable(sheet, title_rows="1:2")
    fit = sheet.sheet_properties.pageSetUpPr
    assert fit is not None  # openpyxl gives every sheet one
    fit.fitToPage = False
    sheet.page_setup.scale = ROUND_SCALE
    sheet.page_setup.fitToWidth = None
    sheet.page_setup.fitToHeight = None
    sheet.print_title_cols = f"A:{get_column_letter(n_fixed)}"
    sheet.page_margins = ROUND_MARGINS
    sheet.col_breaks.append(Break(id=n_fixed + 3 * DEALS_ON_FIRST_PAGE))
    row, on_page = 2, 0
    for table in tables:
        size = len(table.player_ids)
        if on_page and on_page + size > ROWS_PER_PAGE:
            sheet.row_breaks.append(Break(id=row))
            on_page = 0
        row += size
        on_page += size


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
    columns; the second names the columns and carries the autofilter.
    """
    sheet = workbook.create_sheet(title=title[:31])
    bol = _("bol").replace('"', "")
    bol_format = f'"{bol}";"{bol}";"{bol}"'
    fixed = [_("Table"), _("Seat"), _("Name")]
    totals = [_("Revokes"), _("Bollen"), _("Points"), _("Correct"), _("Total")]
    per_deal = [_("Bid"), _("Tricks"), _("Points")]
    longest = max((len(players[p].name) for t in tables for p in t.player_ids), default=10)
    _set_widths(sheet, _round_widths(fixed, per_deal, totals, longest))
    width = len(fixed) + 3 * len(DEALS) + len(totals)
    sheet.freeze_panes = "D3"
    _round_page_setup(sheet, len(fixed), tables)
    sheet.auto_filter.ref = (
        f"A2:{get_column_letter(width)}{sum(len(t.player_ids) for t in tables) + 2}"
    )

    labels: list[Any] = [None] * len(fixed)
    for index, spec in enumerate(DEALS):
        first = len(fixed) + 3 * index + 1
        sheet.merged_cells.add(f"{get_column_letter(first)}1:{get_column_letter(first + 2)}1")
        # "5Z" and "5B" are text, the hand sizes numbers: no "number stored as text" flag.
        label = int(spec.label) if spec.label.isdigit() else spec.label
        labels += [_styled(sheet, label, font=BOLD, alignment=CENTER), None, None]
    sheet.append(labels)
    sheet.append([_styled(sheet, h, font=BOLD) for h in fixed + per_deal * len(DEALS) + totals])

    # A write-only sheet writes each cell as it is appended (openpyxl places it, then writes
    # it, before it looks at the next), so one styled cell of a value stands in every place
    # that shows it: a bol, a seat number, a table's number on its rows.
    empty_deal = [None, None, None]
    bol_cell = None  # styled at the first bol, so that a sheet without any adds no style
    seat_cells = [_styled(sheet, seat, alignment=CENTER) for seat in range(1, MAX_SEATS + 1)]
    for table in tables:
        deals = boxes[table.table_id]
        unwritten = empty_deal * (DEAL_COUNT - len(deals))
        table_cell = _styled(sheet, table.table_number, alignment=CENTER)
        for seat, player_id in enumerate(table.player_ids):
            row: list[Any] = [
                table_cell,
                seat_cells[seat],
                _styled(sheet, players[player_id].name, alignment=TEXT_INDENT),
            ]
            for deal in deals:
                bid, tricks = deal[seat]
                state, points = deal_box(bid, tricks)
                if state is CellState.KEPT:
                    score: Any = points
                elif state is CellState.BOL:
                    if bol_cell is None:
                        bol_cell = _styled(sheet, 0, number=bol_format)
                    score = bol_cell
                else:
                    score = None
                row += (bid, tricks, score)
            row += unwritten
            seat_totals = table.totals[seat]
            row += (
                seat_totals.penalty_bollen,
                seat_totals.bollen,
                seat_totals.points,
                seat_totals.correct,
                seat_totals.tournament_points,
            )
            sheet.append(row)


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
    sheet.append([_styled(sheet, h, font=BOLD) for h in header])
    for game in games:
        sheet.append(
            [
                game.round,
                game.table,
                _styled(sheet, players[game.player].name, alignment=TEXT_INDENT),
                game.tournament_points,
                game.bollen,
                game.points,
                game.correct,
            ]
        )


def add_statistics_sheet(
    workbook: Workbook, statistics: Statistics[int], players: dict[int, Player]
) -> None:
    """The bid tallies on one sheet (header frozen and filtered); the bol-free games and the
    best single game on the next, with column widths of their own."""
    rows = statistics_rows(statistics)
    sheet = workbook.create_sheet(title=_("Statistics")[:31])
    _set_widths(sheet, [max(len(rows.header[0]), 16), 30] + [len(h) + 3 for h in rows.header[2:]])
    sheet.freeze_panes = "A2"
    xlsx_printable(sheet, title_rows="1:1")
    sheet.auto_filter.ref = f"A1:{get_column_letter(len(rows.header))}{len(rows.rows) + 1}"
    sheet.append([_styled(sheet, h, font=BOLD) for h in rows.header])
    for values in rows.rows:
        sheet.append(
            [xlsx_cell(sheet, v) for v in values[:7]]
            + [_styled(sheet, v, number=PERCENT) for v in values[7:]]
        )

    games = workbook.create_sheet(title=_("Games")[:31])
    _set_widths(games, GAME_HEADER_WIDTHS)
    xlsx_printable(games, orientation="portrait")
    bol_free = _("Bol-free games: %(count)s of %(games)s games") % {
        "count": len(statistics.bol_free),
        "games": statistics.player_games,
    }
    games.append([_styled(games, bol_free, font=BOLD)])
    _game_rows(games, statistics.bol_free, players)
    games.append([])
    games.append([_styled(games, _("Best single game"), font=BOLD)])
    _game_rows(games, statistics.best, players)
