"""The public season page on its own: what E1, E2, ... are (the header's title and a legend),
and where the public season is found (the site's front page, the director's QR code)."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

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
