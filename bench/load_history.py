"""The past of many clubs for the load test (``bench/load.py --history C,E``): C clubs, each with
a director and an admin, a register of members, one season competition and E finished evenings
of it, written straight into PostgreSQL with ``COPY`` (seconds to a couple of minutes, not the
hours the site's own import would take for millions of rows).

An evening is what a club evening played with table links leaves behind: 24 to 52 players of
the club's register (tables of 4 and 5, ``scoring.tables.table_split``), 4 published rounds
seated at random, a table link per table, 22 sheet versions per table (the bids, then the
tricks, of each of the 11 deals, as the phones saved them), the last one confirmed by the
director, the sheet's scores (``SheetScore``, computed by ``scoring.sheet.score_sheet``) and
the finish; each evening is an evening of the club's competition. The sheets come from a pool
of simulated games (``scoring.simulate``), so every stored score is the real score of its
cells. Then ``VACUUM ANALYZE``, as autovacuum would have done on a server that has been running.
"""

from __future__ import annotations

import datetime
import json
import random
import time
from dataclasses import dataclass, field

SEASON_START = datetime.date(2025, 9, 2)
MEMBERS = 60
ROUNDS = 4
POOL = 400  # simulated games per table size
FIRST = [
    "Jan",
    "Piet",
    "Kees",
    "Henk",
    "Anna",
    "Els",
    "Marij",
    "Truus",
    "Gerrit",
    "Wim",
    "Joke",
    "Ria",
    "Bert",
    "Fien",
    "Sjaak",
    "Nel",
    "Toon",
    "Lies",
    "Hans",
    "Corrie",
    "Ton",
    "Greet",
    "Bep",
    "Mien",
    "Harm",
    "Dirk",
    "Geert",
    "Jo",
    "Tineke",
    "Wout",
]
LAST = [
    "de Vries",
    "Jansen",
    "Bakker",
    "Visser",
    "Smit",
    "Meijer",
    "de Boer",
    "Mulder",
    "de Groot",
    "Bos",
    "Vos",
    "Peters",
    "Hendriks",
    "van Dijk",
    "Dekker",
    "Brouwer",
    "de Wit",
    "Dijkstra",
    "Smits",
    "de Graaf",
]


@dataclass
class Filled:
    """What the history holds, and how long writing it took."""

    clubs: int = 0
    evenings: int = 0
    rows: dict[str, int] = field(default_factory=dict)
    seconds_copy: float = 0.0
    seconds_analyze: float = 0.0


@dataclass
class Game:
    """One simulated table's game: the JSON of each of its 22 versions (cells, penalties),
    and the scores of the finished sheet (``SheetScore.totals``)."""

    versions: list[tuple[str, str]]
    totals: str


def games(n_seats: int, rng: random.Random) -> list[Game]:
    from scoring.sheet import DealEntry, Penalty, Sheet, score_sheet
    from scoring.simulate import simulate_sheet

    pool = []
    for _ in range(POOL):
        deals = simulate_sheet(n_seats, rng)
        penalty = (rng.randint(1, 11), rng.randrange(n_seats)) if rng.random() < 0.08 else None
        cells = []
        rows: list[str] = []
        for bids, tricks in deals:
            bid_row = json.dumps([[b, None] for b in bids])
            cells.append(f"[{', '.join([*rows, bid_row])}]")
            rows.append(json.dumps([[b, t] for b, t in zip(bids, tricks, strict=True)]))
            cells.append(f"[{', '.join(rows)}]")
        # A penalty is written with the tricks of its deal, and stays from there on.
        versions = [
            (text, json.dumps([list(penalty)]) if penalty and number >= 2 * penalty[0] else "[]")
            for number, text in enumerate(cells, start=1)
        ]
        sheet = Sheet(
            n_seats,
            tuple(DealEntry(b, t) for b, t in deals),
            (Penalty(seat=penalty[1], deal=penalty[0]),) if penalty else (),
        )
        fields = ("bollen", "penalty_bollen", "points", "correct", "tournament_points")
        totals = [
            [*(getattr(t, name) for name in fields), t.deals_played]
            for t in score_sheet(sheet).totals
        ]
        pool.append(Game(versions, json.dumps(totals)))
    return pool


class Ids:
    """The next free id of each table (read once, the sequences set at the end)."""

    def __init__(self, cursor, tables: list[str]) -> None:
        self.next = {}
        for table in tables:
            cursor.execute(f"SELECT coalesce(max(id), 0) + 1 FROM {table}")  # noqa: S608
            self.next[table] = cursor.fetchone()[0]

    def take(self, table: str) -> int:
        value = self.next[table]
        self.next[table] = value + 1
        return value


