"""Migration 0012: a database whose rounds store their state (as the code before it did) keeps
every round's state, now read from its sheets, and gets it back stored when migrated back."""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from scoring.simulate import simulate_sheet
from tournament.models import Round

BEFORE = ("tournament", "0011_sheet_once")
AFTER = ("tournament", "0012_round_state")


def _migrate(target):
    executor = MigrationExecutor(connection)
    executor.migrate([target])
    return executor.loader.project_state([target]).apps


@pytest.fixture
def old_schema(transactional_db):
    """The database at 0011 (the state stored), back at the newest migration afterwards."""
    yield _migrate(BEFORE)
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


def _version_cells(deals, n_deals):
    """The first ``n_deals`` of a simulated sheet as version JSON (one row per deal)."""
    return [[[bid, won] for bid, won in zip(bids, tricks, strict=True)] for bids, tricks in deals][
        :n_deals
    ]


def _old_database(apps) -> int:
    """Four rounds of two tables of four, as the code before 0012 stored them: round 1 complete
    (one table's score kept, the other's never written), round 2 playing (one deal bid at one
    table, its kept score stale), round 3 seated, round 4 a draft. Returns the tournament id."""
    model = lambda name: apps.get_model("tournament", name)  # noqa: E731
    tournament = model("Tournament").objects.create(name="Clubavond", slug="clubavond")
    players = [
        model("Player").objects.create(tournament=tournament, file_id=i, name=f"Speler {i}")
        for i in range(1, 9)
    ]
    rng = random.Random(12)
    states = {1: "complete", 2: "playing", 3: "seated", 4: "draft"}
    for number, state in states.items():
        round_ = model("Round").objects.create(tournament=tournament, number=number, state=state)
        for table_number in (1, 2):
            table = model("Table").objects.create(round=round_, number=table_number)
            for position in range(4):
                player = players[(table_number - 1) * 4 + (position + number) % 4]
                model("Seat").objects.create(
                    round=round_, table=table, player=player, position=position
                )
            deals = simulate_sheet(4, rng)
            if number == 1:
                model("SheetVersion").objects.create(
                    table=table, number=1, cells=_version_cells(deals, 11)
                )
                if table_number == 1:
                    model("SheetScore").objects.create(
                        table=table, version=1, started=True, complete=True
                    )
            if (number, table_number) == (2, 1):
                bids = [[bid, None] for bid in deals[0][0]]
                model("SheetVersion").objects.create(table=table, number=0, cells=[])
                model("SheetVersion").objects.create(table=table, number=1, cells=[bids])
                model("SheetScore").objects.create(table=table, version=0)
    return tournament.pk


def test_each_rounds_state_follows_from_its_sheets_after_the_move(old_schema):
    tournament_id = _old_database(old_schema)
    _migrate(AFTER)
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    rounds = Round.objects.filter(tournament_id=tournament_id).with_state().order_by("number")
    assert [(r.number, r.published, r.state) for r in rounds] == [
        (1, True, Round.State.COMPLETE),
        (2, True, Round.State.PLAYING),
        (3, True, Round.State.SEATED),
        (4, False, Round.State.DRAFT),
    ]
    # The same read one round at a time (``Round.state`` without the annotation).
    assert [Round.objects.get(pk=r.pk).state for r in rounds] == [r.state for r in rounds]


def test_going_back_stores_each_rounds_state_again(old_schema):
    tournament_id = _old_database(old_schema)
    _migrate(AFTER)
    apps = _migrate(BEFORE)
    stored = apps.get_model("tournament", "Round").objects.filter(tournament_id=tournament_id)
    assert dict(stored.values_list("number", "state")) == {
        1: "complete",
        2: "playing",
        3: "seated",
        4: "draft",
    }
