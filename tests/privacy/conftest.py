"""A club's season of two evenings with real-looking names, its public pages switched on: the
first evening finished, the second one being played (its seating on the public pages)."""

from __future__ import annotations

import pytest

from tests.factories import played_tournament
from tournament.clubs.services import club_sole
from tournament.models import Competition, Member, Tournament
from tournament.season.services import CompetitionSettings, competition_create
from tournament.tournaments.finish import tournament_finish

NAMES = [
    "Marloes Bakker",
    "Jan van der Meer",
    "Anna Dekker",
    "Pieter Smit",
    "Eva Mol",
    "Fleur Kok",
    "Bas Vos",
    "Dirk Ek",
]


@pytest.fixture
def season(director):
    first = tournament_finish(
        tournament=played_tournament(8, rounds=2, seed=1, names=NAMES, director=director)
    )
    second = played_tournament(8, rounds=2, seed=2, names=NAMES, director=director)
    competition = competition_create(
        club=club_sole(),
        settings=CompetitionSettings(name="Clubkampioenschap", season="2026", best=2),
        tournaments=[first, second],
    )
    Tournament.objects.filter(pk__in=[first.pk, second.pk]).update(public=True)
    Competition.objects.filter(pk=competition.pk).update(public=True)
    competition.refresh_from_db()
    return competition


@pytest.fixture
def evening(season):
    """The evening being played."""
    return Tournament.objects.filter(competition_evenings__competition=season).get(finished_at=None)


@pytest.fixture
def marloes(season):
    return Member.objects.get(register=season.club, name="Marloes Bakker")
