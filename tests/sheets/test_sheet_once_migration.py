"""Migration 0011: a database whose sheets are ``Entry``/``Penalty`` rows (as the code before it
wrote them) keeps every sheet and its standings once the rows are gone and the current
version is the sheet."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from scoring.sheet import DealEntry, Penalty, Sheet
from scoring.standings import standings
from tournament.adapter import TableSheet, load_table_sheets, sheets_round_scores
from tournament.models import SheetVersion, Tournament
from tournament.names import name_sort_key
from tournament.standings.selectors import tournament_standings as standings_of

BEFORE = ("tournament", "0010_round_closed")
AFTER = ("tournament", "0011_sheet_once")
DEMO = Path(__file__).resolve().parents[2] / "seeds" / "demo-tournament.json"


def _migrate(target):
    executor = MigrationExecutor(connection)
    executor.migrate([target])
    return executor.loader.project_state([target]).apps


def _migrate_latest():
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.fixture
def old_schema(transactional_db):
    """The database at 0010 (the rows), back at the newest migration afterwards."""
    yield _migrate(BEFORE)
    _migrate_latest()


def _old_database(apps):
    """The demo tournament as the import before 0011 stored it (rows, no versions), then a few
    saves and some rows that disagree with their versions. Returns the tournament's id."""
    model = lambda name: apps.get_model("tournament", name)  # noqa: E731
    Entry, PenaltyRow, Version = model("Entry"), model("Penalty"), model("SheetVersion")
    document = json.loads(DEMO.read_text(encoding="utf-8"))
    tournament = model("Tournament").objects.create(name=document["name"], slug="demo")
    players = {
        p["id"]: model("Player").objects.create(
            tournament=tournament, file_id=p["id"], name=p["name"], club=p.get("club", "")
        )
        for p in document["players"]
    }
    for round_doc in document["rounds"]:
        round_ = model("Round").objects.create(
            tournament=tournament, number=round_doc["number"], state="playing"
        )
        for table_doc in round_doc["tables"]:
            table = model("Table").objects.create(
                round=round_,
                number=table_doc["number"],
                # Round 2's table 3 drew its first dealer: row 2 deals deal 1.
                first_dealer_seat=2 if (round_.number, table_doc["number"]) == (2, 3) else None,
            )
            seats = [
                model("Seat").objects.create(
                    round=round_, table=table, player=players[pid], position=i
                )
                for i, pid in enumerate(table_doc["seats"])
            ]
            for deal_no, deal in enumerate(table_doc.get("deals", []), start=1):
                for i, bid in enumerate(deal["bids"]):
                    tricks = deal["tricks"][i] if deal["tricks"] else None
                    Entry.objects.create(seat=seats[i], deal=deal_no, bid=bid, tricks=tricks)
            for penalty in table_doc.get("penalties", []):
                i = table_doc["seats"].index(penalty["player"])
                PenaltyRow.objects.create(seat=seats[i], deal=penalty["deal"])

    def rows(table):
        """The table's sheet as version JSON, from its rows (as the old first save kept it)."""
        seats = list(table.seats.order_by("position"))
        last = max((e.deal for e in Entry.objects.filter(seat__table=table)), default=0)
        cells = [[[None, None] for _seat in seats] for _deal in range(last)]
        for entry in Entry.objects.filter(seat__table=table):
            cells[entry.deal - 1][seats.index(entry.seat)] = [entry.bid, entry.tricks]
        penalties = sorted(
            [seats.index(p.seat), p.deal] for p in PenaltyRow.objects.filter(seat__table=table)
        )
        return cells, penalties

    tables = {(t.round.number, t.number): t for t in model("Table").objects.all()}
    # Round 4, table 3 (6 deals): saved twice on the site, rows and versions agree, and one
    # save that lost a race was kept as a conflict record.
    saved = tables[4, 3]
    cells, penalties = rows(saved)
    Version.objects.create(table=saved, number=0, cells=cells, penalties=penalties, via="earlier")
    Entry.objects.filter(seat__table=saved, deal=6).delete()
    cells, penalties = rows(saved)
    Version.objects.create(table=saved, number=1, cells=cells, penalties=penalties)
    Version.objects.create(table=saved, number=None, base_number=0, cells=[], penalties=[])
    # Round 4, table 1: saved once (a penalty bol added), then its rows moved on alone.
    moved = tables[4, 1]
    cells, penalties = rows(moved)
    Version.objects.create(table=moved, number=0, cells=cells, penalties=penalties, via="earlier")
    PenaltyRow.objects.create(seat=moved.seats.get(position=0), deal=3)
    cells, penalties = rows(moved)
    Version.objects.create(table=moved, number=1, base_number=0, cells=cells, penalties=penalties)
    Entry.objects.filter(seat__table=moved, deal=11).update(tricks=None)
    PenaltyRow.objects.filter(seat__table=moved, deal=3).delete()
    # Round 4, table 4 (2 deals): a version with entries, its rows gone since.
    cleared = tables[4, 4]
    cells, penalties = rows(cleared)
    Version.objects.create(table=cleared, number=1, cells=cells, penalties=penalties)
    Entry.objects.filter(seat__table=cleared).delete()
    return tournament.pk


