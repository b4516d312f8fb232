"""Who may do what: a member's file, erasure, the club's privacy settings, its log and
deleting it are its club admins' only; a director, another club's admin and a visitor are
refused, and nothing changes."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.urls import reverse

from tournament.clubs.services import club_create
from tournament.models import Club, ClubLogEntry, ClubRole

pytestmark = pytest.mark.django_db


@pytest.fixture
def others(django_user_model, season):
    director = django_user_model.objects.create_user("club-director", password="x")
    ClubRole.objects.create(club=season.club, user=director, role=ClubRole.Role.DIRECTOR)
    other_admin = django_user_model.objects.create_user("other-admin", password="x")
    club_create(name="BC Buren", admin=other_admin)
    return {"director": director, "other_admin": other_admin}


def test_only_the_members_club_admin_may_see_or_erase_a_member(client, others, marloes):
    for url in (
        reverse("member_data_download", args=[marloes.pk]),
        reverse("member_erase", args=[marloes.pk]),
    ):
        assert "/login/" in client.get(url).url
        for who in others.values():
            client.force_login(who)
            assert client.get(url).status_code == 403
            assert client.post(url, {"confirm": "erase"}).status_code == 403
        client.logout()
    marloes.refresh_from_db()
    assert marloes.name == "Marloes Bakker"


def test_the_club_pages_of_privacy_are_its_admins_only(client, others, season):
    club = season.club
    client.force_login(others["director"])
    for name in ("club_privacy", "club_log", "club_delete"):
        assert client.get(reverse(name)).status_code == 403
    assert client.post(reverse("club_delete"), {"typed": str(club)}).status_code == 403
    assert Club.objects.filter(pk=club.pk).exists()


def test_a_club_admin_sets_the_names_and_the_statement(director_client, season, client):
    url = reverse("club_privacy")
    assert "Privacy bij" in director_client.get(url).content.decode()  # the default text
    bad = director_client.post(url, {"name_display": "everything", "privacy_text": ""})
    assert bad.status_code == 422
    director_client.post(url, {"name_display": "short", "privacy_text": "Vraag het de voorzitter."})
    club = Club.objects.get(pk=season.club.pk)
    assert (club.name_display, club.privacy_text) == ("short", "Vraag het de voorzitter.")
    public = client.get(reverse("club_privacy_public", args=[club.slug])).content.decode()
    assert "Vraag het de voorzitter." in public
    # The log says what changed: the names only, then nothing when nothing changed.
    director_client.post(url, {"name_display": "table", "privacy_text": club.privacy_text})
    director_client.post(url, {"name_display": "table", "privacy_text": club.privacy_text})
    texts = list(
        ClubLogEntry.objects.filter(club=club).order_by("pk").values_list("text", flat=True)
    )
    assert "Privacyverklaring" not in texts[-1] and len(texts) == 2


def test_a_new_choice_of_names_with_the_shown_text_keeps_the_sites_text(
    director_client, season, client
):
    """The form shows the site's text for the old choice; saved with a new choice it is not the
    club's own text, and the public page speaks of the new choice."""
    url = reverse("club_privacy")
    shown = re.search(
        r"<textarea[^>]*>(.*?)</textarea>", director_client.get(url).content.decode(), re.S
    )
    director_client.post(url, {"name_display": "table", "privacy_text": unescape(shown[1])})
    club = Club.objects.get(pk=season.club.pk)
    assert (club.name_display, club.privacy_text) == ("table", "")
    public = client.get(reverse("club_privacy_public", args=[club.slug])).content.decode()
    assert "geen namen" in public and "volledig" not in public


def test_another_clubs_member_page_says_whose_page_it_is(client, others, marloes):
    client.force_login(others["other_admin"])
    refused = client.get(reverse("member_edit", args=[marloes.pk]))
    assert refused.status_code == 403
    text = refused.content.decode()
    assert "clubbeheerders van de club van het lid" in text and "scorer" not in text.lower()
