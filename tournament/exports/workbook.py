"""The final ranking workbook for the club: the standings, every round's sheets, and statistics.

Sheets (names in the tournament's language): the standings (``Klassement``: rank, name, club,
points per round, total, bollen, correct), one sheet per round with every table's full sheet
(bid, tricks, and the points or "bol" for each player and deal, then the totals of the form),
and ``Statistieken`` (``scoring.statistics`` laid out). Numbers are stored as numbers, text from
users never as a formula.
"""

from __future__ import annotations

import io
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from openpyxl import Workbook
from openpyxl.styles import Alignment, Font
from openpyxl.utils import get_column_letter
from openpyxl.worksheet._write_only import WriteOnlyWorksheet
from openpyxl.worksheet.worksheet import Worksheet

from scoring.deals import DEALS
from scoring.sheet import CellState
from scoring.statistics import BidTally, Game, GameScore, Statistics, tournament_statistics
from tournament.adapter import Standings, TableSheet, load_table_sheets, tournament_standings
from tournament.exports.base import XLSX_TYPE, ExportFile, Rows, xlsx_add_sheet, xlsx_cell
from tournament.models import Player, Round, Tournament

BOLD = Font(bold=True)
CENTER_ACROSS = Alignment(horizontal="centerContinuous")
PERCENT = "0.0%"


class FinalWorkbookExporter:
    """The workbook a director hands to the club after the last round."""

    identifier = "workbook"

    def __init__(self, tournament: Tournament) -> None:
        self.tournament = tournament

    @property
    def verbose_name(self) -> str:
        return _("Final ranking workbook")

    def render(self) -> ExportFile:
        with translation.override(self.tournament.language):
            data = self._workbook()
        return ExportFile(self._filename(), XLSX_TYPE, data)

    def _filename(self) -> str:
        """``-final`` only once every planned round is complete; before that the file says
        which round it stands at, so an early copy is not taken for the final one."""
        slug = self.tournament.slug
        states = dict(self.tournament.rounds.values_list("number", "state"))
        in_play = [number for number, state in states.items() if state != Round.State.COMPLETE]
        if in_play:
            return f"{slug}-during-round-{max(in_play)}.xlsx"
        if len(states) < self.tournament.rounds_planned:
            return f"{slug}-after-round-{max(states, default=0)}.xlsx"
        return f"{slug}-final.xlsx"

    def _workbook(self) -> bytes:
        standings = tournament_standings(self.tournament)
        sheets = load_table_sheets(tournament=self.tournament)
        results = {sheet.table_id: sheet.result() for sheet in sheets}
        workbook = Workbook(write_only=True)
        xlsx_add_sheet(workbook, _("Standings"), standings_rows(standings))
        _printable(workbook.worksheets[-1], title_rows="1:1")
        by_round: dict[int, list[TableSheet]] = defaultdict(list)
        for sheet in sheets:
            by_round[sheet.round_number].append(sheet)
        for number, tables in sorted(by_round.items()):
            title = _("Round %(number)s") % {"number": number}
            add_round_sheet(workbook, title, tables, results, standings.players)
        games = [
            Game(s.round_number, s.table_number, s.player_ids, results[s.table_id]) for s in sheets
        ]
        add_statistics_sheet(workbook, tournament_statistics(games), standings.players)
        buffer = io.BytesIO()
        workbook.save(buffer)
        return buffer.getvalue()


def standings_rows(standings: Standings) -> Rows:
    """Rank, name, club, the points of each round counted, total, bollen, correct."""
    rounds = standings.rounds_counted
    header = [_("Rank"), _("Name"), _("Club")]
    header += [_("R%(number)s") % {"number": r} for r in rounds]
    header += [_("Total"), _("Bollen"), _("Correct")]
    rows = []
    for row in standings.rows:
        player = standings.players[row.player]
        rows.append(
            [row.rank, player.name, player.club]
            + [row.per_round.get(r) for r in rounds]
            + [row.tournament_points, row.bollen, row.correct]
        )
    return Rows(header=header, rows=rows)


def _printable(sheet: WriteOnlyWorksheet, *, title_rows: str) -> None:
    """Printed from Excel: landscape, as wide as one page, the header on every page."""
    sheet.page_setup.orientation = "landscape"
    sheet.page_setup.paperSize = Worksheet.PAPERSIZE_A4
    sheet.page_setup.fitToWidth = 1
    sheet.page_setup.fitToHeight = 0
    sheet.sheet_properties.pageSetUpPr.fitToPage = True
    sheet.print_title_rows = title_rows


def _set_widths(sheet: WriteOnlyWorksheet, widths: Sequence[float]) -> None:
    for index, width in enumerate(widths, start=1):
        sheet.column_dimensions[get_column_letter(index)].width = width


def _styled(sheet: WriteOnlyWorksheet, value: Any, *, font=None, alignment=None, number=None):
    cell = xlsx_cell(sheet, value)
    if font is not None:
        cell.font = font
    if alignment is not None:
        cell.alignment = alignment
    if number is not None:
        cell.number_format = number
    return cell


