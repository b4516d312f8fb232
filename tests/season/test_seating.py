"""Season-aware seating: round 1 of an evening keeps apart the members who met most."""

from __future__ import annotations

from itertools import combinations

import pytest
from django.utils import timezone

from tests.season.conftest import evening
from tournament.clubs.services import club_sole
from tournament.models import Member, Round
from tournament.rounds.season_seating import season_history, season_meetings
from tournament.rounds.seating import round_seat, round_unseat
from tournament.season.check_in import CheckIn, evening_check_in
from tournament.season.services import CompetitionSettings, competition_create

pytestmark = pytest.mark.django_db

TWELVE = [f"Lid {letter}" for letter in "ABCDEFGHIJKL"]


@pytest.fixture
def tonight(director):
    """Two played evenings of twelve members, and tonight's evening of the same twelve."""
    competition = competition_create(
        club=club_sole(),
        settings=CompetitionSettings(name="Clubavonden", season_seating=True),
        tournaments=[evening(seed, TWELVE, director) for seed in (5, 6)],
    )
    tournament = evening_check_in(
        competition=competition,
        director=director,
        check_in=CheckIn(
            name="Avond 3", date=timezone.localdate(), members=list(Member.objects.all())
        ),
    )
    return competition, tournament


def season_pairs_together(competition, round_: Round) -> int:
    """The season's meetings of the members seated together in ``round_``."""
    met = season_meetings(competition, exclude=round_.tournament)
    total = 0
    for table in round_.tables.all():
        members = sorted(s.player.member_id for s in table.seats.select_related("player"))
        total += sum(met[pair] for pair in combinations(members, 2))
    return total


def test_round_1_seats_fewer_season_pairs_together_with_season_seating(tonight):
    competition, tournament = tonight
    assert season_meetings(competition, exclude=tournament)
    on, _note = round_seat(tournament=tournament)
    with_season = season_pairs_together(competition, on)
    round_unseat(round_=on)
    competition.season_seating = False
    competition.save()
    off, _note = round_seat(tournament=tournament)
    without = season_pairs_together(competition, off)
    assert with_season < without


def test_the_season_history_holds_each_meeting_once_and_each_player_once_a_round(tonight):
    competition, tournament = tonight
    players = list(tournament.players.values_list("pk", flat=True))
    history = season_history(tournament, players)
    member = dict(tournament.players.values_list("pk", "member_id"))
    counted: dict[tuple[int, int], int] = {}
    for tables in history:
        seated = [p for table in tables for p in table]
        assert len(seated) == len(set(seated))
        assert all(len(table) == 2 for table in tables)
        for a, b in tables:
            pair = tuple(sorted((member[a], member[b])))
            counted[pair] = counted.get(pair, 0) + 1
    assert counted == dict(season_meetings(competition, exclude=tournament))
    competition.season_seating = False
    competition.save()
    assert season_history(tournament, players) == []
