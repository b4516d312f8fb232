"""Standings exports: JSON (as in tournament-v1.md) for other tools; CSV and Excel for people.

The JSON keeps the format's keys and the ids of the tournament file. CSV and Excel show what the
standings page shows, in the tournament's language: rank, name, club, total, the points of each
round counted, bollen and correct deals; no ids. Dutch CSV is separated by ";" as Dutch Excel
expects, English CSV by ",".
"""

from __future__ import annotations

import json
from typing import Any

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from tournament.exports.base import (
    CSV_TYPE,
    JSON_TYPE,
    XLSX_TYPE,
    ExportFile,
    Rows,
    csv_delimiter,
    download_name,
    render_csv,
    render_xlsx,
    xlsx_heading,
)
from tournament.models import Tournament
from tournament.standings.selectors import Standings, tournament_standings


def standings_document(tournament: Tournament, standings: Standings) -> dict[str, Any]:
    """The standings JSON of tournament-v1.md; ``player`` is the id from the tournament file."""
    rows = []
    for row in standings.rows:
        player = standings.players[row.player]
        rows.append(
            {
                "rank": row.rank,
                "player": player.file_id,
                "name": player.name,
                "points": row.tournament_points,
                "bollen": row.bollen,
                "correct": row.correct,
                "per_round": [row.per_round.get(r) for r in standings.rounds_counted],
            }
        )
    return {
        "tournament": tournament.name,
        "rounds_counted": len(standings.rounds_counted),
        "standings": rows,
    }


def standings_rows(standings: Standings) -> Rows:
    """The standings page's columns, headed in the active language: rank, name, club, total,
    each round counted, bollen, correct. A round a player has not played is empty."""
    rounds = standings.rounds_counted
    header = [_("Rank"), _("Name"), _("Club"), _("Total")]
    header += [_("R%(number)s") % {"number": r} for r in rounds]
    header += [_("Bollen"), _("Correct")]
    rows = []
    for row in standings.rows:
        player = standings.players[row.player]
        rows.append(
            [row.rank, player.name, player.club, row.tournament_points]
            + [row.per_round.get(r) for r in rounds]
            + [row.bollen, row.correct]
        )
    return Rows(header=header, rows=rows)


class StandingsExporter:
    """The standings in one of three formats; CSV and Excel share ``rows()``.

    ``delimiter`` overrides the CSV separator that the tournament's language implies.
    """

    formats = ("json", "csv", "xlsx")

    def __init__(
        self, tournament: Tournament, *, format: str = "json", delimiter: str | None = None
    ) -> None:
        if format not in self.formats:
            raise ValueError(f"Unknown standings format {format!r}; use one of {self.formats}.")
        if delimiter is not None and len(delimiter) != 1:
            raise ValueError(f"A CSV delimiter is one character, not {delimiter!r}.")
        self.tournament = tournament
        self.format = format
        self.delimiter = delimiter or csv_delimiter(tournament.language)
        self._standings: Standings | None = None

    @property
    def standings(self) -> Standings:
        if self._standings is None:
            self._standings = tournament_standings(self.tournament)
        return self._standings

    def rows(self) -> Rows:
        with translation.override(self.tournament.language):
            return standings_rows(self.standings)

    def render(self) -> ExportFile:
        if self.format == "json":
            # For other tools: the same name in every language.
            document = standings_document(self.tournament, self.standings)
            data = json.dumps(document, ensure_ascii=False, indent=2).encode("utf-8") + b"\n"
            return ExportFile(f"{self.tournament.slug}-standings.json", JSON_TYPE, data)
        name = pgettext("file name", "standings")
        if self.format == "csv":
            data = render_csv(self.rows(), delimiter=self.delimiter)
            return ExportFile(download_name(self.tournament, name, "csv"), CSV_TYPE, data)
        with translation.override(self.tournament.language):
            title = _("Standings")
            data = render_xlsx(
                f"{title} {self.tournament.name}",
                [(title, self.rows())],
                heading=xlsx_heading(self.tournament),
            )
        return ExportFile(download_name(self.tournament, name, "xlsx"), XLSX_TYPE, data)
