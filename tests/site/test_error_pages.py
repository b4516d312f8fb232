"""The site's error pages: plain, in Dutch, never a setting or a traceback, and built so that they
cannot fail themselves (no database)."""

import pytest
from django.db import InterfaceError, OperationalError
from django.test import Client, override_settings
from django.urls import reverse

from tournament.venue.error_pages import database_unavailable, server_error

DATABASE_DOWN = "De database is even niet bereikbaar"


def _no_leaks(body: str) -> None:
    for secret in ("Traceback", "SECRET", "DATABASES", "settings", "password authentication"):
        assert secret not in body


@override_settings(DEBUG=False, ROOT_URLCONF="tests.site.venue_urls")
@pytest.mark.django_db
def test_a_bug_in_a_view_shows_the_plain_500_page():
    response = Client(raise_request_exception=False).get("/broken/")
    assert response.status_code == 500
    body = response.content.decode()
    assert "Er ging iets mis" in body
    assert 'href="/static/bollen.css"' in body  # the site's style, without the manifest
    _no_leaks(body)


@override_settings(DEBUG=False, ROOT_URLCONF="tests.site.venue_urls")
@pytest.mark.django_db
def test_a_lost_database_in_a_view_answers_503():
    response = Client(raise_request_exception=False).get("/database-gone/")
    assert response.status_code == 503
    assert response["Retry-After"] == "10"
    body = response.content.decode()
    assert DATABASE_DOWN in body
    assert "niets wat je op een telefoon hebt ingevoerd gaat verloren" in body
    _no_leaks(body)


@override_settings(DEBUG=False)
@pytest.mark.django_db
def test_a_missing_page_is_the_plain_404_in_english_when_chosen(client):
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    assert "Deze pagina bestaat niet" in response.content.decode()
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    assert "This page does not exist" in client.get("/no-such-page/").content.decode()


def test_the_500_and_503_pages_need_no_database(rf):
    # No django_db mark: any query here would fail the test.
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        response = server_error(rf.get("/"))
    assert response.status_code == 500
    assert "Er ging iets mis" in response.content.decode()
    for error in (OperationalError("gone"), InterfaceError("closed")):
        try:
            raise error
        except Exception:
            response = server_error(rf.get("/"))
        assert response.status_code == 503, error
        assert DATABASE_DOWN in response.content.decode()
    assert database_unavailable().status_code == 503


@override_settings(DEBUG=False)
@pytest.mark.django_db
def test_signing_in_while_the_database_is_down_answers_503(client, monkeypatch):
    from django.contrib.auth import forms

    def unreachable(*args, **kwargs):
        raise OperationalError("connection refused")

    monkeypatch.setattr(forms, "authenticate", unreachable)
    client.raise_request_exception = False
    response = client.post(reverse("login"), {"username": "directeur", "password": "x" * 12})
    assert response.status_code == 503
    assert DATABASE_DOWN in response.content.decode()
