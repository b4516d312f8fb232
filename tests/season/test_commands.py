"""The season commands, as a script would use them."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from jsonschema import Draft202012Validator
from openpyxl import load_workbook

from tests.season.conftest import NAMES, evening
from tournament.models import Competition
from tournament.season.exports import SCHEMA_PATH
from tournament.season.services import SeasonRefusal

pytestmark = pytest.mark.django_db


def run(*args) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


@pytest.fixture
def slug():
    first, second = evening(1, NAMES), evening(2, NAMES[:6])
    out = run(
        "competition_create",
        "--name",
        "Clubkampioen",
        "--tournament",
        first.slug,
        "--tournament",
        second.slug,
        "--best",
        "2",
        "--min-evenings",
        "2",
    )
    return out.strip().splitlines()[-1]


def test_create_prints_the_slug_last_and_add_takes_the_next_evening(slug):
    third = evening(3, NAMES[2:])
    out = run("competition_add", slug, "--tournament", third.slug)
    assert out.startswith("Avond 3: ")
    document = json.loads(run("export_competition_standings", slug, "--format", "json"))
    assert document["competition"] == "Clubkampioen"
    assert document["evenings"] == 3


def test_the_json_gives_points_as_the_sum_of_the_counted_evenings(slug):
    """Every key other tools read stays; what is final is added, as the schema says."""
    document = json.loads(run("export_competition_standings", slug, "--format", "json"))
    Draft202012Validator(json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))).validate(document)
    assert set(document) == {
        "competition",
        "season",
        "club",
        "ranking",
        "best",
        "min_evenings",
        "evenings",
        "final",
        "evening_list",
        "standings",
        "guests",
    }
    assert (document["ranking"], document["best"], document["min_evenings"]) == ("best", 2, 2)
    assert document["final"] is True and document["guests"] == []
    rows = document["standings"]
    assert len(rows) == len(NAMES)
    for row in rows:
        assert set(row) == {
            "rank",
            "name",
            "club",
            "points",
            "average",
            "bollen",
            "correct",
            "evenings",
            "counted",
            "per_evening",
            "provisional",
            "provisional_evenings",
        }
        assert row["provisional"] is False and row["provisional_evenings"] == []
        assert len(row["per_evening"]) == 2
        assert row["points"] == sum(row["per_evening"][n - 1] for n in row["counted"])
        assert row["evenings"] == sum(p is not None for p in row["per_evening"])
        assert (row["rank"] is None) == (row["evenings"] < 2)
    ranked = [r for r in rows if r["rank"] is not None]
    assert ranked[0]["rank"] == 1
    assert rows.index(ranked[-1]) == len(ranked) - 1


def test_the_workbook_has_standings_every_evening_and_statistics(slug, tmp_path):
    target = tmp_path / "season.xlsx"
    run("export_competition_standings", slug, "--format", "xlsx", "-o", str(target))
    workbook = load_workbook(target)
    assert workbook.sheetnames == ["Klassement", "Avond 1", "Avond 2", "Statistieken"]
    standings = list(workbook["Klassement"].values)
    assert standings[0][0] == "Clubkampioen: Seizoensklassement na avond 2"
    assert standings[2][:4] == ("Plaats", "Naam", "Club", "Punten")
    assert standings[3 + len(NAMES)] == (None,) * len(standings[2])  # the members, then a gap


def test_csv_and_errors(slug):
    csv_text = run("export_competition_standings", slug, "--format", "csv")
    assert csv_text.lstrip("\ufeff").startswith("Plaats;Naam")
    with pytest.raises(CommandError, match="geen competitie met de korte naam “nope”"):
        run("export_competition_standings", "nope", "--format", "json")
    with pytest.raises(CommandError, match="-o BESTAND"):
        run("export_competition_standings", slug, "--format", "xlsx")
    with pytest.raises(CommandError, match="geen toernooi met de korte naam “nope”"):
        run("competition_add", slug, "--tournament", "nope")
    with pytest.raises(CommandError) as caught:
        run("competition_create", "--name", "x", "--best", "0")
    assert str(caught.value) == str(SeasonRefusal.RULE.label)
    assert not Competition.objects.filter(name="x").exists()
    run("competition_create", "--name", "y", "--ranking", "average")
    assert Competition.objects.get(name="y").ranking == Competition.Ranking.AVERAGE
