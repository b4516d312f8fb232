"""Season exports: the standings as JSON (for scripts), CSV, and the season workbook (standings,
one sheet per evening, the season's statistics), sharing the rows of ``tournament/exports``."""

from __future__ import annotations

import io
import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.utils.text import slugify
from django.utils.translation import get_language, gettext_lazy, pgettext
from django.utils.translation import gettext as _
from openpyxl.cell.cell import Cell
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.worksheet import Worksheet

from scoring.statistics import HAND_SIZES, BidTally, Game, tournament_statistics
from tournament.adapter import load_table_sheets
from tournament.exports.base import (
    CSV_TYPE,
    JSON_TYPE,
    TEXT_INDENT,
    XLSX_TYPE,
    ExportFile,
    Rows,
    csv_delimiter,
    new_workbook,
    render_csv,
    xlsx_add_sheet,
    xlsx_cell,
    xlsx_page_header,
)
from tournament.models import Competition
from tournament.season.selectors import Season, season_of

# The published JSON Schema of ``season_document`` (its $id: urn:bollen-toernooi:schema:
# competition-standings-v1).
SCHEMA_PATH = (
    Path(__file__).resolve().parent.parent / "formats" / "competition-standings-v1.schema.json"
)


def season_document(season: Season) -> dict[str, Any]:
    """The JSON of ``export_competition_standings``, as
    ``tournament/formats/competition-standings-v1.schema.json`` describes it: ``points`` is the
    sum over ``counted``; ``final`` once every evening is finished, each row ``provisional``
    while a result of it can still change, and ``evening_list`` says which evening is final."""
    rows = []
    for row in season.rows:
        member = season.members[row.member]
        rows.append(
            {
                "rank": row.rank,
                "name": member.name,
                "club": member.club,
                "points": row.points,
                "evenings": row.played,
                "counted": list(row.counted),
                "per_evening": [r.points if r else None for r in row.per_evening],
                "provisional": season.is_provisional(row),
                "provisional_evenings": [
                    n for n in season.numbers if season.is_provisional(row, n)
                ],
            }
        )
    return {
        "competition": season.competition.name,
        "evenings": len(season.evenings),
        "final": season.final,
        "evening_list": [
            {
                "number": evening.number,
                "name": evening.tournament.name,
                "slug": evening.tournament.slug,
                "date": evening.tournament.date.isoformat() if evening.tournament.date else None,
                "final": evening.final,
            }
            for evening in season.evenings
        ],
        "standings": rows,
    }


@dataclass(frozen=True, slots=True)
class Points:
    """A number of the season workbook that stays a number (columns still sum and sort) and
    shows its marks through the cell's number format: ``*`` when provisional, in brackets when
    the evening does not count."""

    value: int
    provisional: bool = False
    bracketed: bool = False

    @property
    def number_format(self) -> str:
        mark = '"*"' if self.provisional else ""
        if self.bracketed:
            return f'"("0{mark}")";"(-"0{mark}")";"("0{mark}")"'
        return f"0{mark};-0{mark};0{mark}"

    def __str__(self) -> str:
        text = f"{self.value}{'*' if self.provisional else ''}"
        return f"({text})" if self.bracketed else text


PROVISIONAL_LEGEND = gettext_lazy("provisional: from an evening still being played (not finished)")


def season_rows(season: Season, *, csv: bool = False) -> Rows:
    """The season page's columns: rank, name, club, points, each evening (one that does not
    count in brackets), evenings played, bollen and correct counted. A result of an evening
    still being played is provisional (``Season.is_provisional``): in the workbook a
    ``Points`` number shown with ``*`` (an evening with no entered sheet for the member is the
    mark alone), the evening's header marked and a legend row; in the CSV plain numbers, a
    column naming the provisional evenings and a last column "Provisional" ("yes" or empty,
    as the tournament standings CSV has it)."""
    in_play = set(season.in_play)
    label = {n: _("E%(number)s") % {"number": n} for n in season.numbers}
    header = [_("Rank"), _("Name"), _("Club"), _("Points")]
    header += [f"{label[n]}*" if n in in_play and not csv else label[n] for n in season.numbers]
    header += [_("Evenings"), _("Bollen"), _("Correct")]
    if csv:
        header += [_("Provisional evenings"), _("Provisional")]
    rows = []
    for row in season.rows:
        member = season.members[row.member]
        cells: list[Any] = []
        marked = []
        for number, result in zip(season.numbers, row.per_evening, strict=True):
            provisional = season.is_provisional(row, number)
            if provisional:
                marked.append(label[number])
            if result is None:
                cells.append("*" if provisional and not csv else None)
                continue
            bracketed = number not in row.counted
            if csv:
                cells.append(f"({result.points})" if bracketed else result.points)
            else:
                cells.append(Points(result.points, provisional, bracketed))
        rank: Any = row.rank if row.rank is not None else _("unranked")
        points: Any = row.points if csv else Points(row.points, season.is_provisional(row))
        totals: list[Any] = [row.played, row.bollen, row.correct]
        if csv:
            totals += [" ".join(marked), _("yes") if season.is_provisional(row) else ""]
        rows.append([rank, member.name, member.club, points, *cells, *totals])
    if (season.any_provisional or in_play) and not csv:
        rows.append([None] * len(header))
        rows.append(["*", str(PROVISIONAL_LEGEND), *[None] * (len(header) - 2)])
        rows.append([None, season.title(), *[None] * (len(header) - 2)])
    return Rows(header=header, rows=rows)


