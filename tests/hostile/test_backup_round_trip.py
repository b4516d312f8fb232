"""A backup made on one database restores on the other: SQLite to PostgreSQL and back.

The suite runs on one database per run (``DATABASE_URL``); the other one is a second database
that ``manage.py`` reaches in a subprocess: a throwaway PostgreSQL cluster (scripts/postgres.sh)
when the suite runs on SQLite, a SQLite file when it runs on PostgreSQL. So both passes of
``make test`` carry a backup across, both ways, and compare everything: the file (settings,
players, seating, every sheet, every version, confirmations, table links), the standings.

Files PostgreSQL would refuse at the database (round 40000, table 2^40, a NUL in a name, a place
of 10,000 characters) are answered with a list of problems by both databases, nothing stored.
"""

from __future__ import annotations

import copy
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unicodedata
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection

from tests.factories import played_tournament
from tests.site.test_backups import cells_of
from tournament.errors import Refused
from tournament.models import Player, Round, SheetVersion, Table, Tournament
from tournament.players.importing import PlayerRow
from tournament.players.services import player_withdraw, players_register
from tournament.rounds.services import round_close
from tournament.sheets.confirmations import sheet_confirm
from tournament.sheets.services import sheet_record
from tournament.sheets.submission import SheetConflict, SheetSubmission
from tournament.sheets.table_links import table_link_ensure, table_link_issue
from tournament.tournament_file.exporting import tournament_export
from tournament.tournament_file.importing import tournament_import
from tournament.tournament_file.reading import tournament_file_parse

# The other database is made once, by one test process; it crosses both ways itself, so the
# PostgreSQL pass need not run it again.
pytestmark = [
    pytest.mark.django_db,
    pytest.mark.xdist_group("other_database"),
    pytest.mark.both_databases,
]

ROOT = Path(__file__).resolve().parents[2]
POSTGRES = ROOT / "scripts" / "postgres.sh"
ACCOUNTS = ("directeur", "anna")

# Accepted, but hard on a database: accents, both Unicode forms (the site keeps NFC), emoji,
# tussenvoegsels, apostrophes, names up to the field's 200 characters.
NAMES = [
    "Jérôme van der Berg",
    unicodedata.normalize("NFD", "José Müller-Lüdenscheidt"),
    "Anne-Marie van 't Hof",
    "Ĳsbrand de Vries 🃏",
    "Ørjan Ångström",
    "Zoë d'Ancona",
    "Ñandú " + "é" * 190,
    "李 小龍",
]


