"""Standings from the command line: JSON as in standings-v1.schema.json for tools; CSV and Excel
as the standings page shows them, in the tournament's language."""

import csv
import io
import json

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from openpyxl import load_workbook

from tests import factories
from tournament.standings.exports import StandingsExporter
from tournament.standings.selectors import tournament_standings

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
    assert (document["final"], document["finished_at"]) == (False, None)
    assert document["rounds"] == document["rounds_complete"] == [1, 2]
    first = document["standings"][0]
    assert set(first) == {
        "rank",
        "player",
        "name",
        "points",
        "bollen",
        "correct",
        "per_round",
        "provisional",
    }
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
    # Round 2 is in the points, not among the complete rounds.
    assert (exported["rounds"], exported["rounds_complete"]) == ([1, 2], [1])
    assert exported["rounds_counted"] == 1
    per_round_2 = [row["per_round"][1] for row in exported["standings"]]
    # Four players are three deals into round 2; the other four have not started.
    assert sum(1 for v in per_round_2 if v not in (None, 0)) >= 1
    assert per_round_2.count(None) == 4


def test_dutch_csv_has_the_screens_columns_separated_by_semicolons(capsys):
    tournament = played_tournament()
    standings = tournament_standings(tournament)
    call_command("export_standings", tournament.slug, "--format", "csv")
    out = capsys.readouterr().out
    assert out.startswith("\ufeff")
    table = list(csv.reader(io.StringIO(out.removeprefix("\ufeff")), delimiter=";"))
    assert table[0] == [
        "Plaats",
        "Naam",
        "Club",
        "Totaal",
        "R1",
        "R2",
        "Bollen",
        "Goed",
        "Voorlopig",
    ]
    assert all(len(line) == 9 for line in table)
    assert not any(cell.startswith("p") and cell[1:].isdigit() for line in table for cell in line)
    for line, row in zip(table[1:], standings.rows, strict=True):
        player = standings.players[row.player]
        assert line[1] == ("'" + player.name if player.name.startswith("=") else player.name)
        assert [int(line[0]), int(line[3])] == [row.rank, row.tournament_points]
        assert [int(v) for v in line[4:6]] == [row.per_round[1], row.per_round[2]]
        assert [int(v) for v in line[6:8]] == [row.bollen, row.correct]
        assert line[8] == ""  # imported sheets: nothing provisional


def test_english_csv_uses_commas_and_the_delimiter_flag_overrides(capsys):
    tournament = played_tournament()
    tournament.language = "en"
    tournament.save(update_fields=["language"])
    call_command("export_standings", tournament.slug, "--format", "csv")
    header = capsys.readouterr().out.removeprefix("\ufeff").splitlines()[0]
    assert header == "Rank,Name,Club,Total,R1,R2,Bollen,Correct,Provisional"
    call_command("export_standings", tournament.slug, "--format", "csv", "--delimiter", "\\t")
    header = capsys.readouterr().out.removeprefix("\ufeff").splitlines()[0]
    assert header == "Rank\tName\tClub\tTotal\tR1\tR2\tBollen\tCorrect\tProvisional"
    with pytest.raises(CommandError, match="één teken"):
        call_command("export_standings", tournament.slug, "--format", "csv", "--delimiter", ";;")
    with pytest.raises(CommandError, match="--format csv"):
        call_command("export_standings", tournament.slug, "--format", "json", "--delimiter", ";")


def test_xlsx_is_the_csv_as_numbers_ready_to_print(tmp_path, capsys):
    tournament = played_tournament()
    call_command("export_standings", tournament.slug, "--format", "csv")
    text = capsys.readouterr().out.removeprefix("\ufeff")
    table = list(csv.reader(io.StringIO(text), delimiter=";"))

    path = tmp_path / "standings.xlsx"
    call_command("export_standings", tournament.slug, "--format", "xlsx", "-o", str(path))
    workbook = load_workbook(path)
    sheet = workbook.active
    assert sheet.title == "Klassement"
    assert workbook.properties.creator == "Bollen-toernooi"
    assert workbook.properties.title == "Testtoernooi: Stand na ronde 2"
    values = list(sheet.iter_rows(values_only=True))
    assert values[0][0] == "Stand na ronde 2"  # headed by the standings' state
    assert list(values[1]) == table[0]
    (formula_like,) = [row[1] for row in sheet.iter_rows(min_row=3) if row[1].value == '="1"']
    assert formula_like.data_type == "s"
    for row in sheet.iter_rows(min_row=3):
        assert all(cell.data_type != "f" for cell in row)
        assert all(cell.data_type == "n" for cell in row[3:-1])
        assert row[0].data_type == "n"
    for line, csv_line in zip(values[2:], table[1:], strict=True):
        assert [str(v) for v in line[3:-1]] == csv_line[3:-1]
        assert line[-1] is None and csv_line[-1] == ""
    assert sheet.freeze_panes == "A3"
    assert sheet.page_setup.orientation == "landscape"
    assert sheet.sheet_properties.pageSetUpPr.fitToPage
    assert (sheet.page_setup.fitToWidth, sheet.page_setup.fitToHeight) == (1, 0)
    assert sheet.print_title_rows == "$1:$2"


def test_the_site_downloads_the_standings_named_in_the_directors_language(
    director, director_client
):
    tournament = factories.played_tournament(8, 2, director=director)
    client = director_client
    url = reverse("standings_download", args=[tournament.slug, "csv"])
    response = client.get(url)
    assert response["Content-Disposition"].endswith(f'filename="{tournament.slug}-klassement.csv"')
    assert response.content.decode("utf-8-sig").startswith("Plaats;Naam;Club;Totaal")
    client.cookies["django_language"] = "en"
    response = client.get(url)
    assert response["Content-Disposition"].endswith(f'filename="{tournament.slug}-standings.csv"')
    # The file itself stays in the tournament's language.
    assert response.content.decode("utf-8-sig").startswith("Plaats;Naam;Club;Totaal")


def test_standings_queries_do_not_grow_with_players():
    small = played_tournament(8, 2, seed=3)
    large = played_tournament(40, 2, seed=4)
    counts = []
    for tournament in (small, large):
        with CaptureQueriesContext(connection) as queries:
            StandingsExporter(tournament, format="json").render()
        counts.append(len(queries))
    assert counts[0] == counts[1]
