"""Standings from the command line: JSON as in tournament-v1.md, CSV and Excel alike."""

import csv
import io
import json

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from openpyxl import load_workbook

from tests import factories
from tournament.adapter import tournament_standings
from tournament.exports.standings import StandingsExporter

pytestmark = pytest.mark.django_db


def played_tournament(n_players: int = 8, rounds: int = 2, *, seed: int = 1, last_round=None):
    names = ['="1"'] + [f"Speler {i}" for i in range(2, n_players + 1)]
    return factories.played_tournament(
        n_players, rounds, seed=seed, last_round=last_round, names=names
    )


def test_json_standings_follow_the_format(capsys):
    tournament = played_tournament()
    call_command("export_standings", tournament.slug, "--format", "json")
    document = json.loads(capsys.readouterr().out)
    assert document["tournament"] == "Testtoernooi"
    assert document["rounds_counted"] == 2
    first = document["standings"][0]
    assert set(first) == {"rank", "player", "name", "points", "bollen", "correct", "per_round"}
    assert first["rank"] == 1
    for row in document["standings"]:
        assert row["points"] == sum(row["per_round"])
    points = [row["points"] for row in document["standings"]]
    assert points == sorted(points, reverse=True)


def test_standings_are_live_during_a_round():
    tournament = played_tournament(rounds=2, last_round=[3, 0])
    standings = tournament_standings(tournament)
    assert standings.rounds_counted == (1, 2)
    exported = json.loads(StandingsExporter(tournament, format="json").render().data)
    per_round_2 = [row["per_round"][1] for row in exported["standings"]]
    # Four players are three deals into round 2; the other four have not started.
    assert sum(1 for v in per_round_2 if v not in (None, 0)) >= 1
    assert per_round_2.count(None) == 4


def test_csv_and_xlsx_have_the_json_columns_and_no_formulas(tmp_path):
    tournament = played_tournament()
    rows = json.loads(StandingsExporter(tournament, format="json").render().data)["standings"]

    text = StandingsExporter(tournament, format="csv").render().data.decode("utf-8-sig")
    table = list(csv.reader(io.StringIO(text)))
    assert table[0] == [
        "rank",
        "player",
        "name",
        "points",
        "bollen",
        "correct",
        "round_1",
        "round_2",
    ]
    by_player = {line[1]: line for line in table[1:]}
    assert by_player["p1"][2] == '\'="1"'
    for row in rows:
        assert int(by_player[row["player"]][3]) == row["points"]

    path = tmp_path / "standings.xlsx"
    call_command("export_standings", tournament.slug, "--format", "xlsx", "-o", str(path))
    sheet = load_workbook(path).active
    values = list(sheet.iter_rows(values_only=True))
    assert list(values[0]) == table[0]
    assert sheet.freeze_panes == "A2"
    cells = {row[1]: row for row in values[1:]}
    assert cells["p1"][2] == '="1"'  # stored as text, read back as the same text
    assert sheet.cell(row=2, column=4).data_type == "n"
    for row in rows:
        assert cells[row["player"]][3] == row["points"]


def test_standings_queries_do_not_grow_with_players():
    small = played_tournament(8, 2, seed=3)
    large = played_tournament(40, 2, seed=4)
    counts = []
    for tournament in (small, large):
        with CaptureQueriesContext(connection) as queries:
            StandingsExporter(tournament, format="json").render()
        counts.append(len(queries))
    assert counts[0] == counts[1]
