"""Load test: table links save their sheets deal by deal for a whole round while visitors keep
the public standings open, against gunicorn (4 workers) and PostgreSQL on this machine.

    .venv/bin/python bench/load.py [--tables 60] [--visitors 20] [--think 12]
                                   [--visitors-do poll|reload] [--poll 20] [--reload 10]
                                   [--port P] [--servers N]
                                   [--clubs N] [--history C,E] [--query-stats]

At a real tournament a table saves about every two minutes (two saves per deal, a deal takes
three to five); the default ``--think 12`` plays the round ten times as fast, ``--think 3`` forty
times (a stress test: 20 saves a second).

What it does, all on 127.0.0.1 and bounded in time (``--timeout``):

1. starts a throwaway PostgreSQL cluster with ``scripts/postgres.sh`` (or, with DATABASE_URL
   set, uses that server) and creates a fresh database on it, dropped at the end;
2. builds a tournament of ``4 x tables`` players with ``--rounds-before`` complete rounds and
   one seated round of ``--tables`` tables, public pages on, and one table link per table;
3. starts ``gunicorn -w 4`` with the production settings (persistent database connections);
   ``--servers 2`` starts two, as two machines would run them (one database, one secret key,
   the database cache), and sends the n-th table and visitor to server n in turn;
4. runs every client in this one process with asyncio and httpx (the machine has 2 cores): per
   table one phone that opens its link and saves the sheet as a table plays it, the bids of a
   deal, then its tricks (22 saves, a revoke penalty now and then), waiting ``--think`` seconds
   on average between saves; a share (``--double``) of the saves is sent twice at once, as a
   double tap does; and ``--visitors`` visitors who keep the public standings open until the
   round is entered: they open the page once, then poll the live document (``live.json``) with
   ``If-None-Match`` every ``--poll`` seconds on average, as the page's script does
   (``--visitors-do reload``: they reload the whole page every ``--reload`` seconds instead, as
   before the pages updated themselves);
5. stops gunicorn and compares, table by table, every stored version and the final sheet with
   what the phone sent, exactly.

``--clubs N`` plays N clubs' evenings at once (``bench/load_clubs.py``), ``--history C,E``
first fills the database with C clubs x E finished evenings (``bench/load_history.py``), and
``--query-stats`` prints what PostgreSQL spent its time on (``bench/load_queries.py``); the
figures of those runs are in ``bench/load_clubs_results.md``.

It prints errors, the save latency (p50/p95/max), the visitors' polls (how many were answered
304) or reloads and their latency, and the result of the comparison; it exits non-zero when
there were errors or a difference.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import re
import resource
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import httpx

ROOT = Path(__file__).resolve().parent.parent
PYTHON_BIN = Path(sys.executable).parent
WORKERS = 4
SETTINGS = """from bollen.settings import *  # noqa: F403

