"""Benchmark: server time and SQL queries of the busiest director pages at a large tournament.

Builds a 500-player, 10-round tournament (simulated sheets, imported like a tournament file) and
prints, for the standings page, one score sheet page and one score sheet save, the median server
time over a number of requests (Django's test client, so no network) and the queries of one
request. Prints figures only; nothing here passes or fails.

    .venv/bin/python bench/site_pages.py [--players 500] [--rounds 10] [--repeat 20]
"""

import argparse
import random
import statistics
import time

import _django

_django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext, override_settings  # noqa: E402
from django.urls import reverse  # noqa: E402
from import_standings import seating  # noqa: E402

from scoring.deals import DEAL_COUNT  # noqa: E402
from scoring.simulate import simulate_tournament  # noqa: E402
from tournament.adapter import table_sheet  # noqa: E402
from tournament.models import Table  # noqa: E402
from tournament.sheets.forms import sheet_form_data  # noqa: E402
from tournament.sheets.selectors import sheet_version_number  # noqa: E402
from tournament.tournament_file.importing import tournament_import  # noqa: E402


def build(n_players: int, rounds: int):
    rng = random.Random(n_players)
    players = [(f"p{i}", f"Speler {i}", f"Club {i % 17}") for i in range(1, n_players + 1)]
    document = simulate_tournament(
        name=f"Bench {n_players}", players=players, seating=seating(n_players, rounds, rng), rng=rng
    )
    director = get_user_model().objects.create_user("bench")  # signed in with force_login
    return tournament_import(document=document, director=director), director


def sheet_fields(table: Table) -> dict[str, str]:
    """The sheet page's fields for the table's stored sheet with two players' tricks in the last
    deal swapped: still legal, and a real change, so every save stores a new version."""
    stored = table_sheet(table).sheet
    n = stored.n_seats
    cells = {
        (deal, seat): (entry.bids[seat], entry.tricks[seat])
        for deal, entry in enumerate(stored.deals, start=1)
        for seat in range(n)
    }
    tricks = [cells[DEAL_COUNT, seat][1] for seat in range(n)]
    a, b = next((a, b) for a in range(n) for b in range(a + 1, n) if tricks[a] != tricks[b])
    cells[DEAL_COUNT, a] = (cells[DEAL_COUNT, a][0], tricks[b])
    cells[DEAL_COUNT, b] = (cells[DEAL_COUNT, b][0], tricks[a])
    penalties = [(p.deal, p.seat) for p in stored.penalties]
    return sheet_form_data(n, cells, penalties, base_version=sheet_version_number(table))


def measure(label: str, repeat: int, request, prepare=lambda: None) -> None:
    """Median milliseconds over ``repeat`` requests, and the queries of one more; ``prepare``
    makes each request's input outside the timing."""
    times = []
    for _ in range(repeat):
        given = prepare()
        start = time.perf_counter()
        response = request(given)
        times.append((time.perf_counter() - start) * 1000)
        if response.status_code not in (200, 302):
            raise SystemExit(f"{label}: HTTP {response.status_code}")
    given = prepare()
    with CaptureQueriesContext(connection) as queries:
        request(given)
    print(f"{label:<28} {statistics.median(times):8.1f} ms {len(queries):6d} queries")


# Production settings, except that static files are not collected for a benchmark.
PLAIN_STATIC = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}


@override_settings(STORAGES=PLAIN_STATIC)
def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    print(f"database: {connection.vendor}")
    tournament, director = build(args.players, args.rounds)
    table = Table.objects.select_related("round__tournament").get(
        round__tournament=tournament, round__number=args.rounds, number=1
    )
    print(
        f"{args.players} players, {args.rounds} rounds; sheet of round {args.rounds}, table 1 "
        f"({table.seats.count()} players); median of {args.repeat} requests\n"
    )
    client = Client(HTTP_HOST="localhost")
    client.force_login(director)
    standings = reverse("standings", args=[tournament.slug])
    sheet = reverse("sheet_edit", args=[tournament.slug, args.rounds, 1])
    client.get(standings)  # warm up templates and the session

    measure("standings page (GET)", args.repeat, lambda _: client.get(standings))
    measure("sheet page (GET)", args.repeat, lambda _: client.get(sheet))
    measure(
        "sheet save (POST)",
        args.repeat,
        lambda fields: client.post(sheet, fields),
        prepare=lambda: sheet_fields(table),
    )
    print(f"\nsheet versions stored for the table: {sheet_version_number(table)}")


if __name__ == "__main__":
    main()
