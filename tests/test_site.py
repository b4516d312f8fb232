"""The site skeleton: it starts, speaks Dutch by default and English on request."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.urls import reverse

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.django_db
def test_home_page_speaks_dutch_by_default(client):
    response = client.get(reverse("tournament_list"))
    assert response.status_code == 200
    assert "Toernooien" in response.content.decode()


@pytest.mark.django_db
def test_english_is_selectable(client):
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    response = client.get(reverse("tournament_list"))
    assert "Tournaments" in response.content.decode()
    assert "Toernooien" not in response.content.decode()


def _run(args: list[str], env_overrides: dict[str, str]) -> subprocess.CompletedProcess:
    return _python(["manage.py", *args], env_overrides)


def _python(args: list[str], env_overrides: dict[str, str]) -> subprocess.CompletedProcess:
    # A production-like environment: nothing the test run itself set (the browser tests allow
    # Django's ORM in Playwright's event loop, which the deploy check rightly warns about), no
    # .env of the checkout, and a secret key file of the test's own unless it names one.
    unset = {"SECRET_KEY", "DEBUG", "DJANGO_ALLOW_ASYNC_UNSAFE", "SECRET_KEY_FILE"}
    env = {k: v for k, v in os.environ.items() if k not in unset}
    env.update({"ENV_FILE": "", "DJANGO_SETTINGS_MODULE": "bollen.settings"})
    env.update(env_overrides)
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_production_settings_pass_the_deploy_check(tmp_path):
    result = _run(
        ["check", "--deploy", "--fail-level", "WARNING"],
        {
            "DEBUG": "0",
            "SECRET_KEY": "k3J9-production-like-secret-xQ2v8Lm4Rt7Yp1Wz6Nc5Hb0Gf3Ds9Ae2Uo8Ik",
            "SECRET_KEY_FILE": str(tmp_path / "unused"),
            "HTTPS": "1",
            "ALLOWED_HOSTS": "bollen.example.org",
        },
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout
    assert not (tmp_path / "unused").exists(), "a key from the environment needs no file"


def test_without_a_key_the_site_keeps_one_in_a_file_only_its_owner_reads(tmp_path):
    key_file = tmp_path / "secret"
    show_key = ["-c", "from django.conf import settings; print(settings.SECRET_KEY)"]
    first = _run(["shell", "-v", "0", *show_key], {"DEBUG": "0", "SECRET_KEY_FILE": str(key_file)})
    assert first.returncode == 0, first.stderr
    assert key_file.stat().st_mode & 0o777 == 0o600
    key = key_file.read_text().strip()
    assert len(key) >= 50
    assert first.stdout.strip() == key
    again = _run(["shell", "-v", "0", *show_key], {"DEBUG": "0", "SECRET_KEY_FILE": str(key_file)})
    assert again.stdout.strip() == key, "every command uses the same key"
    serve = _python(["-c", "import bollen.wsgi"], {"SECRET_KEY_FILE": str(key_file)})
    assert serve.returncode == 0, serve.stderr


def test_the_key_in_env_file_wins_over_the_key_file_and_the_environment_over_both(tmp_path):
    env_file = tmp_path / "bollen.env"
    env_file.write_text(
        "SECRET_KEY=from-the-env-file-0123456789\nSITE_URL=http://198.51.100.7:8000\n"
    )
    show = ["-c", "from django.conf import settings; print(settings.SECRET_KEY, settings.SITE_URL)"]
    base = {"ENV_FILE": str(env_file), "SECRET_KEY_FILE": str(tmp_path / "key")}
    from_file = _run(["shell", "-v", "0", *show], base)
    assert from_file.stdout.split() == ["from-the-env-file-0123456789", "http://198.51.100.7:8000"]
    assert not (tmp_path / "key").exists()
    environment = _run(
        ["shell", "-v", "0", *show], {**base, "SITE_URL": "http://198.51.100.8:8000"}
    )
    assert environment.stdout.split()[1] == "http://198.51.100.8:8000"


def test_production_refuses_to_start_when_the_key_file_cannot_be_written(tmp_path):
    key_file = tmp_path / "no-such-folder" / "secret"
    serve = _python(["-c", "import bollen.wsgi"], {"SECRET_KEY_FILE": str(key_file)})
    assert serve.returncode != 0
    assert "SECRET_KEY is not set" in serve.stderr
    assert "Cannot write the secret key file" in serve.stderr
    deploy = _run(["check", "--deploy"], {"SECRET_KEY_FILE": str(key_file)})
    assert deploy.returncode != 0
    assert "Cannot write the secret key file" in deploy.stderr


def test_commands_that_sign_nothing_run_when_the_key_file_cannot_be_written(tmp_path):
    key_file = tmp_path / "no-such-folder" / "secret"
    result = _run(["makemigrations", "--check", "--dry-run"], {"SECRET_KEY_FILE": str(key_file)})
    assert result.returncode == 0, result.stderr


def test_development_runs_when_the_key_file_cannot_be_written(tmp_path):
    key_file = tmp_path / "no-such-folder" / "secret"
    result = _run(["check"], {"DEBUG": "1", "SECRET_KEY_FILE": str(key_file)})
    assert result.returncode == 0, result.stderr


@pytest.mark.django_db
def test_an_english_browser_still_gets_dutch_until_english_is_chosen(client):
    response = client.get(reverse("tournament_list"), HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9")
    assert "Toernooien" in response.content.decode()


def test_a_data_folder_holds_the_key_the_database_backups_static_files_and_bollen_env(tmp_path):
    data = tmp_path / "srv" / "bollen"  # made on first use, with its parent
    # Nothing but BOLLEN_DATA_DIR says where things go (no ENV_FILE, SECRET_KEY_FILE, ...).
    settings_names = {"ENV_FILE", "SECRET_KEY_FILE", "DATABASE_URL", "BACKUP_DIR", "STATIC_ROOT"}
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in settings_names | {"SECRET_KEY", "DEBUG", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    }
    env.update(DJANGO_SETTINGS_MODULE="bollen.settings", BOLLEN_DATA_DIR=str(data))
    show = (
        "from django.conf import settings as s; print(s.DATABASES['default']['NAME'], "
        "s.SECRET_KEY_FILE, s.BACKUP_DIR, s.STATIC_ROOT, s.ENV_FILE, s.SITE_URL or '-')"
    )

    def found() -> list[str]:
        done = subprocess.run(
            [sys.executable, "manage.py", "shell", "-v", "0", "-c", show],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout.split()

    paths = [data / name for name in ("db.sqlite3", ".secret_key", "backups", "staticfiles")]
    assert found() == [*map(str, paths), str(data / "bollen.env"), "-"]
    assert data.stat().st_mode & 0o777 == 0o700
    assert (data / ".secret_key").stat().st_mode & 0o777 == 0o600
    (data / "bollen.env").write_text("SITE_URL=http://198.51.100.9:8000\n")
    assert found()[-1] == "http://198.51.100.9:8000"


def test_a_data_folder_that_cannot_be_made_and_postgresql_without_its_driver_say_so(tmp_path):
    blocked = tmp_path / "file"
    blocked.write_text("")
    result = _run(["check"], {"BOLLEN_DATA_DIR": str(blocked / "bollen")})
    assert result.returncode == 1
    assert "De gegevensmap" in result.stderr and "Cannot create the data folder" in result.stderr
    assert "Traceback" not in result.stderr and "Unknown command" not in result.stderr

    no_driver = _python(
        [
            "-c",
            "import sys; sys.modules['psycopg'] = sys.modules['psycopg2'] = None; "
            "from bollen.cli import main; sys.exit(main(['manage', 'check']))",
        ],
        {
            "DATABASE_URL": "postgres://bollen@localhost/bollen",
            "SECRET_KEY_FILE": str(tmp_path / "k"),
        },
    )
    assert no_driver.returncode == 1
    assert "pip install 'bollen-toernooi[postgres]'" in no_driver.stderr
    assert "Traceback" not in no_driver.stderr


def test_mail_settings_that_cannot_work_are_named_before_the_site_starts(tmp_path):
    base = {"SECRET_KEY_FILE": str(tmp_path / "key"), "EMAIL_HOST": "smtp.club.example"}
    both = _run(["check"], {**base, "EMAIL_USE_TLS": "1", "EMAIL_USE_SSL": "1"})
    assert both.returncode != 0
    assert "EMAIL_USE_TLS and EMAIL_USE_SSL are both on" in both.stderr
    # SSL chosen on port 587 switches the port's default STARTTLS off instead of clashing.
    assert _run(["check"], {**base, "EMAIL_USE_SSL": "1"}).returncode == 0
    deploy = _run(["check", "--deploy"], base)
    assert "tournament.W001" in deploy.stderr and "SITE_URL" in deploy.stderr
    with_site = _run(["check", "--deploy"], {**base, "SITE_URL": "https://bollen.example.org"})
    assert "tournament.W001" not in with_site.stderr