# Static files as they are in the repository (a load test does not collect them).
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
LOGGING = {"version": 1, "disable_existing_loggers": False}
"""


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=60)
    parser.add_argument("--visitors", type=int, default=20)
    parser.add_argument("--rounds-before", type=int, default=2, help="complete rounds before")
    parser.add_argument("--think", type=float, default=12.0, help="mean seconds between saves")
    parser.add_argument(
        "--visitors-do",
        choices=("poll", "reload"),
        default="poll",
        help="poll the live document (as the pages do) or reload the standings page",
    )
    parser.add_argument(
        "--poll", type=float, default=20.0, help="mean seconds between polls (live.js: 20)"
    )
    parser.add_argument("--reload", type=float, default=10.0, help="mean seconds between reloads")
    parser.add_argument("--double", type=float, default=0.05, help="share of saves sent twice")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds at most")
    parser.add_argument(
        "--port", type=int, default=0, help="gunicorn's port on 127.0.0.1 (default: a free one)"
    )
    parser.add_argument(
        "--uploads",
        type=int,
        default=0,
        help="directors who keep importing a large tournament file (each with an account of "
        "its own) while the round is played, as far as the site lets them",
    )
    parser.add_argument(
        "--upload-players",
        type=int,
        default=800,
        help="players of the uploaded file (800 over 20 rounds: about 2.4 MB)",
    )
    parser.add_argument(
        "--clubs",
        type=int,
        default=0,
        help="clubs with an evening each, all played at once (--tables: tables per club), the "
        "visitors spread over the clubs' public pages (bench/load_clubs.py)",
    )
    parser.add_argument(
        "--history",
        default="",
        metavar="C,E",
        help="before the run, fill the database with C clubs x E finished evenings each "
        "(bench/load_history.py); the --clubs are the first of them",
    )
    parser.add_argument(
        "--query-stats",
        action="store_true",
        help="print the statements that took the database the most time and the tables it "
        "scanned sequentially during the run (pg_stat_statements; bench/load_queries.py)",
    )
    parser.add_argument(
        "--servers",
        type=int,
        default=1,
        help="gunicorn instances (each -w 4, on ports --port, --port+1, ...; one database and "
        "one secret key), the tables and visitors spread over them in turn",
    )
    args = parser.parse_args()
    if args.history:
        try:
            args.history = tuple(int(n) for n in args.history.split(","))
        except ValueError:
            args.history = ()
        if len(args.history) != 2 or min(args.history) < 1:
            parser.error("--history takes two numbers: clubs,evenings (for example 200,20)")
        if not 1 <= args.clubs <= args.history[0]:
            parser.error("--history needs --clubs, at most as many as the history's clubs")
    if args.clubs and args.uploads:
        parser.error("--uploads works in the one club of a laptop; leave it out with --clubs")
    return args


class SetupError(Exception):
    """The load test cannot start (the database refuses, a port is taken): a plain message,
    no traceback."""


# ---- the database and the server ----


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Database:
    """A fresh database on a throwaway cluster (or on the server DATABASE_URL names)."""

    def __init__(self) -> None:
        self.cluster: str | None = None
        given = os.environ.get("DATABASE_URL", "")
        if not given.startswith("postgres"):
            self.cluster = tempfile.mkdtemp(prefix="bollen-load-pg.")
            given = subprocess.check_output(
                [str(ROOT / "scripts/postgres.sh"), "start", self.cluster], text=True
            ).strip()
        parts = urlsplit(given)
        self.name = f"bollen_load_{secrets.token_hex(4)}"
        self.admin_url = urlunsplit(parts._replace(path="/postgres"))
        self.url = urlunsplit(parts._replace(path=f"/{self.name}"))
        user = parts.username or "(the default user)"
        server = f"{parts.hostname or 'localhost'}:{parts.port or 5432}"
        import psycopg

        try:
            with psycopg.connect(self.admin_url, autocommit=True, connect_timeout=10) as conn:
                conn.execute(f'CREATE DATABASE "{self.name}"')
                self.version = conn.execute("SHOW server_version").fetchone()[0]
        except psycopg.errors.InsufficientPrivilege as exc:
            self._stop_cluster()
            raise SetupError(
                f"The database user {user} may not create databases, and the load test makes "
                f"its own (and drops it at the end). Either allow it once, as PostgreSQL's "
                f"superuser: sudo -u postgres psql -c 'ALTER USER {user} CREATEDB'; or run the "
                f"load test without DATABASE_URL: it then starts a throwaway PostgreSQL cluster "
                f"of its own."
            ) from exc
        except psycopg.OperationalError as exc:
            self._stop_cluster()
            reason = " ".join(line.strip() for line in str(exc).splitlines()).rstrip(".")
            raise SetupError(
                f"Cannot connect to PostgreSQL at {server} as {user}: {reason}. Check "
                f"DATABASE_URL (user, password, host, port) and that the server is running."
            ) from exc

    def _stop_cluster(self) -> None:
        if self.cluster:
            subprocess.run([str(ROOT / "scripts/postgres.sh"), "stop", self.cluster], check=False)

    def drop(self) -> None:
        import psycopg
        from django.db import connections

        connections.close_all()
        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')
        if self.cluster:
            subprocess.run([str(ROOT / "scripts/postgres.sh"), "stop", self.cluster], check=False)


def port_free(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


class Gunicorn:
    def __init__(self, database_url: str, port: int = 0, secret_key: str = "") -> None:
        self.folder = tempfile.mkdtemp(prefix="bollen-load-settings.")
        Path(self.folder, "load_settings.py").write_text(SETTINGS)
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {
            **os.environ,
            "DATABASE_URL": database_url,
            "DB_PERSISTENT": "1",
            "DJANGO_SETTINGS_MODULE": "load_settings",
            "PYTHONPATH": os.pathsep.join([self.folder, str(ROOT)]),
            "SECRET_KEY": secret_key or "load-test-only-" + secrets.token_hex(24),
            "ALLOWED_HOSTS": "127.0.0.1",
        }
        env.pop("DEBUG", None)
        self.log = open(Path(self.folder, "gunicorn.log"), "w")  # noqa: SIM115
        self.process = subprocess.Popen(
            [
                str(PYTHON_BIN / "gunicorn"),
                "bollen.wsgi",
                "--workers",
                str(WORKERS),
                "--bind",
                f"127.0.0.1:{self.port}",
                "--timeout",
                "60",
                # Its own: the default control socket is one path for every gunicorn of the
                # user, and two runs at once must not meet there.
                "--no-control-socket",
            ],
            cwd=ROOT,
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )

    def wait_ready(self) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SystemExit(f"gunicorn stopped: see {self.log.name}")
            try:
                if httpx.get(self.url + "/login/", timeout=2).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.3)
        raise SystemExit("gunicorn did not answer within 60 s")

    def stop(self) -> None:
        ended = self.process.poll()
        if ended is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self.log.close()
        if ended is not None:  # it stopped during the run: say how, with the end of its log
            print(f"gunicorn had stopped by itself (exit status {ended}); its log ends:")
            print("".join(Path(self.log.name).read_text().splitlines(True)[-15:]))
        shutil.rmtree(self.folder, ignore_errors=True)


# ---- the tournament ----


UPLOAD_PASSWORD = "load-test-upload-2026"  # noqa: S105 - a throwaway database's accounts


def heavy_file(n_players: int, seed: int) -> bytes:
    """A valid tournament file of ``n_players`` over 20 rounds, every table played: seconds of
    CPU to check and store, far within the site's limits."""
    import json

    from scoring.simulate import random_seating, simulate_tournament

    rng = random.Random(seed)
    players = [(f"p{i}", f"Speler {i}", "") for i in range(1, n_players + 1)]
    seating = random_seating([p[0] for p in players], 20, rng)
    document = simulate_tournament(
        name="Groot bestand",
        players=players,
        seating=seating,
        rng=rng,
        played_deals=[[11] * len(r) for r in seating],
        settings={"table_sizes": [4, 5]},
    )
    return json.dumps(document).encode()