COLUMNS = {
    "tournament_club": "id, name, slug, site_url, directors_edit_register, created_at, "
    "former_members, name_display, privacy_text",
    "tournament_clubrole": "id, club_id, user_id, role, created_at",
    "tournament_member": "id, register_id, name, club, number, active, guest, created_at, "
    "public_consent",
    "tournament_competition": "id, club_id, name, season, slug, best, min_evenings, ranking, "
    "public, season_seating, created_at",
    "tournament_tournament": "id, club_id, name, slug, date, place, table_sizes, prefer_size, "
    "rounds_planned, tiebreaks, language, public, count_unconfirmed, confirmation_rule, "
    "seating_balance, clubs_apart_first_round, first_dealer_rule, finished_at, finished_by_id, "
    "prize_places, prize_last_place, created_at",
    "tournament_tournament_directors": "id, tournament_id, user_id",
    "tournament_tournamentfinish": "id, tournament_id, action, at, by_id, by_name, backup",
    "tournament_competitionevening": "id, competition_id, tournament_id, number",
    "tournament_player": "id, tournament_id, file_id, name, club, joined_round, withdrawn_round, "
    "member_id, public_consent",
    "tournament_round": "id, tournament_id, number, published, seating_options, closed_at",
    "tournament_table": "id, round_id, number, first_dealer_seat",
    "tournament_seat": "id, round_id, table_id, player_id, position",
    "tournament_tablelink": "id, table_id, token, created_at, created_by_id, revoked_at",
    "tournament_sheetversion": "id, table_id, number, base_number, cells, penalties, via, "
    "restored_from_id, user_id, ip, idempotency_key, submitted, created_at",
    "tournament_sheetconfirmation": "id, version_id, user_id, method, created_at",
    "tournament_sheetscore": "id, table_id, version, seat_ids, started, complete, totals",
}


def _text(value: object) -> str:
    """A value in COPY's text format (none of ours holds a tab, a newline or a backslash)."""
    if value is None:
        return "\\N"
    if isinstance(value, bool):
        return "t" if value else "f"
    return str(value)


def _ts(moment: datetime.datetime) -> str:
    return moment.isoformat()


class Writer:
    """Rows as COPY text lines, a buffer per table, sent batch by batch."""

    def __init__(self) -> None:
        self.lines: dict[str, list[str]] = {table: [] for table in COLUMNS}
        self.counts: dict[str, int] = dict.fromkeys(COLUMNS, 0)

    def row(self, table: str, *values: object) -> None:
        self.lines[table].append("\t".join(_text(v) for v in values))

    def flush(self, cursor) -> None:
        for table, lines in self.lines.items():
            if not lines:
                continue
            with cursor.copy(f"COPY {table} ({COLUMNS[table]}) FROM STDIN") as copy:
                for start in range(0, len(lines), 20_000):
                    copy.write("\n".join(lines[start : start + 20_000]) + "\n")
            self.counts[table] += len(lines)
            lines.clear()


