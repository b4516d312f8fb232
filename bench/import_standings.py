"""Benchmark: import a 500-player, 10-round tournament file and export its standings.

Prints seconds and SQL queries for import and for JSON/CSV/XLSX standings, at 250 and 500
players, so that one can see the query count does not grow with the number of players.

    .venv/bin/python bench/import_standings.py [--players 500] [--rounds 10]
"""

import argparse
import random
import time

import _django

_django.setup()

from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from scoring.simulate import random_seating, simulate_tournament  # noqa: E402
from tournament.exports.standings import StandingsExporter  # noqa: E402
from tournament.tournament_file.importing import tournament_import  # noqa: E402


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()
    print(f"database: {connection.vendor}")
    run(args.players // 2, args.rounds)
    run(args.players, args.rounds)


if __name__ == "__main__":
    main()