def upload_accounts(count: int) -> list[str]:
    """``count`` directors of the site's club, to upload with."""
    from django.contrib.auth import get_user_model

    from tournament.clubs.services import club_sole
    from tournament.models import ClubRole

    club = club_sole()
    names = []
    for n in range(1, count + 1):
        user = get_user_model().objects.create_user(f"uploader{n}", password=UPLOAD_PASSWORD)
        ClubRole.objects.create(club=club, user=user, role=ClubRole.Role.DIRECTOR)
        names.append(user.get_username())
    return names


def build(tables: int, rounds_before: int, seed: int):
    from scoring.simulate import simulate_tournament
    from tournament.models import Table
    from tournament.sheets.table_links import table_link_issue
    from tournament.tournament_file.importing import tournament_import

    rng = random.Random(seed)
    n_players = 4 * tables
    players = [(f"p{i}", f"Speler {i}", f"Club {i % 17}") for i in range(1, n_players + 1)]
    seating = []
    for _ in range(rounds_before + 1):
        ids = [p[0] for p in players]
        rng.shuffle(ids)
        seating.append([ids[i : i + 4] for i in range(0, n_players, 4)])
    played = [[11] * tables for _ in range(rounds_before)] + [[0] * tables]
    document = simulate_tournament(
        name="Load test",
        players=players,
        seating=seating,
        rng=rng,
        played_deals=played,
        settings={"public": True},
    )
    tournament = tournament_import(document=document)
    round_number = rounds_before + 1
    links = {}
    for table in Table.objects.filter(round__tournament=tournament, round__number=round_number):
        links[table.pk] = table_link_issue(table=table).token
    return tournament, round_number, links


# ---- the clients ----


@dataclass
class Stats:
    saves: list[float] = field(default_factory=list)
    reloads: list[float] = field(default_factory=list)
    polls: list[float] = field(default_factory=list)
    polls_not_modified: int = 0
    club_pages: list[float] = field(default_factory=list)  # a club's and its season's page
    opens: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    doubles: int = 0
    save_times: list[tuple[float, float]] = field(default_factory=list)  # (sent at, seconds)
    uploads: list[tuple[str, float]] = field(default_factory=list)  # (outcome, seconds)


