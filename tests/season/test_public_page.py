"""The public season page on its own: what E1, E2, ... are (the header's title and a legend),
and where the public season is found (the site's front page, the director's QR code)."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from tests.printing.reading import data_uri_qr_texts
from tournament.clubs.services import club_sole
from tournament.season.services import CompetitionSettings, competition_create

pytestmark = pytest.mark.django_db


def _dated(season):
    for evening in season.evenings.select_related("tournament"):
        evening.tournament.date = datetime.date(2026, 9, evening.number)
        evening.tournament.save()
    season.public = True
    season.save()
    return season


def test_the_public_page_says_what_each_evening_column_is(client, season):
    _dated(season)
    page = client.get(reverse("public_season", args=[season.slug])).content.decode()
    for number in (1, 2, 3):
        assert f'<abbr title="Avond {number}, {number} sep 2026">A{number}</abbr>' in page
        assert f"<dt>A{number}</dt><dd>Avond {number}, {number} sep 2026 (Testtoernooi)</dd>" in (
            page
        )
    assert "Schuif de tabel opzij voor de punten per avond" in page
    assert 'title="Plaats">Pl.</abbr>' in page


def test_an_evening_without_a_date_is_named_by_its_number(client, season):
    season.public = True
    season.save()
    page = client.get(reverse("public_season", args=[season.slug])).content.decode()
    assert '<abbr title="Avond 2">A2</abbr>' in page
    assert "<dt>A2</dt><dd>Avond 2 (Testtoernooi)</dd>" in page


def test_the_front_page_lists_the_public_season_pages_with_the_public_tournaments(
    client, season, director
):
    other = competition_create(
        club=club_sole(), settings=CompetitionSettings(name="Voorjaar", season="2027")
    )
    front = client.get(reverse("tournament_list"))
    assert reverse("public_season", args=[season.slug]) not in front.content.decode()
    season.public = True
    season.save()
    text = client.get(reverse("tournament_list")).content.decode()
    assert "Seizoensklassement" in text
    assert (
        f'<a href="{reverse("public_season", args=[season.slug])}">Clubkampioenschap 2026</a>'
        in (text)
    )
    assert reverse("public_season", args=[other.slug]) not in text  # not switched on
    assert "Nog geen toernooien." not in text


def test_the_competition_page_shows_the_public_address_for_phones_with_a_qr_code(
    director_client, season, settings
):
    settings.SITE_URL = "http://bollen.club.example:8000"
    page = director_client.get(reverse("competition_detail", args=[season.slug]))
    assert page.context["public_qr"] == ""
    assert "De openbare seizoenspagina staat uit" in page.content.decode()
    season.public = True
    season.save()
    page = director_client.get(reverse("competition_detail", args=[season.slug]))
    expected = "http://bollen.club.example:8000" + reverse("public_season", args=[season.slug])
    assert page.context["public_url"] == expected
    text = page.content.decode()
    assert f'<a href="{expected}" id="public-season-url"' in text
    assert 'alt="QR-code van de openbare seizoenspagina"' in text
    assert data_uri_qr_texts(page.context["public_qr"]) == [expected]


def test_a_loopback_address_is_warned_about_next_to_the_code(director_client, season, settings):
    settings.SITE_URL = "http://127.0.0.1:8000"
    season.public = True
    season.save()
    text = director_client.get(reverse("competition_detail", args=[season.slug])).content.decode()
    assert 'id="site-address-warning"' in text
