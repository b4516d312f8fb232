"""The pieces of the venue server: the hosts the site answers to, CSRF over plain http by
address, the director account with a generated password, the secret key file, and what
``manage.py serve`` prints."""

from __future__ import annotations

import io
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.management import CommandError, call_command
from django.test import Client, override_settings
from django.urls import reverse

from bollen.env import SecretKeyFileError, secret_key_from_file
from tournament.management.commands import serve
from tournament.models import Club, Tournament
from tournament.venue import network

EVERYWHERE = "0.0.0.0"  # noqa: S104 - what BIND means by every interface
PASSWORD_LINE = re.compile(r"^  wachtwoord: +(\S+)$", re.MULTILINE)


def _command(*args) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


# ---- hosts ----


# The hosts this machine answers to are cached: tests/conftest.py empties the cache before
# each test that uses the database (the only ones that can fill a database cache).


@pytest.mark.django_db
def test_a_foreign_host_gets_400(client):
    response = client.get("/", HTTP_HOST="bollen.evil.example")
    assert response.status_code == 400
    assert "Dit adres kent deze server niet" in response.content.decode()


@pytest.mark.django_db
def test_the_address_a_club_admin_sets_on_the_site_is_accepted_without_a_restart(
    client, club, settings
):
    settings.SITE_URL = ""
    assert client.get("/", HTTP_HOST="bollen.club.example:8000").status_code == 400
    club.site_url = "http://bollen.club.example:8000"
    club.save()
    assert client.get("/", HTTP_HOST="bollen.club.example:8000").status_code == 200
    club.site_url = ""
    club.save()  # a change saved on the site forgets the old host
    assert client.get("/", HTTP_HOST="bollen.club.example:8000").status_code == 400


@pytest.mark.django_db
def test_with_site_url_set_no_clubs_address_is_answered(client, club, settings):
    """On a server where the operator set SITE_URL, a club's stored address (set before, or
    by hand) never makes the site answer to another host."""
    settings.SITE_URL = "http://bollen.example.nl"
    Club.objects.filter(pk=club.pk).update(site_url="http://bollen.evil.example")
    cache.clear()
    assert client.get("/", HTTP_HOST="bollen.evil.example").status_code == 400


@pytest.mark.django_db
def test_this_machines_address_is_accepted_even_if_it_came_after_the_start(client, monkeypatch):
    monkeypatch.setattr(network, "machine_addresses", lambda: ["198.51.100.30"])
    with override_settings(ALLOWED_HOSTS=["127.0.0.1"], ALLOWED_HOSTS_FROM_MACHINE=True):
        assert client.get("/", HTTP_HOST="198.51.100.30:8000").status_code == 200
    cache.clear()
    with override_settings(ALLOWED_HOSTS=["127.0.0.1"], ALLOWED_HOSTS_FROM_MACHINE=False):
        assert client.get("/", HTTP_HOST="198.51.100.30:8000").status_code == 400


@pytest.mark.django_db
def test_a_phone_signs_in_over_plain_http_by_address(django_user_model):
    """Django checks a form's Origin against the Host it was posted to: a phone that opened the
    site by the laptop's address passes; a page from another site does not."""
    django_user_model.objects.create_superuser("directeur", password="kaart-schudden-2026")
    host = "198.51.100.20:8000"
    Club.objects.create(name="", slug="club", site_url=f"http://{host}")
    phone = Client(enforce_csrf_checks=True, HTTP_HOST=host)
    phone.get(reverse("login"))
    token = phone.cookies["csrftoken"].value
    form = {"username": "directeur", "password": "kaart-schudden-2026"}
    forged = phone.post(
        reverse("login"), {**form, "csrfmiddlewaretoken": token}, HTTP_ORIGIN="http://evil.example"
    )
    assert forged.status_code == 403
    assert "Deze pagina was verlopen" in forged.content.decode()
    signed_in = phone.post(
        reverse("login"), {**form, "csrfmiddlewaretoken": token}, HTTP_ORIGIN=f"http://{host}"
    )
    assert signed_in.status_code == 302
    assert phone.get(reverse("password_change")).status_code == 200


# ---- the director account ----


@pytest.mark.django_db
def test_the_first_run_creates_the_director_with_a_generated_password_printed_once():
    out = _command("ensure_director")
    password = PASSWORD_LINE.search(out).group(1)
    director = get_user_model().objects.get()
    assert director.username == "directeur"
    assert director.is_superuser and director.is_active
    assert director.check_password(password)
    again = _command("ensure_director")
    assert password not in again
    assert "ensure_director --new-password" in again
    assert get_user_model().objects.count() == 1


@pytest.mark.django_db
def test_a_new_password_replaces_the_old_one(django_user_model):
    director = django_user_model.objects.create_superuser("leiding", password="oud-wachtwoord-1")
    out = _command("ensure_director", "--new-password")
    director.refresh_from_db()
    assert not director.check_password("oud-wachtwoord-1")
    assert director.check_password(PASSWORD_LINE.search(out).group(1))
    with pytest.raises(CommandError, match="leiding"):
        call_command("ensure_director", "--new-password", "--username", "niemand")


