"""Season exports: the standings as JSON (for scripts), CSV, and the season workbook (standings,
one sheet per evening, the season's statistics), sharing the rows of ``tournament/exports``.

Every evening's points are numbers in every file (a spreadsheet adds them up); whether an
evening counts is a column of its own (the CSV, the workbook) and a style (the workbook: bold
counts, grey does not), never text around the number. The workbook says what it is: the title,
the club, the rule and its minimum above the standings, the guests apart below them, and the
key to the evenings (A1 = which evening, its date)."""

from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

from django.utils.formats import date_format
from django.utils.text import slugify
from django.utils.translation import get_language, gettext_lazy, pgettext
from django.utils.translation import gettext as _

from scoring.season import GuestRow, SeasonRow
from tournament.exports.base import (
    CSV_TYPE,
    JSON_TYPE,
    XLSX_TYPE,
    ExportFile,
    Rows,
    csv_delimiter,
    render_csv,
)
from tournament.models import Competition
from tournament.season.selectors import Evening, Season, average_shown, season_of
from tournament.season.workbook import (
    Heading,
    Points,
    SeasonSheet,
    season_statistics,
    season_workbook,
    statistics_rows,
)

# The published JSON Schema of ``season_document`` (its $id: urn:bollen-toernooi:schema:
# competition-standings-v1).
SCHEMA_PATH = (
    Path(__file__).resolve().parent.parent / "formats" / "competition-standings-v1.schema.json"
)


def _average_number(average: Fraction | None) -> float | None:
    shown = average_shown(average)
    return None if shown is None else float(shown)


def season_document(season: Season) -> dict[str, Any]:
    """The JSON of ``export_competition_standings``, as
    ``tournament/formats/competition-standings-v1.schema.json`` describes it: ``points`` is the
    sum over ``counted``; ``final`` once every evening is finished, each row ``provisional``
    while a result of it can still change, and ``evening_list`` says which evening is final
    (and complete); the guests apart under ``guests``, never in ``standings``."""
    competition = season.competition

    def per_evening(row: SeasonRow[int] | GuestRow[int]) -> dict[str, Any]:
        return {
            "per_evening": [r.points if r else None for r in row.per_evening],
            "provisional": season.is_provisional(row),
            "provisional_evenings": [n for n in season.numbers if season.is_provisional(row, n)],
        }

    rows = []
    for row in season.rows:
        member = season.members[row.member]
        rows.append(
            {
                "rank": row.rank,
                "name": member.name,
                "club": member.club,
                "points": row.points,
                "average": _average_number(row.average),
                "bollen": row.bollen,
                "correct": row.correct,
                "evenings": row.played,
                "counted": list(row.counted),
                **per_evening(row),
            }
        )
    guests = []
    for guest in season.guests:
        member = season.members[guest.member]
        guests.append(
            {
                "name": member.name,
                "club": member.club,
                "points": guest.points,
                "bollen": guest.bollen,
                "correct": guest.correct,
                "evenings": guest.played,
                **per_evening(guest),
            }
        )
    return {
        "competition": competition.name,
        "season": competition.season,
        "club": competition.club.name,
        "ranking": season.rule.ranking.value,
        "best": season.rule.counting,
        "min_evenings": competition.min_evenings,
        "evenings": len(season.evenings),
        "final": season.final,
        "evening_list": [
            {
                "number": evening.number,
                "name": evening.tournament.name,
                "slug": evening.tournament.slug,
                "date": evening.tournament.date.isoformat() if evening.tournament.date else None,
                "final": evening.final,
                "complete": evening.complete,
            }
            for evening in season.evenings
        ],
        "standings": rows,
        "guests": guests,
    }


PROVISIONAL_LEGEND = gettext_lazy("provisional: from an evening still being played (not finished)")


def _decimal(value: Decimal | None, *, csv: bool) -> Any:
    """An average: a number in the workbook; in the CSV written with the decimal sign of the
    language's spreadsheets (Dutch: a comma), so that it is read as a number."""
    if value is None or not csv:
        return None if value is None else float(value)
    text = f"{value:.2f}"
    return text.replace(".", ",") if csv_delimiter(get_language() or "nl") == ";" else text


def evening_label(number: int) -> str:
    return _("E%(number)s") % {"number": number}


def season_rows(season: Season, *, csv: bool = False) -> Rows:
    """The season page's columns: rank, name, club, points (and the average, when the season
    ranks by it), each evening's points, evenings played, bollen and correct counted, and
    (when only the best evenings count) the counted evenings named in a column of their own.
    Every evening's points are a number; in the workbook one that counts is bold and one that
    does not grey. A result of an evening still being played is provisional
    (``Season.is_provisional``): in the workbook a ``Points`` number shown with ``*`` (an
    evening with no entered sheet for the member is the mark alone), the evening's header
    marked; in the CSV plain numbers, a column naming the provisional evenings and a last
    column "Provisional" ("yes" or empty, as the tournament standings CSV has it). Members
    only: the guests are ``guest_rows``."""
    in_play = set(season.in_play)
    label = {n: evening_label(n) for n in season.numbers}
    best_only = season.rule.counting is not None
    header = [_("Rank"), _("Name"), _("Club"), _("Points")]
    if season.by_average:
        header.append(_("Average"))
    header += [f"{label[n]}*" if n in in_play and not csv else label[n] for n in season.numbers]
    header += [_("Evenings"), _("Bollen"), _("Correct")]
    if best_only:
        header.append(_("Counted evenings"))
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
            elif csv:
                cells.append(result.points)
            else:
                counts = number in row.counted if best_only else None
                cells.append(Points(result.points, provisional, counts))
        rank: Any = row.rank if row.rank is not None else _("unranked")
        points: Any = row.points if csv else Points(row.points, season.is_provisional(row))
        average = [_decimal(average_shown(row.average), csv=csv)] if season.by_average else []
        totals: list[Any] = [row.played, row.bollen, row.correct]
        if best_only:
            totals.append(" ".join(label[n] for n in row.counted))
        if csv:
            totals += [" ".join(marked), _("yes") if season.is_provisional(row) else ""]
        rows.append([rank, member.name, member.club, points, *average, *cells, *totals])
    return Rows(header=header, rows=rows)


