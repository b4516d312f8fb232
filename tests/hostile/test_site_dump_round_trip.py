"""The whole hosted site backed up as an operator does it and restored on a fresh database: the
same pages, and the same sign-ins.

A throwaway PostgreSQL cluster (scripts/postgres.sh) with the ``bollen`` database user, a site
of two clubs on it (``site_dump_pages.py seed``); ``scripts/site-backup.sh`` dumps it
(``pg_dump -Fc``) with the data folder's settings file, secret key and backups; a fresh
database owned by ``bollen`` gets it back with ``pg_restore`` as the README says. Every page of
both clubs (public and signed in) is then the same byte for byte but for the CSRF tokens, the
passwords sign in, and a sign-in made before the dump still holds.
"""

from __future__ import annotations

import difflib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
POSTGRES = ROOT / "scripts" / "postgres.sh"
PAGES = Path(__file__).with_name("site_dump_pages.py")

pytestmark = pytest.mark.xdist_group("site_dump")


def _pg_bin(name: str) -> str:
    """The PostgreSQL program of the server's own version (as scripts/postgres.sh finds it)."""
    found = sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"), reverse=True)
    program = str(found[0]) if found else shutil.which(name)
    assert program, f"{name} is missing: apt-get install postgresql"
    return program


def _run(*args: str, env: dict[str, str] | None = None) -> str:
    result = subprocess.run(
        list(args), capture_output=True, text=True, env=env, timeout=300, check=False
    )
    assert result.returncode == 0, f"{' '.join(args[:3])}:\n{result.stdout}\n{result.stderr}"
    return result.stdout


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """The cluster's address for its superuser (``postgres://postgres@127.0.0.1:PORT``)."""
    if subprocess.run([str(POSTGRES), "available", "-"], check=False).returncode:
        pytest.fail(
            "The site dump test needs PostgreSQL's server programs: apt-get install postgresql"
        )
    directory = tempfile.mkdtemp(prefix="bollen-site-dump.")
    try:
        url = _run(str(POSTGRES), "start", directory).strip()
        yield url.rsplit("/", 1)[0]
    finally:
        subprocess.run([str(POSTGRES), "stop", directory], check=False)
        shutil.rmtree(directory, ignore_errors=True)


def _site(database_url: str, data_dir: Path) -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": database_url,
        "DJANGO_SETTINGS_MODULE": "bollen.settings_test",
        "BOLLEN_DATA_DIR": str(data_dir),
        "ENV_FILE": str(data_dir / "bollen.env"),
        "PYTHONPATH": str(ROOT),
    }


def test_the_whole_site_restores_from_pg_dump_with_the_same_pages(cluster, tmp_path):
    server = cluster.removeprefix("postgres://postgres@")
    psql = _pg_bin("psql")
    admin_url = f"{cluster}/postgres"
    _run(psql, admin_url, "-c", "CREATE ROLE bollen LOGIN")
    _run(psql, admin_url, "-c", "CREATE DATABASE bollen OWNER bollen")
    site_url = f"postgres://bollen@{server}/bollen"

    data_dir = tmp_path / "data"
    (data_dir / "backups").mkdir(parents=True)
    (data_dir / "bollen.env").write_text(f"DATABASE_URL={site_url}\n", encoding="utf-8")
    (data_dir / "backups" / "avond-1.json").write_text("{}", encoding="utf-8")
    env = _site(site_url, data_dir)
    _run(sys.executable, str(ROOT / "manage.py"), "migrate", "--no-input", "-v", "0", env=env)
    _run(sys.executable, str(PAGES), "seed", env=env)
    before = json.loads(_run(sys.executable, str(PAGES), "pages", env=env))
    session = before.pop("session")

    # The operator's backup: the script, with pg_dump of this server's version first on PATH.
    dumped = {**env, "PATH": f"{Path(_pg_bin('pg_dump')).parent}:{env['PATH']}"}
    dumped.pop("DATABASE_URL")  # read from the data folder's settings file, as on a server
    target = Path(
        _run(str(ROOT / "scripts" / "site-backup.sh"), str(tmp_path / "out"), env=dumped).strip()
    )
    assert (target / "bollen.dump").stat().st_size > 10_000
    assert (target / "data" / "bollen.env").read_text(encoding="utf-8").startswith("DATABASE_URL=")
    assert (target / "data" / "backups" / "avond-1.json").exists()
    checked = subprocess.run(
        ["sha256sum", "--check", "--quiet", "SHA256SUMS"], cwd=target, check=False
    )
    assert checked.returncode == 0

    # A fresh database, owned by the site's user, and pg_restore as the README says.
    _run(psql, admin_url, "-c", "CREATE DATABASE bollen_restored OWNER bollen")
    restored_url = f"postgres://bollen@{server}/bollen_restored"
    _run(
        _pg_bin("pg_restore"),
        "--no-owner",
        "--no-privileges",
        "--exit-on-error",
        f"--dbname={restored_url}",
        str(target / "bollen.dump"),
    )
    env = _site(restored_url, data_dir)
    _run(sys.executable, str(ROOT / "manage.py"), "migrate", "--check", "-v", "0", env=env)
    after = json.loads(_run(sys.executable, str(PAGES), "pages", session, env=env))
    assert after.pop("kept session").startswith("200\n")

    assert len(before) >= 20
    assert before.keys() == after.keys()
    differing = [url for url in before if before[url] != after[url]]
    if differing:
        first = differing[0]
        diff = difflib.unified_diff(
            before[first].splitlines(), after[first].splitlines(), lineterm=""
        )
        pytest.fail(f"{differing}\n" + "\n".join(list(diff)[:40]))
    # On PostgreSQL outside the tests' transaction, as an operator runs them: one club's
    # backup (read as one moment) restored into a new club of the restored site.
    manage = (sys.executable, str(ROOT / "manage.py"))
    club_zip = tmp_path / "klaverbol.zip"
    _run(*manage, "backup_club", "klaverbol", "-o", str(club_zip), env=env)
    restored = _run(
        *manage,
        "restore_club",
        str(club_zip),
        "--club",
        "klaverbol-kopie",
        "--admin",
        "kopie",
        env=env,
    )
    assert "(toernooien: 3, competities: 1, leden: 9)" in restored, restored
    assert "gebruikersnaam: kopie" in restored, restored  # its first club admin, made here
    assert restored.strip().splitlines()[-1] == "klaverbol-kopie"
    assert all(page.startswith("200\n") for page in before.values()), [
        url for url, page in before.items() if not page.startswith("200\n")
    ]
