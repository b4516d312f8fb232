"""The hosted site behind nginx over HTTPS, as deploy/nginx-bollen.conf sets it up: nginx (with a
self-signed certificate made here) and gunicorn (deploy/gunicorn.conf.py, the real settings with
HTTPS=1, TRUSTED_PROXIES=127.0.0.1, LOG_FORMAT=json) started on free ports of the loopback
address, their files in a temporary folder.

The visitors connect from other loopback addresses (127.0.0.7, 127.0.0.8: Linux answers the
whole 127.0.0.0/8), so the address nginx sees is not the one gunicorn sees (127.0.0.1): the
sign-in lock-out must count the first. Also here: ``/healthz`` on a real database with the last
migration not applied yet (as an update finds the database), then applied, and with the database
gone; the static files' cache headers with DEBUG off; one request id in nginx's, gunicorn's and
the site's log lines.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import sqlite3
import ssl
import subprocess
import sys
import time
from http.cookies import SimpleCookie
from pathlib import Path

import httpx
import pytest
from django.conf import settings

pytestmark = pytest.mark.xdist_group("https_proxy")

ROOT = Path(__file__).resolve().parents[2]
VENV_BIN = Path(sys.executable).parent
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
PASSWORD = "proxy-test-wachtwoord-7"
FORGED = "203.0.113.9"  # a documentation address (RFC 5737), sent as a forged header

# The database as an update finds it: every migration applied but the site's last one.
SETUP = f"""
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.loader import MigrationLoader

graph = MigrationLoader(connection).graph
apps = {{app for app, _name in graph.leaf_nodes()}}
last = next(leaf for leaf in graph.leaf_nodes() if leaf[0] == "tournament")
before_last = next(node.key for node in graph.node_map[last].parents if node.key[0] == "tournament")
call_command("migrate", *before_last, verbosity=0)
for app in sorted(apps - {{"tournament"}}):
    call_command("migrate", app, verbosity=0)
assert len(MigrationExecutor(connection).migration_plan(graph.leaf_nodes())) == 1
call_command("collectstatic", interactive=False, verbosity=0, ignore_patterns=["admin"])
get_user_model().objects.create_user(username="directeur", password={PASSWORD!r})
"""

# The site's settings, but for the fonts, which whitenoise's collectstatic would compress with
# brotli (2 MB: most of its time, some seconds); nothing here depends on their compressed
# copies. The admin's files are not collected either (its pages are not visited here).
SETTINGS = """
from bollen.settings import *  # noqa: F403
from whitenoise.compress import Compressor