@dataclass
class Sent:
    """What a phone sent: per version the server answered with, and the sheet on the phone.
    ``unanswered`` is a submission whose answer never came (a transport error): it may or may
    not have been stored."""

    versions: dict[int, tuple[list, list]] = field(default_factory=dict)
    cells: dict[tuple[int, int], tuple[int | None, int | None]] = field(default_factory=dict)
    penalties: list[tuple[int, int]] = field(default_factory=list)
    unanswered: tuple[list, list] | None = None


def fields(cells, penalties, n_seats: int, base: int, key: str, csrf: str) -> dict[str, str]:
    """The sheet page's form, as its script sends it."""
    from tournament.sheets.forms import sheet_form_data

    data = sheet_form_data(n_seats, cells, penalties, base_version=base, key=key)
    return {"csrfmiddlewaretoken": csrf, **data}


def as_stored(cells, penalties, n_seats: int) -> tuple[list, list]:
    """The sheet in ``SheetVersion``'s form: a row per deal up to the last written one."""
    last = max((deal for deal, _seat in cells), default=0)
    rows = [
        [list(cells.get((deal, seat), (None, None))) for seat in range(n_seats)]
        for deal in range(1, last + 1)
    ]
    return rows, [list(p) for p in sorted(penalties)]


async def phone(
    base_url: str, token: str, rng: random.Random, args, stats: Stats, sent: Sent, stop_at
):
    from scoring.simulate import simulate_sheet

    n_seats = 4
    game = simulate_sheet(n_seats, rng)
    headers = {"X-Requested-With": "XMLHttpRequest", "Accept": "application/json"}
    async with httpx.AsyncClient(base_url=base_url, timeout=60) as client:
        await asyncio.sleep(rng.uniform(0, args.think))  # tables do not all start at once
        url = f"/s/{token}/"
        start = time.perf_counter()
        page = await client.get(url)
        stats.opens.append(time.perf_counter() - start)
        if page.status_code != 200:
            stats.errors.append(f"open {url}: HTTP {page.status_code}")
            return
        version = int(re.search(r'name="base_version" value="(\d+)"', page.text)[1])
        csrf = client.cookies["csrftoken"]
        steps = [(deal, kind) for deal in range(1, 12) for kind in ("bid", "tricks")]
        for deal, kind in steps:
            if time.monotonic() > stop_at:
                stats.errors.append(f"{url}: stopped at deal {deal} by the time limit")
                return
            bids, tricks = game[deal - 1]
            for seat in range(n_seats):
                before = sent.cells.get((deal, seat), (None, None))
                sent.cells[deal, seat] = (
                    (bids[seat], None) if kind == "bid" else (before[0], tricks[seat])
                )
            if kind == "tricks" and rng.random() < 0.05:
                sent.penalties.append((deal, rng.randrange(n_seats)))  # a revoke
            data = fields(sent.cells, sent.penalties, n_seats, version, str(uuid.uuid4()), csrf)
            copies = 2 if rng.random() < args.double else 1
            stats.doubles += copies - 1
            answers = await asyncio.gather(
                *(timed_post(client, url, data, headers, stats) for _ in range(copies))
            )
            got = set()
            for answer in answers:
                if isinstance(answer, str):
                    stats.errors.append(f"{url} deal {deal} {kind}: {answer}")
                    sent.unanswered = as_stored(sent.cells, sent.penalties, n_seats)
                    return
                got.add(answer["version"])
            if got != {version + 1}:
                stats.errors.append(f"{url} deal {deal} {kind}: versions {got}, not {version + 1}")
                return
            version += 1
            sent.versions[version] = as_stored(sent.cells, sent.penalties, n_seats)
            await asyncio.sleep(rng.expovariate(1 / args.think))


def describe(error: Exception) -> str:
    """An error with its cause and the clock time, to tell a refused connection from a
    timeout and place it in the run."""
    cause = f" ({type(error.__cause__).__name__}: {error.__cause__})" if error.__cause__ else ""
    return f"{time.strftime('%H:%M:%S')} {type(error).__name__}: {error}{cause}"


async def timed_post(client, url, data, headers, stats: Stats):
    start = time.perf_counter()
    try:
        response = await client.post(url, data=data, headers=headers)
    except httpx.HTTPError as error:
        return describe(error)
    stats.saves.append(time.perf_counter() - start)
    stats.save_times.append((start, stats.saves[-1]))
    if response.status_code != 200:
        return f"HTTP {response.status_code}: {response.text[:200]}"
    answer = response.json()
    if answer.get("outcome") != "saved":
        return f"outcome {answer.get('outcome')}"
    return answer


