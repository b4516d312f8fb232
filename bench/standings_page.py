"""Benchmark: the standings pages against a plain Django template loop of the same rows.

Builds a tournament (400 players x 8 rounds by default, imported like a tournament file) and
prints, interleaved and as the median of ``--repeat`` runs, the CPU time of the director's
standings page, the public standings and the projector against a plain template rendering
the same rows (already computed; the projector's first 20), with the ratio. "first view"
imports the tournament again before each run, so nothing is warm but the templates. Then the
growth from 100 to 1,000 players. Prints figures only; nothing here passes or fails.

    .venv/bin/python bench/standings_page.py [--players 400] [--rounds 8] [--repeat 7]
"""

import argparse
import os
import random
import statistics
import time

import _django

_django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection  # noqa: E402
from django.template import engines  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext, override_settings  # noqa: E402
from django.urls import reverse  # noqa: E402
from import_standings import seating  # noqa: E402
from site_pages import PLAIN_STATIC  # noqa: E402

from scoring.simulate import simulate_tournament  # noqa: E402
from tournament.standings.public_views import SCREEN_ROWS  # noqa: E402
from tournament.standings.tables import standings_table_rows  # noqa: E402
from tournament.tournament_file.importing import tournament_import  # noqa: E402

RAW = engines["django"].from_string(
    """<table>{% for row in rows %}<tr><td>{{ row.rank }}</td>"""
    """<td><a href="{{ row.url }}">{{ row.name }}</a></td>"""
    """<td class="num total{% if row.provisional %} provisional{% endif %}">"""
    """{{ row.tournament_points }}</td><td>{{ row.bollen }}</td><td>{{ row.correct }}</td>"""
    """{% for value, provisional in row.per_round_cells %}"""
    """<td class="num{% if provisional %} provisional{% endif %}">"""
    """{{ value|default_if_none:"-" }}</td>{% endfor %}<td>{{ row.club }}</td></tr>"""
    """{% endfor %}</table>"""
)


def document(n_players: int, rounds: int):
    rng = random.Random(n_players)
    players = [(f"p{i}", f"Speler {i}", f"Club {i % 17}") for i in range(1, n_players + 1)]
    return simulate_tournament(
        name=f"Bench {n_players}",
        players=players,
        seating=seating(n_players, rounds, rng),
        rng=rng,
        settings={"public": True},
    )


def timed(action) -> float:
    """CPU milliseconds (the pages and SQLite run in this process): on a machine other people
    use, wall-clock time measures them too."""
    start = time.process_time()
    action()
    return (time.process_time() - start) * 1000


def compare(label: str, repeat: int, page, raw, prepare=lambda: None) -> None:
    pages, raws = [], []
    for _ in range(repeat):
        prepare()
        pages.append(timed(page))
        raws.append(timed(raw))
    p, r = statistics.median(pages), statistics.median(raws)
    print(f"{label:<34} {p:8.1f} ms  raw {r:7.1f} ms  ratio {p / r:5.2f}x")


@override_settings(STORAGES=PLAIN_STATIC, PUBLIC_STANDINGS_SECONDS=0)
def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    print(f"database: {connection.vendor}; load average {os.getloadavg()[0]:.2f}")
    director = get_user_model().objects.create_user("bench")
    client = Client(HTTP_HOST="localhost")
    client.force_login(director)
    doc = document(args.players, args.rounds)
    state = {"tournament": tournament_import(document=doc, director=director)}

    def url(name):
        return reverse(name, args=[state["tournament"].slug])

    rows = standings_table_rows(state["tournament"])[0]

    def raw_only():
        RAW.render({"rows": rows})

    def raw_screen():
        RAW.render({"rows": rows[:SCREEN_ROWS]})

    client.get(url("standings"))
    client.get(url("public_standings"))
    client.get(url("public_screen"))
    print(f"{args.players} players x {args.rounds} rounds, median of {args.repeat}\n")
    for name in ("standings", "public_standings", "public_screen"):
        with CaptureQueriesContext(connection) as queries:
            client.get(url(name))
        compare(
            f"{name} warm ({len(queries)} q)",
            args.repeat,
            lambda n=name: client.get(url(n)),
            raw_screen if name == "public_screen" else raw_only,
        )

    def reimport():
        state["tournament"] = tournament_import(document=doc, director=director)

    compare(
        "standings first view after import",
        max(5, args.repeat // 2),
        lambda: client.get(url("standings")),
        raw_only,
        prepare=reimport,
    )
    print("\ngrowth of the director's standings page (warm):")
    for n in (100, 1000):
        state["tournament"] = tournament_import(
            document=document(n, args.rounds), director=director
        )
        rows = standings_table_rows(state["tournament"])[0]
        client.get(url("standings"))
        compare(f"  {n} players", args.repeat, lambda: client.get(url("standings")), raw_only)


if __name__ == "__main__":
    main()