WHITENOISE_SKIP_COMPRESS_EXTENSIONS = [*Compressor.SKIP_COMPRESS_EXTENSIONS, "ttf"]
"""

MAIN_CONF = """
daemon off;
pid {folder}/nginx.pid;
error_log {folder}/error.log;
{user}
events {{ worker_connections 64; }}
http {{
    include /etc/nginx/mime.types;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    include {folder}/bollen.conf;
}}
"""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _replaced(text: str, changes: dict[str, str]) -> str:
    for old, new in changes.items():
        assert old in text, f"deploy/nginx-bollen.conf no longer has {old!r}"
        text = text.replace(old, new)
    return text


def _wait_for(url: str, process: subprocess.Popen, **kwargs) -> None:
    deadline = time.monotonic() + 60
    while True:
        try:
            httpx.get(url, timeout=5, **kwargs)
            return
        except httpx.TransportError:
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"{process.args[0]} did not start")
            time.sleep(0.05)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    folder = tmp_path_factory.mktemp("https-proxy")
    subprocess.run(
        ["openssl", "req", "-x509", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
         "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
         "-addext", "subjectAltName=IP:127.0.0.1",
         "-keyout", str(folder / "key.pem"), "-out", str(folder / "cert.pem")],
        check=True, capture_output=True, timeout=30,
    )  # fmt: skip
    app_port, http_port, https_port = _free_port(), _free_port(), _free_port()
    (folder / "proxy_settings.py").write_text(SETTINGS)
    env = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "DJANGO_ALLOW_ASYNC_UNSAFE"}}
    env.update(
        PYTHONPATH=os.pathsep.join([str(folder), str(ROOT)]),
        DJANGO_SETTINGS_MODULE="proxy_settings",
        SECRET_KEY="proxy-test-secret-key-0123456789-abcdefghijklmnopqrstuvwxyz",
        ENV_FILE="",
        DATABASE_URL=f"sqlite:///{folder / 'db.sqlite3'}",
        STATIC_ROOT=str(folder / "static"),
        BACKUP_DIR=str(folder / "backups"),
        BOLLEN_DATA_DIR=str(folder),
        HTTPS="1",
        TRUSTED_PROXIES="127.0.0.1",
        ALLOWED_HOSTS="127.0.0.1",
        LOG_FORMAT="json",
        PYTHONUNBUFFERED="1",
    )
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "shell", "-c", SETUP], cwd=ROOT, env=env, check=True, timeout=120)

    app_log = (folder / "gunicorn.log").open("w")
    app = subprocess.Popen(
        [str(VENV_BIN / "gunicorn"), "-c", "deploy/gunicorn.conf.py",
         "--bind", f"127.0.0.1:{app_port}", "--workers", "1", "bollen.wsgi"],
        cwd=ROOT, env=env, stdout=app_log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    nginx = None
    try:
        healthz = f"http://127.0.0.1:{app_port}/healthz"
        _wait_for(healthz, app)
        before = httpx.get(healthz)  # the last migration not applied yet
        subprocess.run([*manage, "migrate", "-v", "0"], cwd=ROOT, env=env, check=True, timeout=120)
        after = httpx.get(healthz)

        conf = _replaced(
            (ROOT / "deploy" / "nginx-bollen.conf").read_text(),
            {
                "listen [::]:80;\n": "",
                "listen [::]:443 ssl http2;\n": "",
                "listen 80;": f"listen 127.0.0.1:{http_port};",
                "listen 443 ssl http2;": f"listen 127.0.0.1:{https_port} ssl http2;",
                "/etc/letsencrypt/live/bollen.example.org/fullchain.pem": str(folder / "cert.pem"),
                "/etc/letsencrypt/live/bollen.example.org/privkey.pem": str(folder / "key.pem"),
                "server_name bollen.example.org;": "server_name 127.0.0.1;",
                "/var/log/nginx/": f"{folder}/",
                "http://127.0.0.1:8000;": f"http://127.0.0.1:{app_port};",
            },
        )
        (folder / "bollen.conf").write_text(conf)
        # nginx started by root hands its workers to "nobody", who may not enter the folder.
        user = "user root;" if os.geteuid() == 0 else ""
        (folder / "nginx.conf").write_text(MAIN_CONF.format(folder=folder, user=user))
        nginx = subprocess.Popen(
            [NGINX, "-p", str(folder), "-c", str(folder / "nginx.conf"),
             "-e", str(folder / "error.log")],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        )  # fmt: skip
        _wait_for(f"http://127.0.0.1:{http_port}/", nginx)
        yield {
            "folder": folder,
            "https": f"https://127.0.0.1:{https_port}",
            "http": f"http://127.0.0.1:{http_port}",
            "app": f"http://127.0.0.1:{app_port}",
            "healthz": (before, after),
            "tls": ssl.create_default_context(cafile=str(folder / "cert.pem")),
        }
    finally:
        if nginx is not None:
            nginx.terminate()
            nginx.wait(timeout=30)
        app.terminate()
        app.wait(timeout=30)
        app_log.close()


def _visitor(site, address: str, base: str = "https") -> httpx.Client:
    """A phone on the internet, connecting to nginx from ``address``."""
    transport = httpx.HTTPTransport(local_address=address, verify=site["tls"])
    return httpx.Client(base_url=site[base], transport=transport, timeout=30)


def _sign_in(client: httpx.Client, password: str, **headers: str) -> httpx.Response:
    form = client.get("/login/")
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form.text).group(1)
    return client.post(
        "/login/",
        data={"username": "directeur", "password": password, "csrfmiddlewaretoken": token},
        headers={"Referer": str(client.base_url.join("/login/")), **headers},
    )


def _lines_with(path: Path, text: str, count: int) -> list[str]:
    """The lines of a log with ``text``, once there are ``count`` (a server writes its access
    line after the answer is sent)."""
    deadline = time.monotonic() + 30
    while True:
        found = [line for line in path.read_text().splitlines() if text in line]
        if len(found) >= count or time.monotonic() > deadline:
            return found
        time.sleep(0.05)


def _cookie(response: httpx.Response, name: str):
    for header in response.headers.get_list("set-cookie"):
        cookie = SimpleCookie(header)
        if name in cookie:
            return cookie[name]
    raise AssertionError(f"no {name} cookie in {response.headers}")


def test_healthz_answers_503_until_the_last_migration_is_applied_and_without_a_database(site):
    before, after = site["healthz"]
    assert (before.status_code, before.json()) == (503, {"database": "ok", "migrations": "pending"})
    assert (after.status_code, after.json()) == (200, {"database": "ok", "migrations": "ok"})
    database = site["folder"] / "db.sqlite3"
    kept = site["folder"] / "kept"
    kept.mkdir()
    for part in site["folder"].glob("db.sqlite3*"):
        part.rename(kept / part.name)
    database.mkdir()  # SQLite cannot open a folder: every new connection fails
    try:
        gone = httpx.get(f"{site['app']}/healthz")
    finally:
        database.rmdir()
        for part in kept.iterdir():
            part.rename(site["folder"] / part.name)
        kept.rmdir()
    assert (gone.status_code, gone.json()) == (
        503,
        {"database": "unreachable", "migrations": "unknown"},
    )
    with _visitor(site, "127.0.0.7") as phone:  # through the proxy too
        assert phone.get("/healthz").json() == {"database": "ok", "migrations": "ok"}


def test_http_is_sent_to_https(site):
    with _visitor(site, "127.0.0.7", base="http") as phone:
        response = phone.get("/login/?next=/t/")
    assert response.status_code == 301
    assert response.headers["Location"] == "https://127.0.0.1/login/?next=/t/"


def test_signing_in_through_the_proxy_sets_secure_cookies_under_hsts(site):
    with _visitor(site, "127.0.0.8") as phone:
        page = phone.get("/login/")
        assert page.status_code == 200
        assert page.headers["Strict-Transport-Security"].startswith("max-age=31536000")
        assert _cookie(page, "csrftoken")["secure"]
        signed_in = _sign_in(phone, PASSWORD)
    assert signed_in.status_code == 302, signed_in.text
    session = _cookie(signed_in, "sessionid")
    assert session["secure"] and session["httponly"]


def test_the_lock_out_counts_the_address_nginx_saw_and_no_forged_one(site):
    forged = {"X-Real-IP": FORGED, "X-Forwarded-For": FORGED}
    with _visitor(site, "127.0.0.7") as phone:
        answers = [_sign_in(phone, "fout-wachtwoord", **forged).status_code for _ in range(5)]
        assert answers[:4] == [422] * 4
        assert answers[4] == 429
        assert _sign_in(phone, PASSWORD).status_code == 429  # locked out, the right one too
    # The same account from another visitor still signs in: the lock-out is per address.
    with _visitor(site, "127.0.0.8") as other:
        assert _sign_in(other, PASSWORD).status_code == 302
    # Straight to gunicorn (not through the proxy) the header is not believed either.
    # (It claims https as nginx would; its secure CSRF cookie it sends back by hand.)
    transport = httpx.HTTPTransport(local_address="127.0.0.9")
    with httpx.Client(base_url=site["app"], transport=transport, timeout=30) as laptop:
        laptop.headers["X-Forwarded-Proto"] = "https"
        form = laptop.get("/login/")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form.text).group(1)
        refused = laptop.post(
            "/login/",
            data={"username": "directeur", "password": "fout", "csrfmiddlewaretoken": token},
            headers={
                "Cookie": f"csrftoken={_cookie(form, 'csrftoken').value}",
                "Referer": f"https://{laptop.base_url.netloc.decode()}/login/",
                **forged,
            },
        )
        assert refused.status_code == 422
    with sqlite3.connect(site["folder"] / "db.sqlite3") as database:
        addresses = {
            row[0] for row in database.execute("SELECT ip_address FROM axes_accessattempt")
        }
    assert addresses == {"127.0.0.7", "127.0.0.9"}


def test_hashed_static_files_are_cached_for_a_year_and_the_others_not(site):
    with _visitor(site, "127.0.0.7") as phone:
        page = phone.get("/login/")
        hashed = re.search(r'href="(/static/bollen\.[0-9a-f]{12}\.css)"', page.text).group(1)
        assert 'href="/static/bollen.css"' not in page.text
        long = phone.get(hashed)
        short = phone.get("/static/bollen.css")
    assert long.status_code == short.status_code == 200
    assert long.text == short.text
    assert long.headers["Cache-Control"] == "max-age=315360000, public, immutable"
    assert "immutable" not in short.headers["Cache-Control"]
    assert re.fullmatch(r"max-age=\d{1,3}, public", short.headers["Cache-Control"])


def test_a_body_over_request_max_bytes_is_refused_by_nginx_in_dutch(site):
    conf = (ROOT / "deploy" / "nginx-bollen.conf").read_text()
    mebibytes = int(re.search(r"client_max_body_size (\d+)m;", conf).group(1))
    assert mebibytes * 1024 * 1024 == settings.REQUEST_MAX_BYTES
    with _visitor(site, "127.0.0.7") as phone:
        response = phone.post("/t/import/", content=b"x" * (settings.REQUEST_MAX_BYTES + 1))
    assert response.status_code == 413
    assert response.text == "Het verzoek is te groot (hoogstens 6 MB).\n"


def test_one_request_id_in_the_logs_of_nginx_gunicorn_and_the_site(site):
    token = "FBiwVNhrHzOjSRp-dS0D3JO5yWLtySXpif29Qr7A6Nw"
    with _visitor(site, "127.0.0.7") as phone:
        response = phone.get(
            f"/s/{token}/",
            headers={
                "X-Request-ID": "chosen-by-the-visitor",
                "Referer": f"{site['https']}/s/{token}/",
            },
        )
    assert response.status_code == 404
    request_id = response.headers["X-Request-ID"]
    assert re.fullmatch(r"[0-9a-f]{32}", request_id)  # nginx's, not the visitor's

    [proxy_line] = _lines_with(site["folder"] / "bollen.access.log", request_id, 1)
    assert proxy_line.startswith("127.0.0.7 ")
    assert proxy_line.endswith(f" {request_id}")
    assert '"GET /s/.../ HTTP/1.1" 404' in proxy_line
    assert f'"{site["https"]}/s/.../"' in proxy_line  # the referrer

    log = site["folder"] / "gunicorn.log"
    ours = [json.loads(line) for line in _lines_with(log, request_id, 2)]
    assert all(json.loads(line) for line in log.read_text().splitlines())  # every line
    assert [line["logger"] for line in ours] == ["django.request", "gunicorn.access"]
    assert [line["message"] for line in ours] == ["Not Found: /s/…/", "GET /s/…/ HTTP/1.0"]
    assert ours[1]["remote_addr"] == "127.0.0.7"  # the site's visitor, in gunicorn's line too
    assert token not in log.read_text()
    assert token not in (site["folder"] / "bollen.access.log").read_text()

    # A password-reset link's token (a used or wrong one answers 410) in neither log either.
    reset = "/account/reset/MTI/cjy7q4-1d6a2f0b9c8e7d6a5b4c3d2e1f0a9b8c/"
    with _visitor(site, "127.0.0.7") as phone:
        request_id = phone.get(reset).headers["X-Request-ID"]
    [proxy_line] = _lines_with(site["folder"] / "bollen.access.log", request_id, 1)
    assert '"GET /account/reset/MTI/.../ HTTP/1.1" 410' in proxy_line
    assert "1d6a2f0b9c8e" not in log.read_text()
