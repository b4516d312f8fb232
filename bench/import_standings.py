"""Benchmark: import a 500-player, 10-round tournament file and export its standings.

Prints seconds and SQL queries for import and for JSON/CSV/XLSX standings, at 250 and 500
players, so that one can see the query count does not grow with the number of players; then
the import (from the file's text) against its raw baseline: ``json.loads``, the schema
(fastjsonschema) and ``bulk_create`` of the same tournament, players, rounds, tables, seats and
cells, interleaved, median of ``--repeat``, with the INSERTs of each.

    .venv/bin/python bench/import_standings.py [--players 500] [--rounds 10]
"""

import argparse
import json
import random
import statistics
import time

import _django

_django.setup()

from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from scoring.simulate import random_seating, simulate_tournament  # noqa: E402
from tournament.models import Player, Round, Seat, SheetVersion, Table, Tournament  # noqa: E402
from tournament.standings.exports import StandingsExporter  # noqa: E402
from tournament.tournament_file.importing import tournament_import  # noqa: E402
from tournament.tournament_file.reading import (  # noqa: E402
    _fast_validator,
    tournament_file_parse,
)


def seating(n_players: int, rounds: int, rng: random.Random) -> list[list[list[str]]]:
    """Random tables of 5 and 4 (500 players: 52 of 5 and 60 of 4, 112 a round), which gives
    the issue's "about 1,100 tables" over 10 rounds."""
    fives = n_players % 4 + 4 * ((n_players // 4 - n_players % 4) // 9)
    sizes = [5] * fives + [4] * ((n_players - 5 * fives) // 4)
    ids = [f"p{i}" for i in range(1, n_players + 1)]
    return random_seating(ids, rounds, rng, table_sizes=sizes)


def measure(label: str, action):
    with CaptureQueriesContext(connection) as queries:
        start = time.perf_counter()
        result = action()
        seconds = time.perf_counter() - start
    print(f"{label:<34} {seconds:8.2f} s {len(queries):8d} queries")
    return result


def run(n_players: int, rounds: int) -> None:
    rng = random.Random(n_players)
    players = [(f"p{i}", f"Speler {i}", f"Club {i % 17}") for i in range(1, n_players + 1)]
    plan = seating(n_players, rounds, rng)
    document = simulate_tournament(
        name=f"Bench {n_players}", players=players, seating=plan, rng=rng
    )
    tables = sum(len(r) for r in plan)
    print(f"\n{n_players} players, {rounds} rounds, {tables} tables, {tables * 11} deals")
    tournament = measure("import", lambda: tournament_import(document=document))
    for fmt in ("json", "csv", "xlsx"):
        measure(
            f"standings {fmt}", lambda fmt=fmt: StandingsExporter(tournament, format=fmt).render()
        )


def raw_import(text: str) -> None:
    """What an import cannot do without: parse, check against the schema, write the rows."""
    document = json.loads(text)
    _fast_validator()(document)
    tournament = Tournament.objects.create(name=document["name"], slug=f"raw-{time.time_ns()}")
    players = Player.objects.bulk_create(
        Player(tournament=tournament, file_id=p["id"], name=p["name"], club=p.get("club", ""))
        for p in document["players"]
    )
    pk = {p.file_id: p.pk for p in players}
    rounds = Round.objects.bulk_create(
        Round(tournament=tournament, number=r["number"]) for r in document["rounds"]
    )
    docs = [(r, t) for r, rd in zip(rounds, document["rounds"], strict=True) for t in rd["tables"]]
    tables = Table.objects.bulk_create(Table(round=r, number=t["number"]) for r, t in docs)
    Seat.objects.bulk_create(
        Seat(round_id=table.round_id, table=table, player_id=pk[player], position=i)
        for table, (_r, t) in zip(tables, docs, strict=True)
        for i, player in enumerate(t["seats"])
    )
    # Each table's sheet as one row, the JSON form the site keeps it in (one copy per table).
    SheetVersion.objects.bulk_create(
        SheetVersion(
            table=table,
            number=0,
            cells=[
                [[bid, (d["tricks"] or [None] * 9)[i]] for i, bid in enumerate(d["bids"])]
                for d in t["deals"]
            ],
            penalties=[],
        )
        for table, (_r, t) in zip(tables, docs, strict=True)
        if t.get("deals")
    )


def inserts(action) -> int:
    with CaptureQueriesContext(connection) as queries:
        action()
    return sum(1 for q in queries if q["sql"].lstrip().upper().startswith("INSERT"))


def against_raw(n_players: int, rounds: int, repeat: int) -> None:
    rng = random.Random(n_players)
    players = [(f"p{i}", f"Speler {i}", f"Club {i % 17}") for i in range(1, n_players + 1)]
    text = json.dumps(
        simulate_tournament(
            name=f"Bench {n_players}",
            players=players,
            seating=seating(n_players, rounds, rng),
            rng=rng,
        )
    )

    def project():
        tournament_import(document=tournament_file_parse(text))

    # CPU seconds (SQLite runs in this process): wall-clock seconds measure the machine's
    # other users too.
    mine, raw = [], []
    for _ in range(repeat):
        start = time.process_time()
        project()
        mine.append(time.process_time() - start)
        start = time.process_time()
        raw_import(text)
        raw.append(time.process_time() - start)
    p, r = statistics.median(mine), statistics.median(raw)
    print(
        f"\nimport {n_players} x {rounds} from the file's text: {p:.2f} s, raw json + schema + "
        f"bulk_create {r:.2f} s CPU, ratio {p / r:.2f}x (median of {repeat}); "
        f"INSERTs {inserts(project)} against {inserts(lambda: raw_import(text))}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"database: {connection.vendor}")
    run(args.players // 2, args.rounds)
    run(args.players, args.rounds)
    against_raw(args.players, args.rounds, args.repeat)


if __name__ == "__main__":
    main()
