"""Names with hidden characters, and player lists that cannot be read: refused with a message,
nothing stored; names stored before still export."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.factories import played_tournament
from tournament.models import Player
from tournament.text import HIDDEN_CHARACTER

pytestmark = pytest.mark.django_db

HOSTILE_NAMES = ["Bel\x07Man", "Nul\x00Man", "Anna\u202eeoJ", "Jan\u200bde Vries", "Tab\tMan"]


@pytest.fixture
def tournament(director):
    return played_tournament(8, 1, director=director)


@pytest.mark.parametrize("name", HOSTILE_NAMES)
def test_the_add_player_form_refuses_a_hidden_character(director_client, tournament, name):
    count = Player.objects.count()
    url = reverse("player_list", args=[tournament.slug])
    response = director_client.post(url, {"name": name, "club": ""})
    assert response.status_code == 422
    assert str(HIDDEN_CHARACTER) in response.content.decode()
    assert Player.objects.count() == count


def test_a_name_is_stored_in_nfc_with_single_spaces(director_client, tournament):
    url = reverse("player_list", args=[tournament.slug])
    director_client.post(url, {"name": "  Zoe\u0308   de Vries ", "club": ""})
    assert Player.objects.filter(name="Zo\u00eb de Vries").exists()


@pytest.mark.parametrize(
    "content",
    [
        "Naam;Club\nAnna;X\n".encode("utf-16"),
        b"Naam;Club\nAn\x81na;X\n",
        b"Naam;Club\n" + b"x" * 140_000 + b";X\n",
        b"Naam;Club\nNul\x00Man;X\n",
    ],
    ids=["utf-16", "byte-0x81", "long-field", "nul"],
)
def test_a_player_csv_that_cannot_be_read_is_refused_or_its_row_marked(
    director_client, tournament, content
):
    count = Player.objects.count()
    url = reverse("player_import", args=[tournament.slug])
    upload = SimpleUploadedFile("players.csv", content, content_type="text/csv")
    response = director_client.post(url, {"file": upload})
    assert response.status_code in (200, 422)
    page = response.content.decode()
    assert "Anna" in page or "CSV" in page or str(HIDDEN_CHARACTER) in page
    assert Player.objects.count() == count


def test_the_exports_hold_a_name_stored_with_a_control_character(director_client, tournament):
    Player.objects.filter(tournament=tournament).update(name="Bel\x07Man")
    urls = [
        reverse("standings_download", args=[tournament.slug, "xlsx"]),
        reverse("print_workbook", args=[tournament.slug]),
    ]
    for url in urls:
        response = director_client.get(url)
        assert response.status_code == 200, url
        assert response.content.startswith(b"PK")