async def uploader(base_url: str, username: str, data: bytes, stats: Stats, done) -> None:
    """A director who signs in and imports the large file, again and again (a second after
    each answer) until the round is entered: imported, or refused by the site (busy, too
    often), each with its time."""
    async with httpx.AsyncClient(base_url=base_url, timeout=120) as client:
        await client.get("/login/")
        signed_in = await client.post(
            "/login/",
            data={
                "username": username,
                "password": UPLOAD_PASSWORD,
                "csrfmiddlewaretoken": client.cookies["csrftoken"],
            },
        )
        if signed_in.status_code != 302:
            stats.errors.append(f"{username}: sign-in answered {signed_in.status_code}")
            return
        while not done.is_set():
            start = time.perf_counter()
            try:
                response = await client.post(
                    "/t/import/",
                    data={"csrfmiddlewaretoken": client.cookies["csrftoken"]},
                    files={"file": ("groot.json", data, "application/json")},
                )
            except httpx.HTTPError as error:
                stats.errors.append(f"{username} upload: {describe(error)}")
                return
            seconds = time.perf_counter() - start
            if response.status_code == 302:
                outcome = "imported"
            elif "costly_busy" in response.text:
                outcome = "refused: busy"
            elif "costly_too_often" in response.text:
                outcome = "refused: too often"
            else:
                outcome = f"HTTP {response.status_code}"
                stats.errors.append(f"{username} upload: {outcome} {response.text[:120]}")
            stats.uploads.append((outcome, seconds))
            await asyncio.sleep(1)


async def visitor(base_url: str, slug: str, rng: random.Random, args, stats: Stats, done):
    if args.visitors_do == "poll":
        await poller(base_url, slug, rng, args, stats, done)
    else:
        await reloader(base_url, slug, rng, args, stats, done)


async def poller(base_url: str, slug: str, rng: random.Random, args, stats: Stats, done):
    """A visitor as the standings page's script is: the page once, then the live document
    with the tag of the last answer, every ``--poll`` seconds with the script's jitter."""
    async with httpx.AsyncClient(base_url=base_url, timeout=60) as client:
        await asyncio.sleep(rng.uniform(0, args.poll))
        start = time.perf_counter()
        try:
            response = await client.get(f"/p/{slug}/standings/")
        except httpx.HTTPError as error:
            stats.errors.append(f"standings: {describe(error)}")
            return
        stats.reloads.append(time.perf_counter() - start)
        if response.status_code != 200 or 'id="live-config"' not in response.text:
            stats.errors.append(f"standings: HTTP {response.status_code}, or no live script")
            return
        tag = None
        while not done.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(done.wait(), args.poll * rng.uniform(0.75, 1.25))
            if done.is_set():
                break
            headers = {"If-None-Match": tag} if tag else {}
            start = time.perf_counter()
            try:
                response = await client.get(f"/p/{slug}/live.json", headers=headers)
            except httpx.HTTPError as error:
                stats.errors.append(f"live.json: {describe(error)}")
                continue
            stats.polls.append(time.perf_counter() - start)
            if response.status_code == 304 and not response.content:
                stats.polls_not_modified += 1
            elif response.status_code == 200 and "standings" in response.json():
                tag = response.headers.get("ETag")
            else:
                stats.errors.append(f"live.json: HTTP {response.status_code}")


async def reloader(base_url: str, slug: str, rng: random.Random, args, stats: Stats, done):
    """A visitor reloading the whole standings page every ``--reload`` seconds on average."""
    async with httpx.AsyncClient(base_url=base_url, timeout=60) as client:
        await asyncio.sleep(rng.uniform(0, args.reload))
        while not done.is_set():
            start = time.perf_counter()
            try:
                response = await client.get(f"/p/{slug}/standings/")
            except httpx.HTTPError as error:
                stats.errors.append(f"standings: {describe(error)}")
                response = None
            if response is not None:
                stats.reloads.append(time.perf_counter() - start)
                if response.status_code != 200 or "standings" not in response.text:
                    stats.errors.append(f"standings: HTTP {response.status_code}")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(done.wait(), rng.expovariate(1 / args.reload))


async def warm_up(base_url: str, slug: str, token: str) -> None:
    """A server that has been running: every worker has loaded its code and templates (a
    first request takes a second). Not measured; the sheet it opens stays untouched."""
    async with httpx.AsyncClient(base_url=base_url, timeout=60) as client:
        for _ in range(3):
            await asyncio.gather(
                *(
                    client.get(path)
                    for path in (
                        f"/p/{slug}/standings/",
                        f"/p/{slug}/live.json",
                        f"/s/{token}/",
                        "/login/",
                    )
                    for _worker in range(2 * WORKERS)
                )
            )


