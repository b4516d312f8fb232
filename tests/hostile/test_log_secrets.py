"""The secrets of table links (/s/<token>/) and invitations (/join/<token>/) never reach a
server's log: runserver's access lines, waitress (``manage.py serve``) and gunicorn with the
deployed configuration (deploy/gunicorn.conf.py), each started in a subprocess, visited, and
its log read."""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

# The server (its database migrated) is started once, by one test process.
pytestmark = pytest.mark.xdist_group("log_secrets")

ROOT = Path(__file__).resolve().parents[2]
VENV_BIN = Path(sys.executable).parent


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def server_env(tmp_path_factory) -> dict[str, str]:
    """A migrated throwaway SQLite database and the settings every server here runs with."""
    folder = tmp_path_factory.mktemp("log-secrets")
    env = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "ALLOWED_HOSTS"}}
    env.update(
        DJANGO_SETTINGS_MODULE="bollen.settings_test",
        DATABASE_URL=f"sqlite:///{folder / 'db.sqlite3'}",
        ENV_FILE="",
        PYTHONUNBUFFERED="1",
    )
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
        timeout=300,
    )
    return env


def _visit_and_read_log(command: list[str], env: dict[str, str], port: int) -> tuple[str, str]:
    """Start the server, request a table link and an invitation with fresh tokens, stop it;
    the token of the table link and everything the server wrote."""
    token = secrets.token_urlsafe(32)
    server = subprocess.Popen(
        command,
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                httpx.get(f"{base}/login/", timeout=5)
                break
            except httpx.TransportError:
                if server.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"{command[1]} did not start:\n{server.communicate()[0]}")
                time.sleep(0.2)
        referer = {"Referer": f"{base}/s/{token}/"}
        assert httpx.get(f"{base}/s/{token}/", timeout=10).status_code == 404
        assert httpx.get(f"{base}/join/{token}x/", timeout=10).status_code in (404, 410)
        assert httpx.get(f"{base}/static/bollen.css", headers=referer, timeout=10).status_code
    finally:
        server.terminate()
        output = server.communicate(timeout=30)[0]
    return token, output


def _assert_masked(token: str, output: str, *, access_lines: bool) -> None:
    assert token not in output, output
    assert token[:16] not in output, output
    if access_lines:
        assert "/s/…" in output, output
        assert "/join/…" in output, output


def test_runserver_masks_tokens_in_its_access_lines(server_env):
    port = _free_port()
    env = server_env | {"DEBUG": "1"}
    command = [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"]
    token, output = _visit_and_read_log(command, env, port)
    _assert_masked(token, output, access_lines=True)
    assert '"GET /s/…/ HTTP/1.1" 404' in output, output


def test_waitress_masks_tokens_in_what_it_logs(server_env):
    port = _free_port()
    env = server_env | {"DEBUG": "1"}  # DEBUG: no collectstatic at the start
    command = [sys.executable, "manage.py", "serve", "--bind", f"127.0.0.1:{port}"]
    token, output = _visit_and_read_log(command, env, port)
    _assert_masked(token, output, access_lines=False)
    assert "Not Found: /s/…/" in output, output  # django.request's line for the unknown link


def test_gunicorn_with_the_deployed_config_masks_tokens_in_its_access_log(server_env):
    port = _free_port()
    command = [
        str(VENV_BIN / "gunicorn"),
        "-c",
        "deploy/gunicorn.conf.py",
        "--bind",
        f"127.0.0.1:{port}",
        "--workers",
        "1",
        "bollen.wsgi",
    ]
    token, output = _visit_and_read_log(command, server_env | {"ALLOWED_HOSTS": "127.0.0.1"}, port)
    _assert_masked(token, output, access_lines=True)
    assert '"GET /s/…/ HTTP/1.1" 404' in output, output
    assert f"http://127.0.0.1:{port}/s/…/" in output, output  # the referrer, masked too
