"""The built wheel is a complete site: installed into a fresh virtualenv, run from a folder away
from the checkout, it migrates, imports a tournament file, renders pages and prints a PDF with
its own templates, static files, translations and schema."""

import json
import os
import subprocess
import sys
import textwrap
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# The wheel is built and installed once, by one test process.
pytestmark = [pytest.mark.package, pytest.mark.xdist_group("wheel")]

SCRIPT = textwrap.dedent(
    """
    import json, os, sys
    from pathlib import Path

    import django
    django.setup()
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client

    import tournament
    call_command("migrate", verbosity=0)
    call_command("import_tournament", sys.argv[1], verbosity=0)
    from tournament.models import Tournament
    event = Tournament.objects.get()
    event.public = True
    event.save(update_fields=["public"])
    director = get_user_model().objects.create_superuser("wheel", password=None)
    event.directors.add(director)
    client = Client(HTTP_HOST="localhost")
    public = client.get(f"/p/{event.slug}/standings/")
    client.force_login(director)
    listing = client.get("/")
    pdf = client.get(f"/t/{event.slug}/print/standings/")
    css = client.get("/static/print.css")
    print(json.dumps({
        "package": tournament.__file__,
        "public": [public.status_code, public.content.decode()],
        "listing": [listing.status_code, listing.content.decode()],
        "pdf": [pdf.status_code, pdf["Content-Type"], pdf.content[:5].decode("latin-1")],
        "css": css.status_code,
    }))
    """
)


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


def test_the_wheel_carries_templates_static_files_translations_and_the_schema(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for needed in [
        "tournament/templates/base.html",
        "tournament/templates/printing/score_sheets.html",
        "tournament/static/print.css",
        "tournament/static/sheet.js",
        "tournament/static/fonts/DejaVuSans.ttf",
        "tournament/static/fonts/LICENSE-DejaVu.txt",
        "tournament/locale/nl/LC_MESSAGES/django.mo",
        "tournament/formats/tournament-v1.schema.json",
    ]:
        assert needed in names, needed


def test_the_installed_wheel_imports_a_tournament_and_renders_pages(wheel, tmp_path):
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", str(wheel)],
        check=True,
        cwd=tmp_path,
    )
    run_dir = tmp_path / "elsewhere"
    run_dir.mkdir()
    (run_dir / "check.py").write_text(SCRIPT)
    environment = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("PYTHON", "DJANGO", "DATABASE"))
    }
    environment.update(
        DJANGO_SETTINGS_MODULE="bollen.settings",
        DEBUG="1",
        DATABASE_URL=f"sqlite:///{tmp_path / 'site.sqlite3'}",
        BACKUP_DIR=str(tmp_path / "backups"),
    )
    done = subprocess.run(
        [str(python), "check.py", str(ROOT / "seeds" / "demo-tournament.json")],
        check=True,
        cwd=run_dir,
        env=environment,
        capture_output=True,
        text=True,
    )
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["package"].startswith(str(env_dir))
    status, page = found["public"]
    assert status == 200 and "Klassement" in page  # Dutch: the compiled catalogue is there
    status, page = found["listing"]
    assert status == 200 and "<html" in page
    assert found["pdf"] == [200, "application/pdf", "%PDF-"]
    assert found["css"] == 200