def _sheets_from_rows(apps, tournament_id) -> dict[tuple[int, int], TableSheet]:
    """Every table's sheet as the code before 0011 read it: rows by seat, seats in order."""
    model = lambda name: apps.get_model("tournament", name)  # noqa: E731
    sheets = {}
    for table in model("Table").objects.filter(round__tournament_id=tournament_id):
        seats = list(table.seats.order_by("position"))
        n = len(seats)
        entries = {
            (e.deal, seats.index(e.seat)): (e.bid, e.tricks)
            for e in model("Entry").objects.filter(seat__table=table)
        }
        last = max((deal for deal, _seat in entries), default=0)
        deals = tuple(
            DealEntry(
                bids=tuple(entries.get((d, s), (None, None))[0] for s in range(n)),
                tricks=tuple(entries.get((d, s), (None, None))[1] for s in range(n)),
            )
            for d in range(1, last + 1)
        )
        penalties = sorted(  # ``(deal, seat)``, in the order today's code reads them
            (p.deal, seats.index(p.seat))
            for p in model("Penalty").objects.filter(seat__table=table)
        )
        sheets[table.round.number, table.number] = TableSheet(
            table_id=table.pk,
            round_number=table.round.number,
            table_number=table.number,
            seat_ids=tuple(s.pk for s in seats),
            player_ids=tuple(s.player_id for s in seats),
            sheet=Sheet(
                n_seats=n,
                deals=deals,
                penalties=tuple(Penalty(seat=s, deal=d) for d, s in penalties),
                first_dealer=table.first_dealer_seat or 0,
            ),
        )
    return sheets


def test_every_sheet_and_the_standings_survive_the_move_to_versions(old_schema):
    tournament_id = _old_database(old_schema)
    before = _sheets_from_rows(old_schema, tournament_id)
    assert before[4, 4].sheet.deals == ()  # the cleared table
    assert before[4, 5].sheet.deals == ()  # never played, no version either

    _migrate(AFTER)
    _migrate_latest()  # today's code reads the newest schema (0013 turns the penalty pairs)
    tournament = Tournament.objects.get(pk=tournament_id)
    after = {(s.round_number, s.table_number): s for s in load_table_sheets(tournament=tournament)}
    assert after == before

    players = {p.pk: p.name for p in tournament.players.all()}
    expected = standings(
        sheets_round_scores(before.values()),
        order=tournament.tiebreak_order,
        players=players,
        names=players,
        name_keys={pk: name_sort_key(name) for pk, name in players.items()},
    )
    assert standings_of(tournament).rows == expected

    def versions(place):
        table = after[place].table_id
        rows = SheetVersion.objects.filter(table_id=table).values_list(
            "number", "base_number", "via"
        )
        return sorted(rows, key=lambda row: -1 if row[0] is None else row[0])

    # Rows and versions that agreed: nothing new. Rows alone: version 0, no save to confirm.
    assert versions((4, 3)) == [(None, 0, "director"), (0, 0, "earlier"), (1, 0, "director")]
    assert versions((1, 1)) == [(0, 0, "earlier")]
    # Rows that had moved on from their version: the next version, started from it.
    assert versions((4, 1))[-1] == (2, 1, "director")
    assert versions((4, 4))[-1] == (2, 1, "director")
    assert versions((4, 5)) == []


def test_going_back_fills_the_rows_from_the_current_versions(old_schema):
    tournament_id = _old_database(old_schema)
    before = _sheets_from_rows(old_schema, tournament_id)
    _migrate(AFTER)
    again = _migrate(BEFORE)
    assert _sheets_from_rows(again, tournament_id) == before
