"""The rest of an attacker's list: a form in another character set, a re-type page posted
without its boxes, invisible characters in every human text, the database file's mode, the
import page's schema problems in Dutch, and costly uploads one at a time. Runs on SQLite and
PostgreSQL (the suite runs on both)."""

from __future__ import annotations

import io
import json
import os
import stat
import threading

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from tests.factories import played_tournament
from tournament.clubs.services import club_create
from tournament.errors import Refused
from tournament.models import Club, Competition, Member, Tournament
from tournament.season.services import CompetitionSettings, competition_create, member_create
from tournament.venue import costly as costly_module
from tournament.venue.sqlite.base import file_private

pytestmark = pytest.mark.django_db

HIDDEN = [
    "Bel\x07Man",
    "Anna\u202eavonD",
    "Zero\u200bWidth",
    "Tab\tBed",
    "Soft\u00adHyphen",
    "Tag\U000e0041",
    "Filler\u3164",
    "Mongolian\u180eSep",
]


@pytest.fixture
def tournament(director):
    return played_tournament(8, rounds=1, director=director)


# ---- a form in another character set ----


@pytest.mark.parametrize("charset", ["utf-16", "utf-32", "latin-1", "cp1252"])
@pytest.mark.parametrize("path", ["/login/", "/", "/season/", "/s/no-such-link/"])
def test_a_form_in_another_character_set_is_a_plain_400(charset, path):
    """With a CSRF cookie, as a browser would have one: Django's CSRF check read the body in
    that character set and its own 400 page read it again (a 500)."""
    client = Client(enforce_csrf_checks=True)
    client.get(reverse("login"))
    token = client.cookies["csrftoken"].value
    body = f"csrfmiddlewaretoken={token}&username=x&password=y".encode(charset)
    content_type = f"application/x-www-form-urlencoded; charset={charset}"
    response = client.generic("POST", path, body, content_type=content_type)
    assert response.status_code == 400
    assert "UTF-8" in response.content.decode()


def test_a_utf8_form_still_works():
    client = Client(enforce_csrf_checks=True)
    client.get(reverse("login"))
    token = client.cookies["csrftoken"].value
    body = f"csrfmiddlewaretoken={token}&username=x&password=y".encode()
    response = client.generic(
        "POST",
        reverse("login"),
        body,
        content_type="application/x-www-form-urlencoded; charset=UTF-8",
    )
    assert response.status_code == 422  # a wrong password, said on the page


# ---- the re-type page posted without its boxes ----


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"cell-TOTAL_FORMS": "44", "cell-INITIAL_FORMS": "0"},
        {"cell-TOTAL_FORMS": "3", "cell-INITIAL_FORMS": "0", "base_version": "0"},
        {
            "cell-TOTAL_FORMS": "9999",
            "cell-INITIAL_FORMS": "0",
            "penalty-TOTAL_FORMS": "0",
            "penalty-INITIAL_FORMS": "0",
        },
    ],
    ids=["nothing", "no-penalties", "three-boxes", "too-many"],
)
def test_the_retype_page_refuses_a_malformed_post_as_the_save_does(
    director_client, tournament, data
):
    for name in ("sheet_retype", "sheet_edit"):
        response = director_client.post(reverse(name, args=[tournament.slug, 1, 1]), data)
        assert response.status_code == 400, name


# ---- one validator for every human text ----


@pytest.mark.parametrize("text", HIDDEN)
def test_every_human_text_refuses_invisible_characters_on_the_site(
    director_client, tournament, text
):
    club = tournament.club
    pages = [
        (reverse("tournament_create"), {"name": text, "rounds_planned": 3}),
        (reverse("tournament_edit", args=[tournament.slug]), {"name": "Goed", "place": text}),
        (reverse("competition_list"), {"name": text, "min_evenings": 0}),
        (reverse("competition_list"), {"name": "Seizoen", "season": text, "min_evenings": 0}),
        (reverse("member_list"), {"name": "Lid", "number": text}),
        (reverse("member_list"), {"name": text}),
        (reverse("club_page"), {"name": text}),
    ]
    for url, data in pages:
        response = director_client.post(url, {**data, "club_slug": club.slug})
        assert response.status_code in (200, 422), url
        assert "onzichtbaar" in response.content.decode(), url
    assert not Tournament.objects.exclude(pk=tournament.pk).exists()
    assert not Competition.objects.exists()
    assert not Member.objects.exists()
    club.refresh_from_db()
    assert club.name == ""


