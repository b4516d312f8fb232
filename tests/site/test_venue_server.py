"""The venue server started the way ``make run`` starts it (scripts/run.sh: set-up, migrate,
the director account, the demo tournament, then waitress with DEBUG off), on a free port with a
throwaway SQLite database, a key file of its own and no ``.env``; then visited over HTTP."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import threading
from pathlib import Path

import httpx
import pytest

# The server (its database migrated) is started once, by one test process.
pytestmark = pytest.mark.xdist_group("venue_server")

ROOT = Path(__file__).resolve().parent.parent.parent
# A documentation address (RFC 5737): only ever sent as a Host header to 127.0.0.1.
SITE = "198.51.100.20:8000"
LEAKS = ("Traceback", "SECRET_KEY", "DATABASE_URL", "DATABASES", "settings", "sqlite3")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def venue(tmp_path_factory):
    folder = tmp_path_factory.mktemp("venue")
    port = _free_port()
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"SECRET_KEY", "DEBUG", "DJANGO_ALLOW_ASYNC_UNSAFE", "ALLOWED_HOSTS"}
    }
    env.update(
        DJANGO_SETTINGS_MODULE="bollen.settings",
        DATABASE_URL=f"sqlite:///{folder / 'db.sqlite3'}",
        SECRET_KEY_FILE=str(folder / "secret_key"),
        ENV_FILE="",
        SITE_URL=f"http://{SITE}",
        BIND=f"127.0.0.1:{port}",
        PYTHONUNBUFFERED="1",
    )
    server = subprocess.Popen(
        ["scripts/run.sh"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    watchdog = threading.Timer(300, server.kill)  # a server that never comes up fails the test
    watchdog.start()
    lines: list[str] = []
    for line in server.stdout:
        lines.append(line.rstrip("\n"))
        if line.startswith("Ctrl+C"):
            break
    watchdog.cancel()
    output = "\n".join(lines)
    assert server.poll() is None, f"the server stopped:\n{output}"
    try:
        yield {
            "url": f"http://127.0.0.1:{port}",
            "port": port,
            "output": output,
            "folder": folder,
            "env": env,
        }
    finally:
        server.terminate()
        server.wait(timeout=30)


def _page(venue, path: str, host: str = SITE, **kwargs) -> httpx.Response:
    return httpx.get(venue["url"] + path, headers={"Host": host}, timeout=30, **kwargs)


def test_it_prints_the_generated_password_once_and_where_to_go(venue):
    output = venue["output"]
    assert f"Bollen draait, alleen op deze laptop: http://127.0.0.1:{venue['port']}" in output
    assert "Ctrl+C stopt de server." in output
    assert output.count("wachtwoord:") == 1
    assert "bollen-demo-2026" not in output


def test_a_missing_page_is_the_plain_404(venue):
    response = _page(venue, "/geen-pagina/")
    assert response.status_code == 404
    assert "Deze pagina bestaat niet" in response.text
    for leak in LEAKS:
        assert leak not in response.text


def test_the_static_files_are_served_by_the_site(venue):
    home = _page(venue, "/")
    assert home.status_code == 200
    stylesheet = re.search(r'href="(/static/bollen\.[0-9a-f]+\.css)"', home.text).group(1)
    assert _page(venue, stylesheet).status_code == 200


def test_a_foreign_host_is_refused(venue):
    response = _page(venue, "/", host="bollen.evil.example")
    assert response.status_code == 400
    assert "Dit adres kent deze server niet" in response.text
    for leak in LEAKS:
        assert leak not in response.text
    assert _page(venue, "/", host=f"127.0.0.1:{venue['port']}").status_code == 200


def _sign_in(venue, password: str) -> httpx.Response:
    with httpx.Client(base_url=venue["url"], headers={"Host": SITE}, timeout=30) as phone:
        form = phone.get("/login/")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form.text).group(1)
        return phone.post(
            "/login/",
            data={"username": "directeur", "password": password, "csrfmiddlewaretoken": token},
            headers={"Origin": f"http://{SITE}", "Referer": f"http://{SITE}/login/"},
        )


def test_only_the_generated_password_signs_in(venue):
    refused = _sign_in(venue, "bollen-demo-2026")
    assert refused.status_code == 422  # the page again, with its message
    assert "sessionid" not in refused.cookies
    password = re.search(r"^  wachtwoord: +(\S+)$", venue["output"], re.MULTILINE).group(1)
    signed_in = _sign_in(venue, password)
    assert signed_in.status_code == 302, signed_in.text
    assert "sessionid" in signed_in.cookies


def test_the_key_file_is_private_and_every_command_uses_it(venue):
    key_file = Path(venue["env"]["SECRET_KEY_FILE"])
    assert key_file.stat().st_mode & 0o777 == 0o600
    shown = subprocess.run(
        [sys.executable, "manage.py", "shell", "-v", "0", "-c",
         "from django.conf import settings; print(settings.SECRET_KEY)"],
        cwd=ROOT, env=venue["env"], capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    assert shown.stdout.strip() == key_file.read_text().strip()
    again = subprocess.run(
        [sys.executable, "manage.py", "ensure_director"],
        cwd=ROOT, env=venue["env"], capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    assert "bestaat al" in again.stdout
    assert "ensure_director --new-password" in again.stdout


def test_a_lost_database_answers_503_and_the_site_recovers(venue):
    database = venue["folder"] / "db.sqlite3"
    kept = venue["folder"] / "kept"
    kept.mkdir()
    for part in venue["folder"].glob("db.sqlite3*"):
        part.rename(kept / part.name)
    database.mkdir()  # SQLite cannot open a folder: every new connection fails
    try:
        # The start page reads the tournaments; signing in reads the account.
        for response in (_page(venue, "/"), _sign_in(venue, "wachtwoord-van-de-leiding")):
            assert response.status_code == 503
            assert "De database is even niet bereikbaar" in response.text
            assert "niets wat je op een telefoon hebt ingevoerd gaat verloren" in response.text
            for leak in LEAKS:
                assert leak not in response.text
    finally:
        database.rmdir()
        for part in kept.iterdir():
            part.rename(venue["folder"] / part.name)
        shutil.rmtree(kept)
    assert _page(venue, "/").status_code == 200


@pytest.mark.parametrize("command", ["check_database", "serve", "check"])
def test_an_unreachable_database_stops_the_start_with_a_plain_message(tmp_path, command):
    port = _free_port()  # nothing listens there
    arguments = {
        "check_database": [command],
        "serve": [command, "--bind", f"127.0.0.1:{port}"],
        # What the service unit runs before gunicorn.
        "check": [command, "--database", "default"],
    }[command]
    env = {k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "DEBUG"}}
    env.update(
        DJANGO_SETTINGS_MODULE="bollen.settings",
        DATABASE_URL=f"postgres://bollen:geheim-wachtwoord-7@127.0.0.1:{port}/toernooi",
        SECRET_KEY_FILE=str(tmp_path / "key"),
        ENV_FILE="",
    )
    result = subprocess.run(
        [sys.executable, "manage.py", *arguments],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1
    message = result.stderr.strip()
    if command == "check":  # Django's list of errors around the same paragraph
        assert "(tournament.E002)" in message
        message = message.split("(tournament.E002) ", 1)[1].splitlines()[0]
    assert message.startswith("Bollen kan zijn database niet bereiken: PostgreSQL op ")
    assert f'127.0.0.1:{port}, database "toernooi", gebruiker "bollen"' in message
    assert "Controleer DATABASE_URL" in message
    assert "geheim-wachtwoord-7" not in message + result.stdout
    assert "Traceback" not in message
    assert len(message.splitlines()) == 1
