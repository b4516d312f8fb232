"""Standings exports: JSON (as in tournament-v1.md), CSV and Excel with the same columns."""

from __future__ import annotations

import json
from typing import Any

from django.utils.translation import gettext as _

from tournament.adapter import Standings, tournament_standings
from tournament.exports.base import (
    CSV_TYPE,
    JSON_TYPE,
    XLSX_TYPE,
    ExportFile,
    Rows,
    render_csv,
    render_xlsx,
)
from tournament.models import Tournament


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


class StandingsExporter:
    """The standings in one of three formats; all share ``rows()``."""

    identifier = "standings"
    formats = ("json", "csv", "xlsx")

    def __init__(self, tournament: Tournament, *, format: str = "json") -> None:
        if format not in self.formats:
            raise ValueError(f"Unknown standings format {format!r}; use one of {self.formats}.")
        self.tournament = tournament
        self.format = format
        self._standings: Standings | None = None

    @property
    def verbose_name(self) -> str:
        return _("Standings")

    @property
    def standings(self) -> Standings:
        if self._standings is None:
            self._standings = tournament_standings(self.tournament)
        return self._standings

    def rows(self) -> Rows:
        document = standings_document(self.tournament, self.standings)
        header = ["rank", "player", "name", "points", "bollen", "correct"]
        header += [f"round_{r}" for r in self.standings.rounds_counted]
        values = [
            [r["rank"], r["player"], r["name"], r["points"], r["bollen"], r["correct"]]
            + r["per_round"]
            for r in document["standings"]
        ]
        return Rows(header=header, rows=values)

    def render(self) -> ExportFile:
        stem = f"{self.tournament.slug}-standings"
        if self.format == "json":
            document = standings_document(self.tournament, self.standings)
            data = json.dumps(document, ensure_ascii=False, indent=2).encode("utf-8") + b"\n"
            return ExportFile(f"{stem}.json", JSON_TYPE, data)
        if self.format == "csv":
            return ExportFile(f"{stem}.csv", CSV_TYPE, render_csv(self.rows()))
        return ExportFile(f"{stem}.xlsx", XLSX_TYPE, render_xlsx([(_("Standings"), self.rows())]))