@dataclass(frozen=True)
class OtherDatabase:
    """The database this run does not test on, reached through ``manage.py``."""

    vendor: str
    url: str

    def manage(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        env = {
            **os.environ,
            "DATABASE_URL": self.url,
            "DJANGO_SETTINGS_MODULE": "bollen.settings_test",
            "ENV_FILE": "",
            "PYTHONPATH": str(ROOT),
        }
        result = subprocess.run(
            [sys.executable, str(ROOT / "manage.py"), *args],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        if check and result.returncode != 0:
            pytest.fail(
                f"manage.py {' '.join(args[:2])} on {self.vendor} failed:\n"
                f"{result.stdout}\n{result.stderr}"
            )
        return result


def _postgres_cluster(directory: str) -> str:
    if subprocess.run([str(POSTGRES), "available", directory], check=False).returncode:
        pytest.fail(
            "The backup round trip needs the PostgreSQL server binaries (initdb, pg_ctl) to "
            "start a throwaway cluster, and they are missing. Install them: "
            "apt-get install postgresql (scripts/system-packages.sh browser does)."
        )
    started = subprocess.run(
        [str(POSTGRES), "start", directory], capture_output=True, text=True, check=False
    )
    if started.returncode:
        pytest.fail(f"scripts/postgres.sh could not start PostgreSQL:\n{started.stderr}")
    url = started.stdout.strip()
    import psycopg

    admin = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute("CREATE DATABASE bollen")
    return url


@pytest.fixture(scope="session")
def other_database() -> Iterator[OtherDatabase]:
    """PostgreSQL when this run is on SQLite, SQLite when it is on PostgreSQL; migrated, with
    the accounts the backups name."""
    directory = tempfile.mkdtemp(prefix="bollen-other-db.")
    on_sqlite = connection.vendor == "sqlite"
    try:
        if on_sqlite:
            other = OtherDatabase("postgresql", _postgres_cluster(directory))
        else:
            other = OtherDatabase("sqlite", f"sqlite:///{directory}/other.sqlite3")
        other.manage("migrate", "--no-input", "-v", "0")
        code = (
            "from django.contrib.auth.models import User\n"
            f"for name in {ACCOUNTS!r}: User.objects.create_user(username=name, password='x'*12)"
        )
        other.manage("shell", "-c", code)
        yield other
    finally:
        if on_sqlite:
            subprocess.run([str(POSTGRES), "stop", directory], check=False)
        shutil.rmtree(directory, ignore_errors=True)


def _save(table, cells, *, base, user, penalties=()):
    return sheet_record(
        table=table,
        submission=SheetSubmission(
            cells=cells,
            penalties=penalties,
            base_version=base,
            idempotency_key=uuid.uuid4(),
            by_user=user,
            via=SheetVersion.Via.TABLE_LINK,
            ip="192.168.1.31",
        ),
    )


@pytest.fixture
def accounts(django_user_model):
    return [django_user_model.objects.create_user(username=n, password="x" * 12) for n in ACCOUNTS]


@pytest.fixture
def built(accounts) -> Tournament:
    """Two rounds played through the site: versions, a conflict record, a penalty, a
    confirmation, table links (one revoked), a withdrawal and a late entry, hostile names; the
    tables draw the first dealer (rows 3 and 2 drawn, one table not yet), round 1 is closed."""
    director, scorer = accounts
    tournament = played_tournament(8, rounds=2, last_round=[5, 5], director=director, names=NAMES)
    tournament.place = "’s-Hertogenbosch, Café “De Gouden Bol” — zaal ½ 🂡"  # noqa: RUF001
    tournament.confirmation_rule = Tournament.ConfirmationRule.RETYPE
    tournament.first_dealer_rule = Tournament.FirstDealerRule.DRAWN
    tournament.save()
    tournament.scorers.add(scorer)
    # The file that made the tournament knew no first dealer; these tables drew before deal 1.
    tables = Table.objects.filter(round__tournament=tournament)
    tables.filter(round__number=1, number=1).update(first_dealer_seat=3)
    tables.filter(round__number=2, number=1).update(first_dealer_seat=2)
    done = Table.objects.get(round__tournament=tournament, round__number=1, number=1)
    full = cells_of(done)
    _save(done, {p: v for p, v in full.items() if p[0] < 11}, base=0, user=scorer)
    _save(done, full, base=1, user=scorer, penalties=[(2, 0), (7, 1)])
    sheet_confirm(table=done, version=2, by_user=director)
    playing = Table.objects.get(round__tournament=tournament, round__number=2, number=1)
    _save(playing, cells_of(playing) | {(6, 0): (1, None)}, base=0, user=scorer)
    with pytest.raises(SheetConflict):
        clash = {(6, 0): (0, None), (6, 1): (0, None)}  # the same box typed differently
        _save(playing, cells_of(playing) | clash, base=0, user=director)
    table_link_issue(table=playing, by_user=director)
    table_link_issue(table=playing, by_user=director)
    table_link_ensure(table=done, by_user=director)
    leaving = Player.objects.get(tournament=tournament, name=NAMES[0])
    player_withdraw(player=leaving, from_round=3)
    players_register(tournament=tournament, rows=[PlayerRow(line=1, name="Kees van Â", club="")])
    round_close(round_=Round.objects.get(tournament=tournament, number=1))
    return tournament


def _standings(slug: str) -> str:
    out = io.StringIO()
    call_command("export_standings", slug, "--format", "json", stdout=out)
    return out.getvalue()


def _restore_here(path: Path, slug: str) -> Tournament:
    call_command("import_tournament", str(path), "--slug", slug, stdout=io.StringIO())
    return Tournament.objects.get(slug=slug)


def test_a_backup_crosses_to_the_other_database_and_back_unchanged(built, other_database, tmp_path):
    here = connection.vendor
    original = tournament_export(tournament=built)
    standings = _standings(built.slug)
    versions = SheetVersion.objects.filter(table__round__tournament=built).count()
    assert versions >= 6
    names = {p["name"] for p in original["players"]}
    assert unicodedata.normalize("NFC", NAMES[1]) in names  # stored as NFC
    assert "Kees van Â" in names  # the late entry
    assert original["settings"]["withdrawn"]  # the withdrawal
    site = original["settings"]["x-site"]
    assert site["first_dealer_rule"] == "drawn"
    assert [e.get("first_dealer") for e in site["tables"] if "first_dealer" in e] == [3, 2]
    assert [r["round"] for r in site["rounds"]] == [1]  # the closed round
    backup = tmp_path / "backup.json"
    backup.write_text(json.dumps(original, ensure_ascii=False), encoding="utf-8")

    # here -> there: restored there, exported there, it is the same file and standings.
    restored = other_database.manage("import_tournament", str(backup), "--slug", built.slug)
    assert restored.stdout.strip().splitlines()[-1] == built.slug
    assert "Note:" not in restored.stdout
    there = tmp_path / "there.json"
    other_database.manage("export_tournament", built.slug, "-o", str(there))
    exported_there = json.loads(there.read_text(encoding="utf-8"))
    assert exported_there == original, f"{here} -> {other_database.vendor}"
    standings_there = other_database.manage("export_standings", built.slug, "--format", "json")
    assert json.loads(standings_there.stdout) == json.loads(standings)

    # there -> here: the file the other database wrote restores here, the same again.
    built.delete()
    again = _restore_here(there, built.slug)
    assert tournament_export(tournament=again) == exported_there
    assert json.loads(_standings(built.slug)) == json.loads(standings)
    assert SheetVersion.objects.filter(table__round__tournament=again).count() == versions
    assert again.first_dealer_rule == Tournament.FirstDealerRule.DRAWN
    drawn = Table.objects.filter(round__tournament=again, first_dealer_seat__isnull=False)
    assert sorted(drawn.values_list("round__number", "number", "first_dealer_seat")) == [
        (1, 1, 3),
        (2, 1, 2),
    ]
    assert list(again.rounds.filter(closed_at__isnull=False).values_list("number", flat=True)) == [
        1
    ]

    other_database.manage("shell", "-c", _delete_code(built.slug))


def _delete_code(slug: str) -> str:
    return (
        "from tournament.models import Tournament\n"
        f"Tournament.objects.filter(slug={slug!r}).delete()"
    )


HOSTILE = {
    "round 40000": lambda d: d["rounds"][1].__setitem__("number", 40_000),
    "table 2^40": lambda d: d["rounds"][0]["tables"][0].__setitem__("number", 2**40),
    "a NUL in a name": lambda d: d["players"][0].__setitem__("name", "Nul\x00Man"),
    "a place of 10,000 characters": lambda d: d["settings"].__setitem__("place", "x" * 10_000),
}


@pytest.fixture
def valid_file(director) -> dict:
    tournament = played_tournament(8, rounds=2, director=director)
    document = tournament_export(tournament=tournament, site=False)
    tournament.delete()
    return document


def test_files_postgresql_would_refuse_are_a_list_of_problems_on_both(
    valid_file, other_database, tmp_path
):
    paths = {}
    for number, (case, spoil) in enumerate(HOSTILE.items()):
        document = copy.deepcopy(valid_file)
        spoil(document)
        path = tmp_path / f"hostile-{number}.json"
        path.write_text(json.dumps(document), encoding="utf-8")
        paths[case] = path

        # Here, in this process: refused with its problems, nothing stored.
        with pytest.raises(Refused) as refused:
            tournament_import(document=tournament_file_parse(path.read_bytes()))
        assert refused.value.lines(), case
        assert Tournament.objects.count() == 0, case

    # There, through the command as a director would run it.
    for case, path in paths.items():
        answer = other_database.manage("import_tournament", str(path), check=False)
        assert answer.returncode == 1, (case, answer.stdout, answer.stderr)
        assert "niets geïmporteerd" in answer.stderr, case
        assert "Traceback" not in answer.stderr, (case, answer.stderr)
        assert answer.stderr.count("\n") >= 2, case  # the problem, then the summary
    count = other_database.manage(
        "shell", "-c", "from tournament.models import Tournament; print(Tournament.objects.count())"
    )
    assert count.stdout.strip().splitlines()[-1] == "0"