@pytest.mark.django_db
def test_an_account_with_the_old_published_demo_password_gets_a_new_one(django_user_model):
    old = django_user_model.objects.create_superuser("directeur", password="bollen-demo-2026")
    out = _command("ensure_director")
    old.refresh_from_db()
    assert not old.check_password("bollen-demo-2026")
    assert old.check_password(PASSWORD_LINE.search(out).group(1))


@pytest.mark.django_db
def test_the_demo_tournament_loads_without_creating_an_account():
    _command("seed_demo")
    assert get_user_model().objects.count() == 0
    assert Tournament.objects.count() == 1
    _command("seed_demo")
    assert Tournament.objects.count() == 1


@pytest.mark.django_db
def test_the_password_can_be_changed_on_the_site(client, django_user_model):
    user = django_user_model.objects.create_superuser("directeur", password="eerste-wachtwoord-9")
    client.force_login(user)
    page = client.get("/")
    assert reverse("password_change") in page.content.decode()
    response = client.post(
        reverse("password_change"),
        {
            "old_password": "eerste-wachtwoord-9",
            "new_password1": "troef harten negen",
            "new_password2": "troef harten negen",
        },
    )
    assert response.status_code == 302
    assert response.url == reverse("password_change_done")
    user.refresh_from_db()
    assert user.check_password("troef harten negen")


# ---- the secret key file ----


def test_the_key_file_is_made_once_readable_by_its_owner_only(tmp_path):
    path = tmp_path / ".secret_key"
    key = secret_key_from_file(path)
    assert path.stat().st_mode & 0o777 == 0o600
    assert secret_key_from_file(path) == key
    assert list(tmp_path.iterdir()) == [path], "no temporary file is left behind"


def test_an_empty_or_unwritable_key_file_says_what_to_do(tmp_path):
    (tmp_path / "empty").write_text("")
    with pytest.raises(SecretKeyFileError, match="is empty"):
        secret_key_from_file(tmp_path / "empty")
    with pytest.raises(SecretKeyFileError, match="Cannot write the secret key file"):
        secret_key_from_file(tmp_path / "missing-folder" / "key")


# ---- what serve prints ----


@pytest.mark.django_db
def test_serve_prints_the_address_phones_must_open(monkeypatch, settings):
    settings.SITE_URL = ""
    monkeypatch.setattr(network, "primary_address", lambda: "192.168.1.20")
    assert serve.banner(EVERYWHERE, 8000) == [
        "Bollen draait. Op deze laptop: http://127.0.0.1:8000  —  "
        "Telefoons: open http://192.168.1.20:8000"
    ]
    settings.SITE_URL = "http://bollen.club.example"
    assert "Telefoons: open http://bollen.club.example" in serve.banner(EVERYWHERE, 8000)[0]


@pytest.mark.django_db
def test_serve_says_how_to_fix_a_laptop_without_network(monkeypatch, settings):
    settings.SITE_URL = ""
    monkeypatch.setattr(network, "primary_address", lambda: None)
    lines = serve.banner(EVERYWHERE, 8000)
    assert lines[0] == "Bollen draait. Op deze laptop: http://127.0.0.1:8000"
    assert "Verbind de laptop met de wifi van de club en start opnieuw" in lines[1]
    local = serve.banner("127.0.0.1", 8000)
    assert "alleen op deze laptop" in local[0]
    assert "Telefoons kunnen er niet bij" in local[1]


def test_bind_is_read_plainly():
    assert serve.parse_bind("0.0.0.0:8000") == (EVERYWHERE, 8000)
    assert serve.parse_bind(":8001") == (EVERYWHERE, 8001)
    assert serve.parse_bind("8002") == (EVERYWHERE, 8002)
    assert serve.parse_bind("[::1]:8003") == ("::1", 8003)
    for wrong in ("laptop", "127.0.0.1:", "127.0.0.1:99999"):
        with pytest.raises(CommandError, match=re.escape("0.0.0.0:8000")):
            serve.parse_bind(wrong)


@pytest.mark.django_db
def test_a_site_whose_clubs_have_admins_gets_no_director_that_sees_every_club():
    _command("club_create", "--name", "Klaverbol", "--admin", "anna")
    with pytest.raises(CommandError, match=r"Klaverbol.*club_create --name NAME --admin"):
        call_command("ensure_director", stdout=io.StringIO())
    with pytest.raises(CommandError, match="changepassword USERNAME"):
        call_command("ensure_director", "--new-password", "--username", "baas")
    assert not get_user_model().objects.filter(is_superuser=True).exists()
    assert _command("ensure_director", "--new-password", "--username", "anna").count("anna")