def evening_rows(season: Season, index: int) -> Rows:
    """One evening's standings; while it is still being played every total is marked ``*``
    (with the legend and the evening's own standings heading below)."""
    evening = season.evenings[index]
    header = [_("Rank"), _("Name"), _("Club"), _("Total"), _("Bollen"), _("Correct")]
    rows = []
    for row in evening.rows:
        player = evening.players[row.player]
        total = Points(row.tournament_points, evening.is_provisional(row.player))
        rows.append([row.rank, player.name, player.club, total, row.bollen, row.correct])
    rows.append([None] * len(header))
    if not evening.final or evening.standings.any_provisional:
        rows.append(["*", str(PROVISIONAL_LEGEND), *[None] * (len(header) - 2)])
    rows.append([None, evening.title(), *[None] * (len(header) - 2)])
    return Rows(header=header, rows=rows)


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


class SeasonExporter:
    """The season standings as json, csv or xlsx (the workbook)."""

    identifier = "season"
    formats = ("json", "csv", "xlsx")

    def __init__(self, season: Season, *, format: str = "json") -> None:
        if format not in self.formats:
            raise ValueError(f"Unknown format {format!r}; use one of {self.formats}.")
        self.season = season
        self.format = format

    @classmethod
    def of(cls, competition: Competition, *, format: str = "json") -> SeasonExporter:
        return cls(season_of(competition), format=format)

    @property
    def verbose_name(self) -> str:
        return _("Season standings")

    def render(self) -> ExportFile:
        slug = self.season.competition.slug
        if self.format == "json":
            data = json.dumps(season_document(self.season), ensure_ascii=False, indent=2)
            return ExportFile(f"{slug}-season.json", JSON_TYPE, data.encode("utf-8") + b"\n")
        name = slugify(pgettext("file name", "season"))
        if self.format == "csv":
            data_csv = render_csv(
                season_rows(self.season, csv=True), delimiter=csv_delimiter(get_language() or "nl")
            )
            return ExportFile(f"{slug}-{name}.csv", CSV_TYPE, data_csv)
        title = f"{self.season.competition}: {self.season.title()}"
        sheets = [(_("Standings"), season_rows(self.season))]
        for index, evening in enumerate(self.season.evenings):
            label = _("Evening %(number)s") % {"number": evening.number}
            sheets.append((label, evening_rows(self.season, index)))
        stats = season_statistics(self.season)
        sheets.append((_("Statistics"), statistics_rows(self.season, stats)))
        data_xlsx = _season_workbook(title, sheets)
        return ExportFile(f"{slug}-{name}.xlsx", XLSX_TYPE, data_xlsx)


def _season_workbook(title: str, sheets: list[tuple[str, Rows]]) -> bytes:
    """``render_xlsx`` of the sheets, with each ``Points`` stored as its number and shown
    with its marks by a number format."""
    workbook = new_workbook(title)
    for sheet_title, rows in sheets:
        widths = [
            min(
                max(
                    max([len(str(h))] + [len(str(r[i])) for r in rows.rows if r[i] is not None])
                    + 2,
                    6,
                ),
                40,
            )
            for i, h in enumerate(rows.header)
        ]
        sheet = xlsx_add_sheet(
            workbook, sheet_title, Rows(header=rows.header, rows=[]), widths=widths
        )
        for row in rows.rows:
            sheet.append([_cell(sheet, v) for v in row])
        if rows.header:
            last = get_column_letter(len(rows.header))
            sheet.auto_filter.ref = f"A1:{last}{len(rows.rows) + 1}"
    xlsx_page_header(workbook, title)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def _cell(sheet: Worksheet, value: Any) -> Cell:
    if isinstance(value, Points):
        cell = xlsx_cell(sheet, value.value)
        cell.number_format = value.number_format
        return cell
    cell = xlsx_cell(sheet, value)
    if isinstance(value, str):
        cell.alignment = TEXT_INDENT
    return cell