def add_round_sheet(
    workbook: Workbook,
    title: str,
    tables: Sequence[TableSheet],
    results: dict,
    players: dict[int, Player],
) -> None:
    """One row per player in table and seat order, as on the paper form: per deal the bid, the
    tricks and the points (the bid when kept, "bol" when not), then revokes and the totals.

    The first header row names the deals (1 2 3 4 5 5Z 5B 4 3 2 1) above their three columns;
    the second names the columns and carries the autofilter.
    """
    sheet = workbook.create_sheet(title=title[:31])
    bol = _("bol")
    fixed = [_("Table"), _("Seat"), _("Name")]
    totals = [_("Revokes"), _("Bollen"), _("Points"), _("Correct"), _("Total")]
    per_deal = [_("Bid"), _("Tricks"), _("Points")]
    longest = max((len(players[p].name) for t in tables for p in t.player_ids), default=10)
    _set_widths(
        sheet,
        [max(len(h) + 2, 6) for h in fixed[:2]]
        + [min(max(longest + 2, 12), 40)]
        + [max(len(h) + 1.5, 5) for h in per_deal] * len(DEALS)
        + [max(len(h) + 2, 8) for h in totals],
    )
    width = len(fixed) + 3 * len(DEALS) + len(totals)
    sheet.freeze_panes = "D3"
    _printable(sheet, title_rows="1:2")
    sheet.auto_filter.ref = (
        f"A2:{get_column_letter(width)}{sum(len(t.player_ids) for t in tables) + 2}"
    )

    labels: list[Any] = [None] * len(fixed)
    for spec in DEALS:
        labels += [
            _styled(sheet, spec.label, font=BOLD, alignment=CENTER_ACROSS),
            _styled(sheet, None, alignment=CENTER_ACROSS),
            _styled(sheet, None, alignment=CENTER_ACROSS),
        ]
    sheet.append(labels)
    sheet.append([_styled(sheet, h, font=BOLD) for h in fixed + per_deal * len(DEALS) + totals])

    for table in tables:
        result = results[table.table_id]
        for seat, player_id in enumerate(table.player_ids):
            row: list[Any] = [
                table.table_number,
                seat + 1,
                xlsx_cell(sheet, players[player_id].name),
            ]
            for deal_cells in result.cells:
                cell = deal_cells[seat]
                if cell.state is CellState.KEPT:
                    score: Any = cell.points
                elif cell.state is CellState.BOL:
                    score = bol  # plain: a style on 40,000 cells costs a second
                else:
                    score = None
                row += [cell.bid, cell.tricks, score]
            seat_totals = result.totals[seat]
            row += [
                seat_totals.penalty_bollen,
                seat_totals.bollen,
                seat_totals.points,
                seat_totals.correct,
                seat_totals.tournament_points,
            ]
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


def statistics_rows(statistics: Statistics) -> Rows:
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


def _game_rows(sheet, games: Sequence[GameScore], players: dict[int, Player]) -> None:
    header = [_("Round"), _("Table"), _("Name"), _("Total"), _("Bollen"), _("Points"), _("Correct")]
    sheet.append([_styled(sheet, h, font=BOLD) for h in header])
    for game in games:
        sheet.append(
            [
                game.round,
                game.table,
                xlsx_cell(sheet, players[game.player].name),
                game.tournament_points,
                game.bollen,
                game.points,
                game.correct,
            ]
        )


def add_statistics_sheet(
    workbook: Workbook, statistics: Statistics, players: dict[int, Player]
) -> None:
    """The bid tallies (with the header frozen and filtered), then the bol-free games and the
    best single game below them."""
    rows = statistics_rows(statistics)
    sheet = workbook.create_sheet(title=_("Statistics")[:31])
    _set_widths(sheet, [max(len(rows.header[0]), 16), 30] + [len(h) + 3 for h in rows.header[2:]])
    sheet.freeze_panes = "A2"
    _printable(sheet, title_rows="1:1")
    sheet.auto_filter.ref = f"A1:{get_column_letter(len(rows.header))}{len(rows.rows) + 1}"
    sheet.append([_styled(sheet, h, font=BOLD) for h in rows.header])
    for values in rows.rows:
        sheet.append(
            [xlsx_cell(sheet, v) for v in values[:7]]
            + [_styled(sheet, v, number=PERCENT) for v in values[7:]]
        )

    sheet.append([])
    bol_free = _("Bol-free games: %(count)s of %(games)s games") % {
        "count": len(statistics.bol_free),
        "games": statistics.player_games,
    }
    sheet.append([_styled(sheet, bol_free, font=BOLD)])
    _game_rows(sheet, statistics.bol_free, players)
    sheet.append([])
    sheet.append([_styled(sheet, _("Best single game"), font=BOLD)])
    _game_rows(sheet, statistics.best, players)
