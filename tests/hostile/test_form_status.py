"""Every form page that gets its form back with messages answers 422 (the same page, the same
messages, nothing stored); shown, and taken, it answers 200 and a redirect as before."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.factories import played_tournament
from tournament.models import Player, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament(director):
    return played_tournament(8, 1, director=director)


def _refused(response, *, text: str | None = None) -> str:
    assert response.status_code == 422, response.status_code
    page = response.content.decode()
    assert "<form" in page
    if text is not None:
        assert text in page
    return page


def test_adding_a_player_with_a_control_character(director_client, tournament):
    url = reverse("player_list", args=[tournament.slug])
    assert director_client.get(url).status_code == 200
    count = Player.objects.count()
    _refused(director_client.post(url, {"name": "Bel\x07Man", "club": ""}), text="onzichtbaar")
    _refused(director_client.post(url, {"name": "", "club": ""}))
    assert Player.objects.count() == count
    assert director_client.post(url, {"name": "Bel Man", "club": ""}).status_code == 302


def test_editing_a_player_with_an_empty_name(director_client, tournament):
    player = tournament.players.first()
    url = reverse("player_edit", args=[tournament.slug, player.pk])
    assert director_client.get(url).status_code == 200
    _refused(director_client.post(url, {"name": "", "club": "BC"}))
    player.refresh_from_db()
    assert player.name != ""


def test_pasting_nothing_and_an_expired_preview(director_client, tournament):
    url = reverse("player_paste", args=[tournament.slug])
    assert director_client.get(url).status_code == 200
    _refused(director_client.post(url, {"text": ""}))
    _refused(director_client.post(url, {"payload": "forged"}))
    assert Player.objects.count() == 8


def test_importing_an_unreadable_player_list(director_client, tournament):
    url = reverse("player_import", args=[tournament.slug])
    upload = SimpleUploadedFile("spelers.xlsx", b"PK\x03\x04 not a workbook", "text/csv")
    _refused(director_client.post(url, {"file": upload}))
    _refused(director_client.post(url, {"file": SimpleUploadedFile("leeg.csv", b"")}))
    assert Player.objects.count() == 8


def test_creating_and_editing_a_tournament_without_a_name(director_client, tournament):
    count = Tournament.objects.count()
    create = reverse("tournament_create")
    assert director_client.get(create).status_code == 200
    _refused(director_client.post(create, {"name": ""}))
    assert Tournament.objects.count() == count
    edit = reverse("tournament_edit", args=[tournament.slug])
    assert director_client.get(edit).status_code == 200
    _refused(director_client.post(edit, {"name": ""}))
    tournament.refresh_from_db()
    assert tournament.name == "Testtoernooi"


def test_importing_a_file_that_is_not_a_tournament(director_client):
    url = reverse("tournament_upload")
    upload = SimpleUploadedFile("t.json", b'{"version": 1}', "application/json")
    _refused(director_client.post(url, {"file": upload}))
    _refused(director_client.post(url, {}))
    assert Tournament.objects.count() == 0


def test_a_site_address_that_is_not_an_address(director_client, tournament):
    url = reverse("site_address_edit")
    assert director_client.get(url).status_code == 200
    _refused(director_client.post(url, {"site_url": "ftp://\x00"}))


def test_a_wrong_password_at_sign_in(client, director):
    url = reverse("login")
    assert client.get(url).status_code == 200
    _refused(client.post(url, {"username": "director", "password": "wrong"}))
    assert "_auth_user_id" not in client.session
    taken = client.post(url, {"username": "director", "password": "correct-horse-battery"})
    assert taken.status_code == 302


def test_a_weak_new_password(director_client, director):
    url = reverse("password_change")
    assert director_client.get(url).status_code == 200
    _refused(
        director_client.post(
            url,
            {
                "old_password": "correct-horse-battery",
                "new_password1": "123",
                "new_password2": "123",
            },
        )
    )
    director.refresh_from_db()
    assert director.check_password("correct-horse-battery")
