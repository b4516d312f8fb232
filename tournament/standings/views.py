"""The standings page and its downloads."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django_tables2 import RequestConfig

from tournament.models import Tournament
from tournament.permissions import director_required, team_required
from tournament.rounds.overview import planned_rounds_done
from tournament.standings.exports import StandingsExporter
from tournament.standings.prizes import standings_prizes
from tournament.standings.tables import StandingsTable, ranked_standings, standings_notes


@team_required
def standings_page(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    standings = ranked_standings(tournament)
    # A copy of the list: the table sorts it in place, the cached rows keep their order.
    table = StandingsTable(list(standings.rows), rounds=standings.rounds)
    RequestConfig(request, paginate=False).configure(table)
    rows = table.data.data  # in the order the table was sorted
    prizes = standings_prizes(tournament, standings.rows)
    if prizes:  # the cached rows stay as they are: each prize on a copy
        labels = prizes.labels()
        rows = [
            {**row, "prize": labels.get(row["player_id"], ""), "loser": prizes.loses(row)}
            for row in rows
        ]
    return render(
        request,
        "tournament/standings.html",
        {
            "tournament": tournament,
            "tab": "standings",
            "table": table,
            "rows": rows,
            "prizes": prizes,
            "left_out": standings.left_out,
            "state": standings.state,
            "planned_done": planned_rounds_done(tournament),
            **standings_notes(tournament, standings.rows),
        },
    )


@director_required
def standings_download(request: HttpRequest, tournament: Tournament, format: str) -> HttpResponse:
    if format not in StandingsExporter.formats:
        raise Http404
    return StandingsExporter(tournament, format=format).render().response()