async def run_clients(
    base_urls: list[str], slug: str, links: dict[int, str], args, uploads=((), b"")
):
    """The phones and the visitors, the n-th of each on server n (of ``base_urls``) in turn."""
    for base_url in base_urls:
        await warm_up(base_url, slug, next(iter(links.values())))

    def server(index: int) -> str:
        return base_urls[index % len(base_urls)]

    stats = Stats()
    sent = {table_id: Sent() for table_id in links}
    done = asyncio.Event()
    stop_at = time.monotonic() + args.timeout
    rng = random.Random(args.seed)
    visitors = [
        asyncio.create_task(
            visitor(server(n), slug, random.Random(rng.random()), args, stats, done)
        )
        for n in range(args.visitors)
    ]
    accounts, data = uploads
    uploaders = [
        asyncio.create_task(uploader(server(n), name, data, stats, done))
        for n, name in enumerate(accounts)
    ]
    started = time.perf_counter()
    await asyncio.gather(
        *(
            phone(server(n), token, random.Random(rng.random()), args, stats, sent[tid], stop_at)
            for n, (tid, token) in enumerate(links.items())
        )
    )
    elapsed = time.perf_counter() - started
    done.set()
    await asyncio.gather(*visitors, *uploaders)
    return stats, sent, elapsed


# ---- checking what was stored ----


def compare(tournament, round_number: int, sent: dict[int, Sent]) -> list[str]:
    """Every difference between what the phones sent and what the database holds."""
    from tournament.adapter import load_table_sheets
    from tournament.models import Round, SheetVersion

    differences = []
    sheets = {s.table_id: s for s in load_table_sheets(tournament=tournament)}
    for table_id, phone_sent in sent.items():
        versions = list(SheetVersion.objects.filter(table_id=table_id).order_by("number", "pk"))
        stored = {v.number: (v.cells, v.penalties) for v in versions if v.number}
        answered = len(phone_sent.versions)
        expected = phone_sent.versions.get(answered, ([], []))
        if len(stored) == answered + 1 and stored[answered + 1] == phone_sent.unanswered:
            expected = stored.pop(answered + 1)  # stored, though its answer was lost on the way
        if stored != phone_sent.versions:
            wrong = [
                n
                for n in sorted(set(stored) | set(phone_sent.versions))
                if stored.get(n) != phone_sent.versions.get(n)
            ]
            differences.append(f"table {table_id}: versions {wrong[:5]} differ from those sent")
        others = [v for v in versions if not v.number or v.via != SheetVersion.Via.TABLE_LINK]
        if others:
            differences.append(f"table {table_id}: {len(others)} conflict or foreign version(s)")
        sheet = sheets[table_id].sheet
        cells = {
            (deal, seat): (entry.bids[seat], entry.tricks[seat])
            for deal, entry in enumerate(sheet.deals, start=1)
            for seat in range(sheet.n_seats)
            if entry.bids[seat] is not None or entry.tricks[seat] is not None
        }
        expected_cells = {
            (deal, seat): tuple(pair)
            for deal, row in enumerate(expected[0], start=1)
            for seat, pair in enumerate(row)
            if pair != [None, None]
        }
        if cells != expected_cells:
            differences.append(f"table {table_id}: the sheet differs from its last version")
        if sorted([p.deal, p.seat] for p in sheet.penalties) != expected[1]:
            differences.append(f"table {table_id}: the penalty bollen differ")
    state = Round.objects.get(tournament=tournament, number=round_number).state
    if state != Round.State.COMPLETE and all(len(s.versions) == 22 for s in sent.values()):
        differences.append(f"round {round_number} is {state}, not complete")
    return differences


def ms(values: list[float], q: float | None = None) -> str:
    if not values:
        return "-"
    if q is None:
        return f"{max(values) * 1000:.0f}"
    ordered = sorted(values)
    return f"{ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000:.0f}"


@dataclass
class Run:
    stats: Stats
    sent: dict[int, Sent]
    elapsed: float
    differences: list[str]
    server_cpu: float
    client_cpu: float
    load_before: float
    load_after: float
    evenings: list = field(default_factory=list)  # --clubs: load_clubs.Evening per club
    club_differences: dict[str, list[str]] = field(default_factory=dict)
    history: object = None  # --history: load_history.Filled


