"""Many clubs' evenings at once, for ``bench/load.py --clubs N``: N clubs, each with a director
and an evening of its own (``--tables`` tables, ``--rounds-before`` rounds played), all of
their rounds played at the same time, the visitors spread over the clubs' public pages, and
the stored sheets compared per club.

A club that the history (``--history``, ``bench/load_history.py``) made already is used as it
is: its evening then joins its season competition (``season.services.competition_add``, the
players matched to its register), as a club evening does, and its visitors also open the
season page.
"""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass, field, fields

import httpx
import load as base


@dataclass
class Evening:
    """One club's evening in the run."""

    club: str  # the club's slug
    slug: str  # the tournament's slug
    competition: str | None  # the slug of the competition it is an evening of
    tournament: object
    round_number: int
    links: dict[int, str]  # table id -> table link token
    stats: base.Stats = field(default_factory=base.Stats)


def build_clubs(count: int, tables: int, rounds_before: int, seed: int) -> list[Evening]:
    """``count`` clubs with an evening each (``club-001`` ...), the history's clubs where it
    made them."""
    from django.contrib.auth import get_user_model
    from load_history import club_slug

    from scoring.simulate import simulate_tournament
    from tournament.models import Club, ClubRole, Competition, Member, Table
    from tournament.season.services import competition_add
    from tournament.sheets.table_links import table_link_issue
    from tournament.tournament_file.importing import tournament_import

    evenings = []
    for c in range(1, count + 1):
        rng = random.Random(seed + c)
        slug = club_slug(c)
        club = Club.objects.filter(slug=slug).first()
        if club is None:
            club = Club.objects.create(name=f"Bolclub {c:03d}", slug=slug)
            director = get_user_model().objects.create_user(f"leider-{c:03d}")
            ClubRole.objects.create(club=club, user=director, role=ClubRole.Role.DIRECTOR)
        else:
            director = ClubRole.objects.get(club=club, role=ClubRole.Role.DIRECTOR).user
        n_players = 4 * tables
        names = list(
            Member.objects.filter(register=club).order_by("pk").values_list("name", flat=True)
        )
        rng.shuffle(names)
        names += [f"Gast {i}" for i in range(1, n_players - len(names) + 1)]
        players = [(f"p{i}", names[i - 1], club.name) for i in range(1, n_players + 1)]
        seating = []
        for _ in range(rounds_before + 1):
            ids = [p[0] for p in players]
            rng.shuffle(ids)
            seating.append([ids[i : i + 4] for i in range(0, n_players, 4)])
        document = simulate_tournament(
            name=f"Clubavond {club.name}",
            players=players,
            seating=seating,
            rng=rng,
            played_deals=[[11] * tables for _ in range(rounds_before)] + [[0] * tables],
            settings={"public": True},
        )
        tournament = tournament_import(
            document=document, club=club, director=director, slug=f"{slug}-vanavond"
        )
        competition = Competition.objects.filter(club=club).order_by("pk").first()
        if competition is not None:
            competition_add(competition=competition, tournament=tournament)
        round_number = rounds_before + 1
        links = {
            table.pk: table_link_issue(table=table).token
            for table in Table.objects.filter(
                round__tournament=tournament, round__number=round_number
            )
        }
        evenings.append(
            Evening(
                club=slug,
                slug=tournament.slug,
                competition=competition.slug if competition else None,
                tournament=tournament,
                round_number=round_number,
                links=links,
            )
        )
    return evenings


async def club_visitor(base_url: str, evening: Evening, rng: random.Random, args, done):
    """A visitor of one club: the club's public page, its season page when the evening is one
    of a competition, then the evening's standings kept open (``load.poller``)."""
    stats = evening.stats
    await asyncio.sleep(rng.uniform(0, args.poll))
    async with httpx.AsyncClient(base_url=base_url, timeout=60) as client:
        pages = [f"/clubs/{evening.club}/"]
        if evening.competition:
            pages.append(f"/c/{evening.competition}/")
        for path in pages:
            start = time.perf_counter()
            try:
                response = await client.get(path)
            except httpx.HTTPError as error:
                stats.errors.append(f"{path}: {base.describe(error)}")
                return
            stats.club_pages.append(time.perf_counter() - start)
            if response.status_code != 200:
                stats.errors.append(f"{path}: HTTP {response.status_code}")
    await base.visitor(base_url, evening.slug, rng, args, stats, done)