def guest_rows(season: Season) -> list[list[Any]]:
    """The guests in the columns of ``season_rows``'s workbook: no rank, the points of every
    evening played, nothing counted."""
    rows = []
    for guest in season.guests:
        member = season.members[guest.member]
        cells: list[Any] = []
        for number, result in zip(season.numbers, guest.per_evening, strict=True):
            provisional = season.is_provisional(guest, number)
            if result is None:
                cells.append("*" if provisional else None)
            else:
                cells.append(Points(result.points, provisional))
        average = [None] if season.by_average else []
        totals: list[Any] = [guest.played, guest.bollen, guest.correct]
        if season.rule.counting is not None:
            totals.append(None)
        points = Points(guest.points, season.is_provisional(guest))
        rows.append([None, member.name, member.club, points, *average, *cells, *totals])
    return rows


def _blank(width: int) -> list[Any]:
    return [None] * width


def _line(width: int, *values: Any) -> list[Any]:
    return [*values, *_blank(width - len(values))]


def evening_described(evening: Evening) -> str:
    """ "Clubavond 1, 4 September 2026", and "(still being played)" while it is."""
    tournament = evening.tournament
    text = tournament.name
    if tournament.date:
        text += f", {date_format(tournament.date, 'j F Y')}"
    if not evening.final:
        text += f" ({_('still being played')})"
    return text


def _evening_key(season: Season, width: int) -> list[list[Any]]:
    """Which evening is A1, A2 ...: its name and date, and whether it is still being played."""
    lines = [_line(width, Heading(_("Evenings")))]
    for evening in season.evenings:
        lines.append(_line(width, evening_label(evening.number), evening_described(evening)))
    return lines


def standings_sheet(season: Season) -> SeasonSheet:
    """The workbook's first sheet: the title, the club and the rule above the standings; the
    guests apart below them; then the legend and the key to the evenings."""
    table = season_rows(season)
    width = max(len(table.header), 4)
    competition = season.competition
    club = competition.club.name
    heading = [
        _line(width, f"{competition}: {season.title()}"),
        _line(width, f"{club}. {season.rule_text()}" if club else season.rule_text()),
    ]
    after: list[list[Any]] = []
    guests: list[list[Any]] = []
    if season.guests:
        guests = guest_rows(season)
        after += [_blank(width), _line(width, Heading(_("Guests (not ranked)"))), *guests]
    after.append(_blank(width))
    if season.rule.counting is not None:
        after.append(
            _line(width, None, _("Bold: an evening that counts; grey: one that does not."))
        )
    if season.any_provisional or season.in_play:
        after.append(_line(width, "*", str(PROVISIONAL_LEGEND)))
    if competition.min_evenings:
        after.append(
            _line(width, None, _("Unranked: fewer evenings than the minimum to be ranked."))
        )
    after += [_blank(width), *_evening_key(season, width)]
    return SeasonSheet(_("Standings"), heading, table, after, measured=guests)


def evening_rows(season: Season, index: int) -> Rows:
    """One evening's standings, each player by their member's current name (a rename or a
    merge reaches them), guests marked; while it is still being played every total is marked
    ``*``."""
    evening = season.evenings[index]
    header = [_("Rank"), _("Name"), _("Club"), _("Total"), _("Bollen"), _("Correct"), _("Guest")]
    rows = []
    for row in evening.rows:
        player = evening.players[row.player]
        member = season.members.get(player.member_id) if player.member_id is not None else None
        club = player.club if member is None else member.club
        total = Points(row.tournament_points, evening.is_provisional(row.player))
        guest = _("guest") if season.is_guest(player) else None
        rows.append(
            [row.rank, season.player_name(player), club, total, row.bollen, row.correct, guest]
        )
    return Rows(header=header, rows=rows)


def evening_sheet(season: Season, index: int) -> SeasonSheet:
    evening = season.evenings[index]
    table = evening_rows(season, index)
    width = len(table.header)
    name = _("Evening %(number)s") % {"number": evening.number}
    heading = [
        _line(width, f"{name}: {evening_described(evening)}"),
        _line(width, evening.title()),
    ]
    after = [_blank(width)]
    if not evening.final or evening.standings.any_provisional:
        after.append(_line(width, "*", str(PROVISIONAL_LEGEND)))
    return SeasonSheet(name, heading, table, after)


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
        sheets = [standings_sheet(self.season)]
        sheets += [evening_sheet(self.season, i) for i in range(len(self.season.evenings))]
        stats = season_statistics(self.season)
        sheets.append(SeasonSheet(_("Statistics"), [], statistics_rows(self.season, stats), []))
        return ExportFile(f"{slug}-{name}.xlsx", XLSX_TYPE, season_workbook(self.season, sheets))