def visiting(args) -> str:
    if args.visitors_do == "poll":
        return f"a poll of the live document every {args.poll:g} s"
    return f"a reload of the standings every {args.reload:g} s"


def run(args, database: Database) -> Run:
    """Build the tournament, serve it, play the round, and compare (the database stays)."""
    os.environ["DATABASE_URL"] = database.url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bollen.settings")
    os.environ.setdefault("SECRET_KEY", "load-test-only-" + secrets.token_hex(24))
    import django
    from django.core.management import call_command
    from django.db import connections

    django.setup()
    call_command("migrate", verbosity=0)
    history = None
    if args.history:
        from load_history import fill

        print(f"filling the history: {args.history[0]} clubs x {args.history[1]} evenings ...")
        history = fill(*args.history, seed=args.seed)
        print(
            f"history written in {history.seconds_copy:.0f} s, VACUUM ANALYZE "
            f"{history.seconds_analyze:.0f} s: "
            + ", ".join(f"{table[11:]} {n}" for table, n in history.rows.items()),
            flush=True,
        )
    evenings = []
    if args.clubs:
        from load_clubs import build_clubs

        started = time.perf_counter()
        evenings = build_clubs(args.clubs, args.tables, args.rounds_before, args.seed)
        print(f"{args.clubs} clubs' evenings built in {time.perf_counter() - started:.0f} s")
        uploads = ((), b"")
    else:
        tournament, round_number, links = build(args.tables, args.rounds_before, args.seed)
        uploads = (upload_accounts(args.uploads), heavy_file(args.upload_players, args.seed))
    connections.close_all()
    if args.query_stats:
        import load_queries

        args.query_stats = load_queries.reset(database.url)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    # Two servers share what two machines would: the database and the secret key.
    secret_key = "load-test-only-" + secrets.token_hex(24)
    servers = [
        Gunicorn(database.url, args.port + n if args.port else 0, secret_key)
        for n in range(args.servers)
    ]
    try:
        for server in servers:
            server.wait_ready()
        ports = ", ".join(str(server.port) for server in servers)
        clubs = f"{args.clubs} clubs x " if args.clubs else ""
        print(
            f"PostgreSQL {database.version}, {args.servers} x gunicorn -w {WORKERS} on 127.0.0.1:"
            f"{ports}, {os.cpu_count()} cores; {clubs}{args.tables} tables "
            f"({4 * args.tables} players, {args.rounds_before} rounds played before), "
            f"{args.visitors} visitors; "
            f"a save every {args.think:g} s per table and {visiting(args)} per visitor on "
            f"average; {args.double:.0%} of the saves sent twice at once; "
            f"started {time.strftime('%H:%M:%S')}",
            flush=True,
        )
        load_before = os.getloadavg()[0]
        client_cpu = time.process_time()
        urls = [server.url for server in servers]
        if evenings:
            from load_clubs import merged, run_clubs_clients

            sent, elapsed = asyncio.run(run_clubs_clients(urls, evenings, args))
            stats = merged(evenings)
        else:
            stats, sent, elapsed = asyncio.run(
                run_clients(urls, tournament.slug, links, args, uploads)
            )
        client_cpu = time.process_time() - client_cpu
        load_after = os.getloadavg()[0]
    finally:
        for server in servers:
            server.stop()
    if args.query_stats:
        import load_queries

        load_queries.report(database.url)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    server_cpu = (after.ru_utime + after.ru_stime) - (children.ru_utime + children.ru_stime)
    club_differences = {}
    if evenings:
        from load_clubs import compare_clubs

        club_differences = compare_clubs(evenings, sent)
        differences = [f"{club} {d}" for club, ds in club_differences.items() for d in ds]
    else:
        differences = compare(tournament, round_number, sent)
    return Run(
        stats=stats,
        sent=sent,
        elapsed=elapsed,
        differences=differences,
        evenings=evenings,
        club_differences=club_differences,
        history=history,
        server_cpu=server_cpu,
        client_cpu=client_cpu,
        load_before=load_before,
        load_after=load_after,
    )


