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
    # Django's ORM in Playwright's event loop, which the deploy check rightly warns about).
    unset = {"SECRET_KEY", "DEBUG", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env = {k: v for k, v in os.environ.items() if k not in unset}
    env.update(env_overrides, DJANGO_SETTINGS_MODULE="tournament.settings")
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_production_settings_pass_the_deploy_check():
    result = _run(
        ["check", "--deploy", "--fail-level", "WARNING"],
        {
            "DEBUG": "0",
            "SECRET_KEY": "k3J9-production-like-secret-xQ2v8Lm4Rt7Yp1Wz6Nc5Hb0Gf3Ds9Ae2Uo8Ik",
            "HTTPS": "1",
            "ALLOWED_HOSTS": "bollen.example.org",
        },
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_production_refuses_to_start_without_secret_key():
    serve = _python(["-c", "import tournament.wsgi"], {"DEBUG": "0"})
    assert serve.returncode != 0
    assert "SECRET_KEY is not set" in serve.stderr
    deploy = _run(["check", "--deploy"], {"DEBUG": "0"})
    assert deploy.returncode != 0
    assert "SECRET_KEY is not set" in deploy.stderr


def test_commands_that_sign_nothing_run_without_secret_key():
    result = _run(["makemigrations", "--check", "--dry-run"], {"DEBUG": "0"})
    assert result.returncode == 0, result.stderr


def test_development_runs_without_secret_key():
    result = _run(["check"], {"DEBUG": "1"})
    assert result.returncode == 0, result.stderr


@pytest.mark.django_db
def test_an_english_browser_still_gets_dutch_until_english_is_chosen(client):
    response = client.get(reverse("tournament_list"), HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9")
    assert "Toernooien" in response.content.decode()
