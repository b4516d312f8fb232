"""A season of played evenings, each finished by its director: the same club members, some
missing some evenings."""

from __future__ import annotations

import pytest

from tests.factories import played_tournament
from tournament.clubs.services import club_sole
from tournament.season.services import CompetitionSettings, competition_create
from tournament.tournaments.finish import tournament_finish

NAMES = [f"Lid {letter}" for letter in "ABCDEFGHIJ"]


def evening(seed: int, names: list[str], director=None, *, finished: bool = True):
    """An evening of two rounds played to the end; ``finished`` by its director (final) unless
    told otherwise (still being played)."""
    tournament = played_tournament(len(names), rounds=2, seed=seed, names=names, director=director)
    return tournament_finish(tournament=tournament) if finished else tournament


@pytest.fixture
def season(director):
    """A competition of three evenings: all ten members, then nine (no J), then eight."""
    tournaments = [
        evening(1, NAMES, director),
        evening(2, NAMES[:9], director),
        evening(3, NAMES[1:9], director),
    ]
    return competition_create(
        club=club_sole(),
        settings=CompetitionSettings(name="Clubkampioenschap", season="2026", best=2),
        tournaments=tournaments,
    )
