"""The built wheel is the whole site, installed as a server is: into a fresh virtualenv from the
lock file (every file checked against its hash), away from the checkout, with its data folder
(``BOLLEN_DATA_DIR``) made by the site itself. ``bollen manage`` migrates and loads the demo,
``bollen serve`` answers pages, a table link's sheet save and a PDF, the settings file of the
data folder counts, and nothing is written into site-packages."""

import contextlib
import importlib.util
import io
import os
import re
import signal
import socket
import stat
import subprocess
import sys
import time
import urllib.error
import urllib.request
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# The wheel is built and installed once, by one test process.
pytestmark = [pytest.mark.package, pytest.mark.xdist_group("wheel")]

# The stdlib HTTP client of scripts/large-event-check.sh: sign in, make a table link, save a
# deal through it as a phone does.
_spec = importlib.util.spec_from_file_location(
    "large_event_client", ROOT / "scripts" / "large_event_client.py"
)
assert _spec is not None and _spec.loader is not None
client = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(client)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "-q", "-w", str(out)],
        check=True,
        cwd=out,
    )
    (built,) = out.glob("bollen_toernooi-*.whl")
    return built


def test_the_wheel_carries_templates_static_files_translations_seeds_and_the_command(wheel):
    archive = zipfile.ZipFile(wheel)
    names = set(archive.namelist())
    for needed in [
        "tournament/templates/base.html",
        "tournament/templates/printing/score_sheets.html",
        "tournament/static/print.css",
        "tournament/static/sheet.js",
        "tournament/static/fonts/DejaVuSans.ttf",
        "tournament/static/fonts/LICENSE-DejaVu.txt",
        "tournament/locale/nl/LC_MESSAGES/django.mo",
        "tournament/formats/tournament-v1.schema.json",
        "tournament/seeds/demo-tournament.json",
        "bollen/cli.py",
        "bollen/settings.py",
    ]:
        assert needed in names, needed
    # Nothing of a checkout's own: no settings file, key, database or other top-level module.
    top = {name.split("/")[0] for name in names}
    assert {name for name in top if not name.endswith(".dist-info")} == {
        "bollen",
        "scoring",
        "tournament",
    }
    (entry_points,) = [name for name in names if name.endswith(".dist-info/entry_points.txt")]
    assert "bollen = bollen.cli:main" in archive.read(entry_points).decode()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _files(folder: Path) -> dict[str, tuple[int, int]]:
    return {
        str(path.relative_to(folder)): (path.stat().st_mtime_ns, path.stat().st_size)
        for path in folder.rglob("*")
        if path.is_file()
    }


def _wait_for(url: str, server: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + 180  # the first start compresses the static files
    while time.monotonic() < deadline:
        assert server.poll() is None, log.read_text()
        try:
            with urllib.request.urlopen(url, timeout=5):  # noqa: S310
                return
        except OSError:
            time.sleep(0.2)
    pytest.fail(f"{url} did not answer: {log.read_text()}")


def test_the_installed_site_migrates_loads_the_demo_and_serves_a_sheet_save_and_a_pdf(
    wheel, tmp_path
):
    env_dir = tmp_path / "venv"
    venv.create(env_dir)  # without pip: this one installs into it (seconds saved)
    python = env_dir / "bin" / "python"
    bollen = env_dir / "bin" / "bollen"
    pip = [sys.executable, "-m", "pip", "--python", str(python), "install", "-q"]
    pip_env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    # As the README tells a server: the lock with its hashes, then the wheel without more.
    lock = ROOT / "requirements" / "site.txt"
    subprocess.run([*pip, "--require-hashes", "-r", str(lock)], check=True, env=pip_env)
    subprocess.run([*pip, "--no-deps", str(wheel)], check=True, cwd=tmp_path, env=pip_env)
    (site_packages,) = env_dir.glob("lib/python3*/site-packages")
    installed = _files(site_packages)

    # Nothing of this test run or of the checkout: a server's bare environment.
    home = tmp_path / "home"
    home.mkdir()
    data = tmp_path / "srv" / "bollen"  # made by the site, with its parent
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    environment = {
        "PATH": f"{env_dir / 'bin'}:/usr/bin:/bin",
        "HOME": str(home),
        "LANG": "C.UTF-8",
        "BOLLEN_DATA_DIR": str(data),
    }
    run_dir = tmp_path / "elsewhere"
    run_dir.mkdir()

    def command(*args: str) -> str:
        done = subprocess.run(
            [str(bollen), *args], cwd=run_dir, env=environment, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stdout + done.stderr
        return done.stdout

    where = subprocess.run(
        [str(python), "-c", "import bollen, tournament; print(tournament.__file__)"],
        cwd=run_dir,
        env=environment,
        capture_output=True,
        text=True,
        check=True,
    )
    assert where.stdout.startswith(str(site_packages))
    assert "serve" in command("--help") and "manage" in command("--help")

    command("manage", "migrate", "-v", "0")
    assert stat.S_IMODE(data.stat().st_mode) == 0o700
    director = command("manage", "ensure_director")
    (password,) = re.findall(r"(?im)^\s*(?:password|wachtwoord):\s*(\S{8,})\s*$", director)
    assert "demotoernooi" in command("manage", "seed_demo")
    # The data folder's settings file: the site answers to these names only.
    (data / "bollen.env").write_text(f"ALLOWED_HOSTS=127.0.0.1\nSITE_URL={base}\n")

    log = tmp_path / "serve.log"
    with log.open("w") as output:
        server = subprocess.Popen(
            [str(bollen), "serve"],
            cwd=run_dir,
            env={**environment, "BIND": f"127.0.0.1:{port}"},
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        _wait_for(f"{base}/login/", server, log)
        jar = str(tmp_path / "cookies.txt")
        client.login(base, jar, "directeur", password)
        open_, _jar = client.opener(jar)
        status, _url, listing = client.fetch(open_, f"{base}/")
        assert status == 200 and "Toernooien" in listing  # Dutch: the compiled catalogue
        (slug,) = set(re.findall(r'href="/t/(bollentoernooi[\w-]*)/"', listing))
        (stylesheet,) = set(re.findall(r'href="(/static/bollen\.[0-9a-f]{12}\.css)"', listing))
        with urllib.request.urlopen(base + stylesheet) as css:  # noqa: S310
            assert css.status == 200

        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            client.new_link(base, jar, slug, "4", "5")  # prints the token
        client.save_deal(base, printed.getvalue().split()[-1])  # fails unless version 1
        request = urllib.request.Request(f"{base}/t/{slug}/print/standings/")  # noqa: S310
        with open_.open(request) as pdf:
            assert pdf.headers["Content-Type"] == "application/pdf"
            assert pdf.read(5) == b"%PDF-"

        other_host = urllib.request.Request(  # noqa: S310
            f"{base}/login/", headers={"Host": "localhost"}
        )
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(other_host)  # noqa: S310
        assert refused.value.code == 400  # bollen.env's ALLOWED_HOSTS
    finally:
        os.killpg(server.pid, signal.SIGINT)
        server.wait(timeout=30)

    assert "Ctrl+C" in log.read_text()
    assert {".secret_key", "db.sqlite3", "staticfiles", "bollen.env"} <= {
        path.name for path in data.iterdir()
    }
    assert _files(site_packages) == installed, "the site wrote into site-packages"