def accounts(clubs: int) -> dict[int, tuple[int, int, str]]:
    """Per club number: (director's user id, admin's user id, director's username), made by the
    ORM with one password hash for all (the load test never signs them in)."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password

    user_model = get_user_model()
    password = make_password(None)  # unusable
    users = []
    for c in range(1, clubs + 1):
        users.append(user_model(username=f"leider-{c:03d}", password=password))
        users.append(user_model(username=f"beheer-{c:03d}", password=password))
    made = user_model.objects.bulk_create(users, batch_size=1000)
    return {
        c: (made[2 * c - 2].pk, made[2 * c - 1].pk, made[2 * c - 2].username)
        for c in range(1, clubs + 1)
    }


def club_slug(number: int) -> str:
    return f"club-{number:03d}"


def fill(clubs: int, evenings: int, seed: int) -> Filled:
    """Write the history of ``clubs`` clubs with ``evenings`` evenings each (see the module)."""
    import psycopg
    from django.db import connection

    from scoring.tables import table_split
    from tournament.models import default_tiebreaks

    rng = random.Random(seed)
    pool = {4: games(4, rng), 5: games(5, rng)}
    tiebreaks = json.dumps(default_tiebreaks())
    filled = Filled(clubs=clubs, evenings=evenings)
    started = time.perf_counter()
    users = accounts(clubs)
    connection.ensure_connection()
    raw = connection.connection
    writer = Writer()
    with raw.cursor() as cursor:
        # The rows are consistent by construction: no foreign key check per row, where the
        # database user may say so (a superuser; the load test's own cluster).
        replica = True
        try:
            cursor.execute("SET session_replication_role = replica")
        except psycopg.errors.InsufficientPrivilege:
            replica = False
        ids = Ids(cursor, list(COLUMNS))
        for c in range(1, clubs + 1):
            director, admin, director_name = users[c]
            slug = club_slug(c)
            name = f"Bolclub {c:03d}"
            created = datetime.datetime(2025, 8, 1, 20, 0, tzinfo=datetime.UTC)
            club = ids.take("tournament_club")
            writer.row("tournament_club", club, name, slug, "", False, _ts(created), 0, "full", "")
            for user, role in ((director, "director"), (admin, "admin")):
                writer.row(
                    "tournament_clubrole",
                    ids.take("tournament_clubrole"),
                    club,
                    user,
                    role,
                    _ts(created),
                )
            members = []
            for m in range(MEMBERS):
                member_name = f"{FIRST[m % len(FIRST)]} {LAST[(m // len(FIRST) + c) % len(LAST)]}"
                member = ids.take("tournament_member")
                writer.row(
                    "tournament_member",
                    member,
                    club,
                    member_name,
                    name,
                    str(m + 1),
                    True,
                    False,
                    _ts(created),
                    True,
                )
                members.append((member, member_name))
            competition = ids.take("tournament_competition")
            writer.row(
                "tournament_competition",
                competition,
                club,
                "Clubcompetitie",
                "2025-2026",
                f"{slug}-competitie",
                None,
                0,
                "best",
                True,
                False,
                _ts(created),
            )
            for e in range(1, evenings + 1):
                _evening(
                    writer,
                    ids,
                    rng,
                    pool,
                    table_split,
                    e,
                    club,
                    slug,
                    name,
                    members,
                    competition,
                    director,
                    director_name,
                    tiebreaks,
                )
            if c % 10 == 0 or c == clubs:
                writer.flush(cursor)
        if replica:
            cursor.execute("SET session_replication_role = DEFAULT")
        for table in COLUMNS:
            cursor.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "  # noqa: S608
                f"(SELECT coalesce(max(id), 1) FROM {table}))"
            )
    filled.seconds_copy = time.perf_counter() - started
    filled.rows = dict(writer.counts)
    started = time.perf_counter()
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
    filled.seconds_analyze = time.perf_counter() - started
    return filled


def _evening(
    writer,
    ids,
    rng,
    pool,
    table_split,
    e,
    club,
    slug,
    name,
    members,
    competition,
    director,
    director_name,
    tiebreaks,
) -> None:
    date = SEASON_START + datetime.timedelta(days=7 * (e - 1))
    start = datetime.datetime.combine(date, datetime.time(19, 0), tzinfo=datetime.UTC)
    n_players = rng.randint(24, 52)
    sizes = table_split(n_players).sizes
    tournament = ids.take("tournament_tournament")
    writer.row(
        "tournament_tournament",
        tournament,
        club,
        f"Clubavond {e}",
        f"{slug}-avond-{e}",
        date.isoformat(),
        "",
        "[4, 5]",
        4,
        ROUNDS,
        tiebreaks,
        "nl",
        True,
        True,
        "auto",
        "even",
        True,
        "site",
        _ts(start + datetime.timedelta(hours=4)),
        director,
        3,
        False,
        _ts(start),
    )
    writer.row(
        "tournament_tournament_directors",
        ids.take("tournament_tournament_directors"),
        tournament,
        director,
    )
    writer.row(
        "tournament_tournamentfinish",
        ids.take("tournament_tournamentfinish"),
        tournament,
        "finished",
        _ts(start + datetime.timedelta(hours=4)),
        director,
        director_name,
        "",
    )
    writer.row(
        "tournament_competitionevening",
        ids.take("tournament_competitionevening"),
        competition,
        tournament,
        e,
    )
    players = []
    for index, (member, member_name) in enumerate(rng.sample(members, n_players), start=1):
        player = ids.take("tournament_player")
        writer.row(
            "tournament_player",
            player,
            tournament,
            f"p{index}",
            member_name,
            name,
            1,
            None,
            member,
            True,
        )
        players.append(player)
    for r in range(1, ROUNDS + 1):
        round_id = ids.take("tournament_round")
        writer.row("tournament_round", round_id, tournament, r, True, "{}", None)
        rng.shuffle(players)
        begin = start + datetime.timedelta(minutes=55 * (r - 1))
        at = 0
        for t, size in enumerate(sizes, start=1):
            table = ids.take("tournament_table")
            writer.row("tournament_table", table, round_id, t, None)
            seat_ids = []
            for position, player in enumerate(players[at : at + size]):
                seat = ids.take("tournament_seat")
                writer.row("tournament_seat", seat, round_id, table, player, position)
                seat_ids.append(seat)
            at += size
            writer.row(
                "tournament_tablelink",
                ids.take("tournament_tablelink"),
                table,
                f"{rng.getrandbits(172):043x}",
                _ts(begin),
                director,
                None,
            )
            game = rng.choice(pool[size])
            version = 0
            for number, (cells, penalties) in enumerate(game.versions, start=1):
                version = ids.take("tournament_sheetversion")
                saved = begin + datetime.timedelta(seconds=120 * number + rng.randint(0, 60))
                writer.row(
                    "tournament_sheetversion",
                    version,
                    table,
                    number,
                    number - 1,
                    cells,
                    penalties,
                    "table_link",
                    None,
                    None,
                    "127.0.0.1",
                    f"{rng.getrandbits(128):032x}",
                    None,
                    _ts(saved),
                )
            writer.row(
                "tournament_sheetconfirmation",
                ids.take("tournament_sheetconfirmation"),
                version,
                director,
                "look",
                _ts(begin + datetime.timedelta(minutes=50)),
            )
            writer.row(
                "tournament_sheetscore",
                ids.take("tournament_sheetscore"),
                table,
                22,
                json.dumps(seat_ids),
                True,
                True,
                game.totals,
            )
