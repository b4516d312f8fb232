"""Getting around a season: an evening's tournament page leads back to its competition, and
the front page lists the tournaments newest first."""

from __future__ import annotations

import datetime
import re

import pytest
from django.urls import reverse

from tournament.clubs.services import club_sole
from tournament.models import Tournament

pytestmark = pytest.mark.django_db


def _tournament(director, name: str, date: datetime.date | None) -> Tournament:
    tournament = Tournament.objects.create(
        club=club_sole(), name=name, slug=name.lower().replace(" ", "-"), date=date, public=True
    )
    tournament.directors.add(director)
    return tournament


def test_an_evening_links_back_to_its_competition(director_client, season):
    evening = season.evenings.get(number=2)
    text = director_client.get(
        reverse("tournament_detail", args=[evening.tournament.slug])
    ).content.decode()
    link = reverse("competition_detail", args=[season.slug])
    assert f'<a href="{link}">Avond 2 van Clubkampioenschap 2026</a>' in text


def test_a_tournament_outside_a_season_says_nothing_of_one(director_client, director):
    tournament = _tournament(director, "Losse avond", None)
    text = director_client.get(reverse("tournament_detail", args=[tournament.slug]))
    assert 'class="evening-of"' not in text.content.decode()


def test_who_does_not_run_the_competition_is_led_to_its_public_page_or_told_its_name(
    client, django_user_model, season
):
    tournament = season.evenings.get(number=1).tournament
    scorer = django_user_model.objects.create_user(username="teller")
    tournament.directors.add(scorer)  # directs the evening, not the competition
    client.force_login(scorer)
    url = reverse("tournament_detail", args=[tournament.slug])
    text = client.get(url).content.decode()
    assert '<p class="evening-of">Avond 1 van Clubkampioenschap 2026</p>' in text
    assert reverse("competition_detail", args=[season.slug]) not in text
    season.public = True
    season.save()
    text = client.get(url).content.decode()
    public = reverse("public_season", args=[season.slug])
    assert f'<a href="{public}">Avond 1 van Clubkampioenschap 2026</a>' in text


def test_the_front_page_lists_the_newest_tournament_first_undated_last(director_client, director):
    for name, date in [
        ("Najaar", datetime.date(2026, 10, 1)),
        ("Zonder datum", None),
        ("Winter", datetime.date(2027, 1, 15)),
        ("Voorjaar", datetime.date(2026, 4, 1)),
    ]:
        _tournament(director, name, date)
    text = director_client.get(reverse("tournament_list")).content.decode()
    directed, public = text.split("Openbare toernooien")
    order = ["Winter", "Najaar", "Voorjaar", "Zonder datum"]
    for part in (directed, public):
        shown = re.findall(r">(Winter|Najaar|Voorjaar|Zonder datum)</a>", part)
        assert shown == order
