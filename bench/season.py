"""Benchmark: a club's season of 10 evenings of 40 members (some absent each evening).

Builds the evenings as imported tournaments of 4 rounds (each member away one evening in four
at random), adds them to one competition, and prints the median of ``--repeat`` runs of the
director's season page (server time and queries), the public season page, the season workbook
and the notice-board PDF. Prints figures only; nothing here passes or fails.

    .venv/bin/python bench/season.py [--evenings 10] [--members 40] [--repeat 5]
"""

import argparse
import json
import random
import statistics
import time

import _django

_django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import override_settings  # noqa: E402
from django.urls import reverse  # noqa: E402
from site_pages import PLAIN_STATIC  # noqa: E402

from scoring.simulate import random_seating, simulate_tournament  # noqa: E402
from tournament.clubs.services import club_sole  # noqa: E402
from tournament.season.exports import SeasonExporter  # noqa: E402
from tournament.season.file import competition_file_check  # noqa: E402
from tournament.season.file_export import competition_export  # noqa: E402
from tournament.season.services import (  # noqa: E402
    CompetitionSettings,
    competition_add,
    competition_create,
)
from tournament.tournament_file.importing import tournament_import  # noqa: E402


def build(evenings: int, members: int, director):
    rng = random.Random(17)
    names = [f"Lid {n:02d}" for n in range(1, members + 1)]
    competition = competition_create(
        club=club_sole(),
        settings=CompetitionSettings(
            name=f"Bench {time.time_ns()}", best=max(1, evenings - 2), min_evenings=evenings // 2
        ),
    )
    for number in range(1, evenings + 1):
        here = [n for n in names if rng.random() > 0.25]
        players = [(f"p{i}", name, "De Troef") for i, name in enumerate(here, start=1)]
        seating = random_seating([p[0] for p in players], 4, rng)
        document = simulate_tournament(
            name=f"Avond {number}",
            players=players,
            seating=seating,
            rng=rng,
            settings={"table_sizes": [4, 5]},
        )
        competition_add(
            competition=competition,
            tournament=tournament_import(document=document, director=director),
        )
    return competition


def timed(action, repeat: int) -> float:
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        runs.append(time.perf_counter() - start)
    return statistics.median(runs) * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--evenings", type=int, default=10)
    parser.add_argument("--members", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    director = get_user_model().objects.create_user(f"bench-{time.time_ns()}", is_superuser=True)
    start = time.perf_counter()
    competition = build(args.evenings, args.members, director)
    print(
        f"built {args.evenings} evenings of up to {args.members} members in "
        f"{time.perf_counter() - start:.1f} s"
    )
    client = Client()
    client.force_login(director)
    page = reverse("competition_detail", args=[competition.slug])
    assert client.get(page).status_code == 200
    print(
        f"season page: {timed(lambda: client.get(page), args.repeat):.0f} ms "
        "(its queries do not grow with the evenings: tests/season/test_pages.py)"
    )
    competition.public = True
    competition.save()
    public = reverse("public_season", args=[competition.slug])
    print(f"public season page: {timed(lambda: Client().get(public), args.repeat):.0f} ms")
    workbook = lambda: SeasonExporter.of(competition, format="xlsx").render()  # noqa: E731
    print(
        f"season workbook: {timed(workbook, args.repeat):.0f} ms, "
        f"{len(workbook().data) // 1024} KiB"
    )
    pdf = reverse("competition_print", args=[competition.slug])
    print(f"notice-board PDF: {timed(lambda: client.get(pdf), args.repeat):.0f} ms")
    export = lambda: competition_export(competition=competition)  # noqa: E731
    size = len(json.dumps(export()).encode()) // 1024
    print(f"competition file: export {timed(export, args.repeat):.0f} ms, {size} KiB")
    document = json.loads(json.dumps(export()))
    check = lambda: competition_file_check(document)  # noqa: E731
    print(f"competition file: whole check {timed(check, args.repeat):.0f} ms")


if __name__ == "__main__":
    with override_settings(ALLOWED_HOSTS=["*"], STORAGES=PLAIN_STATIC):
        main()
