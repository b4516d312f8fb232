"""Migration 0013: the penalty bollen a database keeps as ``[seat, deal]`` pairs (versions, what
a version's submission held, drafts) are ``[deal, seat]`` afterwards, read by today's code at
the right players and deals, and ``[seat, deal]`` again after going back."""

from __future__ import annotations

import importlib

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from scoring.sheet import Penalty
from tournament.adapter import load_table_sheets
from tournament.models import SheetDraft, SheetVersion, Table, Tournament
from tournament.sheets.content import SheetContent
from tournament.sheets.drafts import sheet_draft_content

BEFORE = ("tournament", "0012_round_state")
AFTER = ("tournament", "0013_penalty_order")
MIGRATION = importlib.import_module("tournament.migrations.0013_penalty_order")

# Two deals played at a table of four (every bid and trick written).
CELLS = [[[1, 1], [0, 0], [2, 2], [0, 1]], [[1, 0], [1, 1], [0, 0], [1, 2]]]


def _migrate(target):
    executor = MigrationExecutor(connection)
    executor.migrate([target])
    return executor.loader.project_state([target]).apps


@pytest.fixture
def old_schema(transactional_db, monkeypatch):
    """The database at 0012 (``[seat, deal]`` pairs), back at the newest migration afterwards.
    Batches of two rows, so that the few rows here take several batches."""
    monkeypatch.setattr(MIGRATION, "BATCH", 2)
    yield _migrate(BEFORE)
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


def _old_database(apps) -> int:
    """A round of two tables of four as the code before 0013 stored it. Table 1: version 0
    with a penalty bol, a conflict record with one, version 1 without any but whose submission
    had one, version 2 (the sheet now) with two, its submission with a third, and a draft holding
    that third. Table 2: one version, no penalty bollen, an empty draft. Returns the
    tournament's id."""
    model = lambda name: apps.get_model("tournament", name)  # noqa: E731
    Version, Draft = model("SheetVersion"), model("SheetDraft")
    tournament = model("Tournament").objects.create(name="Oud", slug="oud")
    round_ = model("Round").objects.create(tournament=tournament, number=1, published=True)
    tables = []
    for number in (1, 2):
        table = model("Table").objects.create(round=round_, number=number)
        for position in range(4):
            player = model("Player").objects.create(
                tournament=tournament, file_id=f"p{number}{position}", name=f"P{number}{position}"
            )
            model("Seat").objects.create(
                round=round_, table=table, player=player, position=position
            )
        tables.append(table)
    one, two = tables
    Version.objects.create(table=one, number=0, cells=CELLS[:1], penalties=[[2, 1]], via="earlier")
    Version.objects.create(table=one, number=None, base_number=0, cells=CELLS, penalties=[[3, 2]])
    Version.objects.create(
        table=one,
        number=1,
        cells=CELLS,
        penalties=[],
        submitted={"cells": CELLS, "penalties": [[1, 2]]},
    )
    Version.objects.create(
        table=one,
        number=2,
        base_number=1,
        cells=CELLS,
        penalties=[[0, 2], [2, 1]],
        submitted={"cells": CELLS, "penalties": [[0, 2], [2, 1], [1, 5]]},
    )
    Draft.objects.create(table=one, cells=[], penalties=[[1, 5]], base_number=2)
    Version.objects.create(table=two, number=1, cells=CELLS, penalties=[])
    Draft.objects.create(table=two, cells=[[3, 0, 1, None]], penalties=[], base_number=1)
    return tournament.pk


def _stored(apps) -> dict:
    """Every version's and draft's penalty pairs (and the submission's), by table and number."""
    model = lambda name: apps.get_model("tournament", name)  # noqa: E731
    versions = {
        (v.table.number, v.number): (v.penalties, (v.submitted or {}).get("penalties"))
        for v in model("SheetVersion").objects.select_related("table")
    }
    drafts = {
        d.table.number: d.penalties for d in model("SheetDraft").objects.select_related("table")
    }
    return {"versions": versions, "drafts": drafts}


def _migrate_to_today():
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


def test_the_penalty_pairs_are_turned_to_deal_then_seat(old_schema):
    tournament_id = _old_database(old_schema)
    _migrate(AFTER)
    _migrate_to_today()  # today's code reads them with today's schema

    versions = {
        (v.table.number, v.number): (v.penalties, v.submitted)
        for v in SheetVersion.objects.select_related("table")
    }
    assert versions[1, 0] == ([[1, 2]], None)
    assert versions[1, None] == ([[2, 3]], None)
    assert versions[1, 1] == ([], {"cells": CELLS, "penalties": [[2, 1]]})
    assert versions[1, 2] == (
        [[2, 0], [1, 2]],
        {"cells": CELLS, "penalties": [[2, 0], [1, 2], [5, 1]]},
    )
    assert versions[2, 1] == ([], None)
    drafts = {d.table.number: d for d in SheetDraft.objects.select_related("table")}
    assert drafts[1].penalties == [[5, 1]]
    assert (drafts[2].penalties, drafts[2].cells) == ([], [[3, 0, 1, None]])

    # Today's code reads them at the players and deals they were given to.
    sheets = {
        s.table_number: s.sheet
        for s in load_table_sheets(tournament=Tournament.objects.get(pk=tournament_id))
    }
    assert sheets[1].penalties == (Penalty(seat=2, deal=1), Penalty(seat=0, deal=2))
    assert sheets[1].deals[1].bids == (1, 1, 0, 1)  # the cells as they were
    assert sheets[2].penalties == ()
    one = Table.objects.get(round__tournament_id=tournament_id, number=1)
    typed = sheet_draft_content(one, SheetContent.of_sheet(sheets[1]))
    assert typed is not None and typed.penalties == ((1, 2), (2, 0), (5, 1))


def test_going_back_turns_them_back(old_schema):
    _old_database(old_schema)
    before = _stored(old_schema)
    assert _stored(_migrate(AFTER)) != before
    assert _stored(_migrate(BEFORE)) == before
