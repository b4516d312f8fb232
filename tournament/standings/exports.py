"""Standings exports: JSON for other tools; CSV and Excel for people.

The JSON follows ``tournament/formats/standings-v1.schema.json`` (with the ids of the tournament
file) and says whether the standings are final and which numbers are provisional. CSV and Excel
show what the standings page shows, in the tournament's language: rank, name, club, total, the
points of each round counted, bollen and correct deals, and "Provisional" ("yes" where a number
of the row can still change); no ids. The Excel sheet is headed with the standings' state
("Final standings, <date>" only once the tournament is finished) and marks each provisional
number with a ``*``, explained below the rows. Dutch CSV is separated by ";" as Dutch Excel
expects, English CSV by ",".
"""

from __future__ import annotations

import json
from typing import Any

from django.utils import timezone, translation
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


def provisional_legend() -> list[str]:
    """The line that explains the ``*``, in the active language (as on the pages and the PDF)."""
    return ["*", _("provisional: sheet not complete yet or not confirmed")]


def standings_document(tournament: Tournament, standings: Standings) -> dict[str, Any]:
    """The standings JSON (``standings-v1.schema.json``); ``player`` is the id from the
    tournament file. ``per_round`` lists the points of ``rounds`` (every round with a score, one
    being played included); ``rounds_counted`` is the number of complete rounds."""
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
                "provisional": standings.is_provisional(row.player),
            }
        )
    finished_at = standings.finished_at
    return {
        "tournament": tournament.name,
        "final": standings.final,
        "finished_at": (
            None
            if finished_at is None
            else timezone.localtime(finished_at).isoformat("T", "seconds")
        ),
        "rounds_counted": len(standings.rounds_complete),
        "rounds": list(standings.rounds_counted),
        "rounds_complete": list(standings.rounds_complete),
        "standings": rows,
    }


def standings_rows(standings: Standings) -> Rows:
    """The standings page's columns, headed in the active language: rank, name, club, total,
    each round counted, bollen, correct, and "Provisional" ("yes" or empty). A round a player
    has not played is empty. For Excel: headed by the standings' state, the provisional total
    and round points marked, with the legend below."""
    rounds = standings.rounds_counted
    header = [_("Rank"), _("Name"), _("Club"), _("Total")]
    header += [_("R%(number)s") % {"number": r} for r in rounds]
    header += [_("Bollen"), _("Correct"), _("Provisional")]
    rows = []
    marked: set[tuple[int, int]] = set()
    for index, row in enumerate(standings.rows):
        player = standings.players[row.player]
        provisional = standings.is_provisional(row.player)
        rows.append(
            [row.rank, player.name, player.club, row.tournament_points]
            + [row.per_round.get(r) for r in rounds]
            + [row.bollen, row.correct, _("yes") if provisional else None]
        )
        if provisional:
            marked.add((index, 3))
            marked |= {
                (index, 4 + k)
                for k, r in enumerate(rounds)
                if standings.is_provisional(row.player, r)
            }
    return Rows(
        header=header,
        rows=rows,
        title=standings.state.title(),
        notes=[provisional_legend()] if marked else [],
        marked=frozenset(marked),
    )


def workbook_title(tournament: Tournament, standings_title: str) -> str:
    """ "Testtoernooi: Stand na ronde 2 (voorlopig)": a workbook's title says how final it is."""
    return _("%(tournament)s: %(standings)s") % {
        "tournament": tournament.name,
        "standings": standings_title,
    }


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
            rows = self.rows()
            data = render_xlsx(
                workbook_title(self.tournament, rows.title),
                [(_("Standings"), rows)],
                heading=xlsx_heading(self.tournament),
            )
        return ExportFile(download_name(self.tournament, name, "xlsx"), XLSX_TYPE, data)