async def run_clubs_clients(base_urls: list[str], evenings: list[Evening], args):
    """Every club's phones and the visitors at once, the n-th table (over all clubs) and the
    n-th visitor on server n in turn; the visitors go to club n in turn."""
    first = evenings[0]
    pages = [f"/clubs/{first.club}/"] + ([f"/c/{first.competition}/"] if first.competition else [])
    for base_url in base_urls:
        await base.warm_up(base_url, first.slug, next(iter(first.links.values())))
        async with httpx.AsyncClient(base_url=base_url, timeout=60) as client:
            for _ in range(2):  # the club pages too, in every worker (not measured)
                await asyncio.gather(
                    *(client.get(path) for path in pages for _worker in range(2 * base.WORKERS))
                )

    def server(index: int) -> str:
        return base_urls[index % len(base_urls)]

    sent = {tid: base.Sent() for evening in evenings for tid in evening.links}
    done = asyncio.Event()
    stop_at = time.monotonic() + args.timeout
    rng = random.Random(args.seed)
    visitors = [
        asyncio.create_task(
            club_visitor(
                server(n), evenings[n % len(evenings)], random.Random(rng.random()), args, done
            )
        )
        for n in range(args.visitors)
    ]
    phones = [(evening, tid, token) for evening in evenings for tid, token in evening.links.items()]
    started = time.perf_counter()
    await asyncio.gather(
        *(
            base.phone(
                server(n),
                token,
                random.Random(rng.random()),
                args,
                evening.stats,
                sent[tid],
                stop_at,
            )
            for n, (evening, tid, token) in enumerate(phones)
        )
    )
    elapsed = time.perf_counter() - started
    done.set()
    await asyncio.gather(*visitors)
    return sent, elapsed


def merged(evenings: list[Evening]) -> base.Stats:
    """All the clubs' figures as one."""
    total = base.Stats()
    for evening in evenings:
        for f in fields(total):
            value = getattr(evening.stats, f.name)
            if isinstance(value, list):
                getattr(total, f.name).extend(value)
            else:
                setattr(total, f.name, getattr(total, f.name) + value)
    return total


def compare_clubs(evenings: list[Evening], sent: dict) -> dict[str, list[str]]:
    """``load.compare`` per club."""
    return {
        evening.club: base.compare(
            evening.tournament,
            evening.round_number,
            {tid: sent[tid] for tid in evening.links},
        )
        for evening in evenings
    }


def report_clubs(evenings: list[Evening], sent: dict, differences: dict[str, list[str]]) -> None:
    """A line per club: errors, saves and their latency, the visitors' latency, the comparison."""
    ms = base.ms
    print("\nper club:")
    for evening in evenings:
        stats = evening.stats
        visits = stats.club_pages + stats.reloads + stats.polls
        versions = sum(len(sent[tid].versions) for tid in evening.links)
        print(
            f"  {evening.club}: errors {len(stats.errors)}; saves {len(stats.saves)} p50 "
            f"{ms(stats.saves, 0.5)} ms p95 {ms(stats.saves, 0.95)} ms max {ms(stats.saves)} ms; "
            f"visitor requests {len(visits)} p50 {ms(visits, 0.5)} ms p95 {ms(visits, 0.95)} ms "
            f"max {ms(visits)} ms; {versions} versions of {len(evening.links)} tables: "
            + (
                "equal"
                if not differences[evening.club]
                else f"{len(differences[evening.club])} difference(s)"
            )
        )