@pytest.mark.parametrize("text", HIDDEN)
def test_the_services_refuse_them_too(club, text):
    """The command line and imports go through the services, which check the same."""
    with pytest.raises(Refused):
        competition_create(club=club, settings=CompetitionSettings(name=text))
    with pytest.raises(Refused):
        member_create(register=club, name="Lid", number=text)
    with pytest.raises(Refused):
        club_create(name=text)
    assert Club.objects.count() == 1


def test_a_name_stored_before_the_check_still_downloads(director_client, club):
    """A competition named with a control character before the site refused them: its files
    leave the character out instead of failing."""
    Competition.objects.create(club=club, name="Bel\x07Competitie\u202e", slug="bel")
    for fmt in ("xlsx", "csv", "json"):
        response = director_client.get(reverse("competition_download", args=["bel", fmt]))
        assert response.status_code == 200, fmt


# ---- the database file ----


def test_the_database_file_and_its_companions_are_private(tmp_path):
    path = tmp_path / "db.sqlite3"
    file_private(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    open_one = tmp_path / "old.sqlite3"
    open_one.write_bytes(b"")
    open_one.chmod(0o644)
    file_private(open_one)
    assert stat.S_IMODE(open_one.stat().st_mode) == 0o600


def test_a_new_sqlite_database_is_made_private_with_its_wal_and_shm(tmp_path):
    """The laptop's database (on either suite's database: this one is a file of its own)."""
    old = os.umask(0o022)
    try:
        from tournament.venue.sqlite.base import DatabaseWrapper

        settings = {
            "NAME": str(tmp_path / "new.sqlite3"),
            "ENGINE": "tournament.venue.sqlite",
            "OPTIONS": {"init_command": "PRAGMA journal_mode=WAL;"},
            "ATOMIC_REQUESTS": False,
            "AUTOCOMMIT": True,
            "CONN_MAX_AGE": 0,
            "CONN_HEALTH_CHECKS": False,
            "TIME_ZONE": None,
            "USER": "",
            "PASSWORD": "",
            "HOST": "",
            "PORT": "",
            "TEST": {},
        }
        wrapper = DatabaseWrapper(settings)
        with wrapper.cursor() as cursor:
            cursor.execute("CREATE TABLE t (a int)")
            cursor.execute("INSERT INTO t VALUES (1)")
        wrapper.close()
        wrapper = DatabaseWrapper(settings)
        wrapper.cursor().close()  # opened again: the companions get the file's mode
        modes = {f.name: stat.S_IMODE(f.stat().st_mode) for f in tmp_path.iterdir()}
        wrapper.close()
    finally:
        os.umask(old)
    assert set(modes) >= {"new.sqlite3", "new.sqlite3-wal", "new.sqlite3-shm"}
    assert set(modes.values()) == {0o600}, modes


# ---- the import page speaks Dutch ----


def test_the_import_pages_schema_problems_are_dutch(director_client):
    document = {"format": "bollen-tournament", "version": 1, "players": "geen lijst"}
    upload = io.BytesIO(json.dumps(document).encode())
    upload.name = "kapot.json"
    response = director_client.post(reverse("tournament_upload"), {"file": upload})
    page = response.content.decode()
    assert response.status_code == 422
    assert "de velden name, rounds ontbreken" in page
    assert "moet een lijst zijn" in page
    assert "is a required property" not in page
    assert "is not of type" not in page


# ---- costly uploads ----


def _upload(client, tournament) -> tuple[int, str]:
    from tournament.tournament_file.exporting import tournament_export

    upload = io.BytesIO(json.dumps(tournament_export(tournament=tournament)).encode())
    upload.name = "backup.json"
    response = client.post(reverse("tournament_upload"), {"file": upload})
    return response.status_code, response.content.decode()


def test_a_second_costly_upload_while_one_runs_is_refused_at_once(director_client, tournament):
    with costly_module._slot(tournament.directors.first()):
        status, page = _upload(director_client, tournament)
    assert status == 422
    assert 'data-refusal="costly_busy"' in page
    assert Tournament.objects.count() == 1
    status, _page = _upload(director_client, tournament)  # free again
    assert status == 302
    assert Tournament.objects.count() == 2


def test_an_account_that_imports_too_often_waits(director_client, tournament, settings):
    settings.COSTLY_PER_ACCOUNT = 2
    assert _upload(director_client, tournament)[0] == 302
    assert _upload(director_client, tournament)[0] == 302
    status, page = _upload(director_client, tournament)
    assert status == 422
    assert 'data-refusal="costly_too_often"' in page
    assert Tournament.objects.count() == 3


def test_the_counts_survive_a_full_cache(director_client, tournament, settings):
    """Kept in the database: filling the cache (which throws out old entries) resets nothing."""
    from django.core.cache import cache

    settings.COSTLY_PER_ACCOUNT = 1
    assert _upload(director_client, tournament)[0] == 302
    cache.clear()
    assert _upload(director_client, tournament)[0] == 422


def test_a_club_that_imports_too_often_waits(director_client, tournament, settings):
    settings.COSTLY_PER_CLUB = 1
    assert _upload(director_client, tournament)[0] == 302
    status, page = _upload(director_client, tournament)
    assert status == 422
    assert 'data-refusal="costly_club_too_often"' in page


def test_a_competition_file_with_hidden_characters_is_refused(director_client, club):
    from tournament.season.file_export import competition_export

    competition = competition_create(club=club, settings=CompetitionSettings(name="Seizoen"))
    Member.objects.create(register=club, name="Gewoon Lid")
    document = competition_export(competition=competition)
    document["name"] = "Sei\x0bzoen"
    document["members"][0]["name"] = "Anna\u202eavonD"
    upload = io.BytesIO(json.dumps(document).encode())
    upload.name = "seizoen.json"
    response = director_client.post(reverse("competition_upload"), {"file": upload})
    assert response.status_code == 422
    assert response.content.decode().count("onzichtbaar") >= 2
    assert Competition.objects.count() == 1
    # Taken, its texts are tidied as the pages tidy them.
    document["name"] = "Voorjaar   2027"
    document["members"][0]["name"] = "Anna  de Vries"
    upload = io.BytesIO(json.dumps(document).encode())
    upload.name = "seizoen.json"
    assert director_client.post(reverse("competition_upload"), {"file": upload}).status_code == 302
    assert Competition.objects.filter(name="Voorjaar 2027").exists()
    assert Member.objects.filter(name="Anna de Vries").exists()


@pytest.mark.django_db(transaction=True)
def test_the_costly_work_runs_in_a_thread_of_lower_priority(settings):
    """What a server does (the other tests run it in the request's thread): the work in a
    thread of its own, niced, with a connection of its own, in the request's language."""
    settings.COSTLY_NICE = 7
    seen = {}

    def work():
        seen["nice"] = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
        seen["thread"] = threading.current_thread().name
        call_command("ensure_director", stdout=io.StringIO())
        from django.utils.translation import get_language

        seen["language"] = get_language()
        return Club.objects.count()

    from django.contrib.auth.models import AnonymousUser
    from django.utils import translation

    with translation.override("nl"):
        assert costly_module.costly(AnonymousUser(), work) == 1
    assert seen == {"nice": 7, "thread": "bollen-costly", "language": "nl"}
    assert Club.objects.count() == 1  # what the thread stored is there