def main() -> int:
    args = parse_args()
    # Stopped from outside (``timeout``, Ctrl-C): still stop gunicorn and drop the database.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    sys.path.insert(0, str(ROOT))
    for port in range(args.port, args.port + args.servers) if args.port else ():
        if not port_free(port):
            print(f"Port {port} on 127.0.0.1 is in use: choose another --port.", file=sys.stderr)
            return 2
    try:
        database = Database()
    except SetupError as exc:
        print(exc, file=sys.stderr)
        return 2
    if args.query_stats:
        import load_queries

        try:
            load_queries.preload(database)
        except Exception:
            database.drop()
            raise
    # The automatic backup of a completed round goes to a folder of its own, removed at the end.
    backups = tempfile.mkdtemp(prefix="bollen-load-backups.")
    os.environ["BACKUP_DIR"] = backups
    try:
        result = run(args, database)
    finally:
        database.drop()
        shutil.rmtree(backups, ignore_errors=True)
    report(result)
    return 1 if result.stats.errors or result.differences else 0


def report(result: Run) -> None:
    stats, sent, elapsed = result.stats, result.sent, result.elapsed
    differences = result.differences
    if result.evenings:
        from load_clubs import report_clubs

        report_clubs(result.evenings, sent, result.club_differences)
        print("\nall clubs together:")
    saves = len(stats.saves)
    versions = sum(len(s.versions) for s in sent.values())
    print(f"\nround entered in {elapsed:.0f} s")
    print(
        f"CPU: gunicorn {result.server_cpu:.0f} s, clients {result.client_cpu:.0f} s "
        f"(PostgreSQL not counted); load average {result.load_before:.1f} before, "
        f"{result.load_after:.1f} after (other processes count)"
    )
    print(f"errors: {len(stats.errors)}")
    for error in stats.errors[:10]:
        print(f"  {error}")
    print(
        f"saves: {saves} requests ({stats.doubles} of them the second copy of a double tap), "
        f"{saves / elapsed:.1f}/s; latency p50 {ms(stats.saves, 0.5)} ms, "
        f"p95 {ms(stats.saves, 0.95)} ms, max {ms(stats.saves)} ms"
    )
    print(
        f"link pages opened: {len(stats.opens)}; latency p50 {ms(stats.opens, 0.5)} ms, "
        f"max {ms(stats.opens)} ms"
    )
    print(
        f"standings page loads: {len(stats.reloads)}, {len(stats.reloads) / elapsed:.1f}/s; "
        f"latency p50 {ms(stats.reloads, 0.5)} ms, p95 {ms(stats.reloads, 0.95)} ms, "
        f"max {ms(stats.reloads)} ms"
    )
    if stats.club_pages:
        print(
            f"club and season pages: {len(stats.club_pages)}; latency p50 "
            f"{ms(stats.club_pages, 0.5)} ms, p95 {ms(stats.club_pages, 0.95)} ms, "
            f"max {ms(stats.club_pages)} ms"
        )
    if stats.polls:
        share = stats.polls_not_modified / len(stats.polls)
        print(
            f"live polls: {len(stats.polls)}, {len(stats.polls) / elapsed:.1f}/s, "
            f"{stats.polls_not_modified} answered 304 ({share:.0%}); latency p50 "
            f"{ms(stats.polls, 0.5)} ms, p95 {ms(stats.polls, 0.95)} ms, max {ms(stats.polls)} ms"
        )
    if stats.uploads:
        outcomes: dict[str, list[float]] = {}
        for outcome, seconds in stats.uploads:
            outcomes.setdefault(outcome, []).append(seconds)
        print(
            "uploads of the large file: "
            + "; ".join(
                f"{outcome} {len(values)} (p50 {ms(values, 0.5)} ms, max {ms(values)} ms)"
                for outcome, values in sorted(outcomes.items())
            )
        )
    if stats.saves:
        print(f"save latency mean {statistics.fmean(stats.saves) * 1000:.0f} ms; per minute:")
        first = min(at for at, _seconds in stats.save_times)
        minutes: dict[int, list[float]] = {}
        for at, seconds in stats.save_times:
            minutes.setdefault(int((at - first) // 60), []).append(seconds)
        for minute, values in sorted(minutes.items()):
            print(
                f"  minute {minute + 1}: {len(values)} saves, p50 {ms(values, 0.5)} ms, "
                f"p95 {ms(values, 0.95)} ms, max {ms(values)} ms"
            )
    tables_equal = len(sent) - len({d.split(":")[0] for d in differences if "table " in d})
    print(
        f"stored vs sent: {versions} versions and {len(sent)} final sheets compared; "
        f"{tables_equal} of {len(sent)} tables exactly equal; "
        + ("no difference" if not differences else f"{len(differences)} difference(s):")
    )
    for difference in differences[:10]:
        print(f"  {difference}")


if __name__ == "__main__":
    raise SystemExit(main())
