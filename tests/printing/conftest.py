"""A played tournament whose names try to break the printouts."""

import pytest

from tests import factories
from tournament.models import Player

TRICKY_NAMES = [
    "<script>alert(1)</script>",
    '="1"',
    "+31 6 12345678",
    "-Jan",
    "@Marie",
    "Émile Zoë van der Berg-Hoogenboezem en Zonen",
    "Anna de Vries",
    "Bert Jansen",
    "Kees Bos",
    "Dirk",
    "eva Smit",
    "Fien Bakker",
    "Gerrit",
]
CLUBS = ["BC De Bol", "=SUM(A1)", ""]


@pytest.fixture
def tournament(director):
    """13 players (tables of 5, 4 and 4), two complete rounds, in English; clubs for most."""
    tournament = factories.played_tournament(
        len(TRICKY_NAMES), 2, names=TRICKY_NAMES, director=director
    )
    for index, player in enumerate(Player.objects.filter(tournament=tournament).order_by("pk")):
        player.club = CLUBS[index % len(CLUBS)]
        player.save(update_fields=["club"])
    tournament.language = "en"
    tournament.save(update_fields=["language"])
    return tournament
