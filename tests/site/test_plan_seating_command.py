"""The plan_seating command: numbered players for directors and benchmarks, or a tournament."""

import json
from collections import Counter
from itertools import combinations

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests.factories import played_tournament


def plan(capsys, *args) -> dict:
    call_command("plan_seating", *args)
    return json.loads(capsys.readouterr().out)


def test_json_plan_for_numbered_players_seats_everyone_once_a_round(capsys):
    rounds = plan(capsys, "--players", "23", "--rounds", "3", "--format", "json",
                  "--time-limit", "1")["rounds"]  # fmt: skip
    assert len(rounds) == 3
    for tables in rounds:
        assert sorted(p for table in tables for p in table) == list(range(23))
        assert sorted(len(table) for table in tables) == [4, 4, 5, 5, 5]


def test_sixteen_players_five_rounds_meet_nobody_twice(capsys):
    rounds = plan(capsys, "--players", "16", "--rounds", "5", "--format", "json")["rounds"]
    pairs = [frozenset(p) for tables in rounds for t in tables for p in combinations(t, 2)]
    assert len(pairs) == len(set(pairs)) == 16 * 15 // 2


def test_prefer_five_uses_tables_of_five(capsys):
    rounds = plan(capsys, "--players", "20", "--rounds", "1", "--prefer", "5", "--format", "json")
    assert [len(t) for t in rounds["rounds"][0]] == [5, 5, 5, 5]


def test_too_few_players_is_refused_clearly():
    with pytest.raises(CommandError, match="minstens 3"):
        call_command("plan_seating", "--players", "2", "--rounds", "1")


@pytest.mark.django_db
def test_tournament_plan_names_the_players_and_saves_nothing(capsys):
    tournament = played_tournament(8, rounds=1, names=[f"Speler {c}" for c in "ABCDEFGH"])
    call_command("plan_seating", "--tournament", tournament.slug, "--rounds", "1")
    out = capsys.readouterr().out
    assert "Ronde 2" in out and "Speler A" in out
    assert tournament.rounds.count() == 1


@pytest.mark.django_db
def test_a_tournaments_plan_is_numbered_on_after_the_rounds_played(capsys):
    tournament = played_tournament(9, rounds=3)
    args = ("--tournament", tournament.slug, "--rounds", "2", "--time-limit", "0.3")
    call_command("plan_seating", *args)
    headings = [line for line in capsys.readouterr().out.splitlines() if line.startswith("Ronde")]
    assert headings == ["Ronde 4", "Ronde 5"]
    planned = plan(capsys, *args, "--format", "json")
    assert planned["first_round"] == 4 and len(planned["rounds"]) == 2
    assert tournament.rounds.count() == 3
    numbered = plan(capsys, "--players", "8", "--rounds", "1", "--format", "json")
    assert numbered["first_round"] == 1


def larger_spread(rounds) -> int:
    counts = Counter()
    for tables in rounds:
        for table in tables:
            counts.update({p: len(table) == 5 for p in table})
    return max(counts.values()) - min(counts.values())


def test_the_even_balance_is_the_default_and_repeats_can_be_asked_for(capsys):
    args = ("--players", "17", "--rounds", "5", "--format", "json", "--time-limit", "0.5")
    assert larger_spread(plan(capsys, *args)["rounds"]) <= 1
    call_command("plan_seating", *args, "--balance", "repeats")
    assert "(--balance repeats)" in capsys.readouterr().err


@pytest.mark.django_db
def test_a_tournament_is_planned_with_its_own_balance(capsys):
    tournament = played_tournament(9, rounds=1)
    tournament.seating_balance = "repeats"
    tournament.save(update_fields=["seating_balance"])
    call_command("plan_seating", "--tournament", tournament.slug, "--rounds", "1")
    assert "(--balance repeats)" in capsys.readouterr().out
    call_command("plan_seating", "--tournament", tournament.slug, "--balance", "even")
    assert "(--balance even)" in capsys.readouterr().out
