"""Season exports: the standings as JSON (for scripts), CSV, and the season workbook (standings,
one sheet per evening, the season's statistics), sharing the rows of ``tournament/exports``."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from typing import Any

from django.utils.text import slugify
from django.utils.translation import get_language, pgettext
from django.utils.translation import gettext as _

from scoring.statistics import HAND_SIZES, BidTally, Game, tournament_statistics
from tournament.adapter import load_table_sheets
from tournament.exports.base import (
    CSV_TYPE,
    JSON_TYPE,
    XLSX_TYPE,
    ExportFile,
    Rows,
    csv_delimiter,
    render_csv,
    render_xlsx,
)
from tournament.season.selectors import Season, season_of


def season_document(season: Season) -> dict[str, Any]:
    """The JSON of ``export_competition_standings``: ``points`` is the sum over ``counted``."""
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
            }
        )
    return {
        "competition": season.competition.name,
        "evenings": len(season.evenings),
        "standings": rows,
    }


def season_rows(season: Season) -> Rows:
    """The season page's columns: rank, name, club, points, each evening (one that does not
    count in brackets), evenings played, bollen and correct counted. A result from a sheet no
    director has confirmed yet is marked ``*`` (as text), and a legend row says so."""
    header = [_("Rank"), _("Name"), _("Club"), _("Points")]
    header += [_("E%(number)s") % {"number": n} for n in season.numbers]
    header += [_("Evenings"), _("Bollen"), _("Correct")]
    rows = []
    for row in season.rows:
        member = season.members[row.member]
        cells: list[Any] = []
        for number, result in zip(season.numbers, row.per_evening, strict=True):
            if result is None:
                cells.append(None)
                continue
            mark = "*" if season.is_provisional(row, number) else ""
            if number not in row.counted:
                cells.append(f"({result.points}{mark})")
            else:
                cells.append(f"{result.points}{mark}" if mark else result.points)
        rank: Any = row.rank if row.rank is not None else _("unranked")
        points: Any = f"{row.points}*" if season.is_provisional(row) else row.points
        totals = [row.played, row.bollen, row.correct]
        rows.append([rank, member.name, member.club, points, *cells, *totals])
    if season.any_provisional:
        rows.append([None] * len(header))
        legend = _("provisional: from a sheet that no director has confirmed yet")
        rows.append(["*", legend, *[None] * (len(header) - 2)])
    return Rows(header=header, rows=rows)


def evening_rows(season: Season, index: int) -> Rows:
    evening = season.evenings[index]
    header = [_("Rank"), _("Name"), _("Club"), _("Total"), _("Bollen"), _("Correct")]
    rows = []
    for row in evening.rows:
        player = evening.players[row.player]
        rows.append(
            [row.rank, player.name, player.club, row.tournament_points, row.bollen, row.correct]
        )
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
            member = evening.players[game.player].member_id  # type: ignore[index]
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
    def of(cls, competition, *, format: str = "json") -> SeasonExporter:
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
                season_rows(self.season), delimiter=csv_delimiter(get_language() or "nl")
            )
            return ExportFile(f"{slug}-{name}.csv", CSV_TYPE, data_csv)
        title = f"{_('Season standings')} {self.season.competition}"
        sheets = [(_("Standings"), season_rows(self.season))]
        for index, evening in enumerate(self.season.evenings):
            label = _("Evening %(number)s") % {"number": evening.number}
            sheets.append((label, evening_rows(self.season, index)))
        stats = season_statistics(self.season)
        sheets.append((_("Statistics"), statistics_rows(self.season, stats)))
        data = render_xlsx(title, sheets, heading=title)
        return ExportFile(f"{slug}-{name}.xlsx", XLSX_TYPE, data)
