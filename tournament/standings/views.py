"""The standings page and its downloads."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django_tables2 import RequestConfig

from tournament.adapter import tournament_standings
from tournament.exports.standings import StandingsExporter
from tournament.models import Tournament
from tournament.permissions import director_required, team_required
from tournament.standings.tables import StandingsTable, standings_notes, standings_table_rows


@team_required
def standings_page(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    standings = tournament_standings(tournament)
    rows, rounds = standings_table_rows(tournament, standings)
    table = StandingsTable(rows, rounds=rounds)
    RequestConfig(request, paginate=False).configure(table)
    return render(
        request,
        "tournament/standings.html",
        {
            "tournament": tournament,
            "tab": "standings",
            "table": table,
            "rows": table.data.data,  # in the order the table was sorted
            "left_out": standings.left_out,
            **standings_notes(tournament, rows),
        },
    )


@director_required
def standings_download(request: HttpRequest, tournament: Tournament, format: str) -> HttpResponse:
    if format not in StandingsExporter.formats:
        raise Http404
    return StandingsExporter(tournament, format=format).render().response()
