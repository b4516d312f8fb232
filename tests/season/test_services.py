"""The register, matching players to members, merging, and the season standings."""

from __future__ import annotations

import pytest
from django.utils import timezone

from tests.factories import played_tournament
from tournament.clubs.services import club_sole
from tournament.errors import Refused
from tournament.models import Member, MemberQuestion, Player
from tournament.season import check_in, merge, services
from tournament.season.selectors import season_of
from tournament.season.services import SeasonRefusal
from tournament.standings.selectors import tournament_standings

pytestmark = pytest.mark.django_db


def test_every_evening_matches_its_players_to_one_member_each(season):
    assert Member.objects.count() == 10
    for evening in season.evenings.all():
        assert not evening.tournament.players.filter(member=None).exists()
    lid_b = Member.objects.get(name="Lid B")
    assert lid_b.players.count() == 3


def test_the_season_adds_up_the_tournament_standings_of_each_evening(season):
    result = season_of(season)
    points: dict[int, dict[int, int]] = {}
    for evening in season.evenings.all():
        tournament_rows = tournament_standings(evening.tournament)
        for row in tournament_rows.rows:
            member = tournament_rows.players[row.player].member_id
            points.setdefault(member, {})[evening.number] = row.tournament_points
    for row in result.rows:
        mine = points[row.member]
        assert row.points == sum(sorted(mine.values(), reverse=True)[:2])
        assert [r.points if r else None for r in row.per_evening] == [
            mine.get(n) for n in (1, 2, 3)
        ]
    lid_j = next(r for r in result.rows if r.name == "Lid J")
    assert lid_j.played == 1 and lid_j.counted == (1,)


def test_matching_folds_case_and_spaces_and_asks_about_near_names(season):
    tournament = played_tournament(
        4, rounds=1, seed=9, names=["  lid   a", "L. Ca", "Anders", "Nieuw Lid"]
    )
    services.member_create(register=club_sole(), name="Lars Ca")
    services.competition_add(competition=season, tournament=tournament)
    by_name = {" ".join(p.name.split()): p for p in tournament.players.all()}
    assert by_name["lid a"].member.name == "Lid A"
    assert by_name["Nieuw Lid"].member.name == "Nieuw Lid"
    asked = MemberQuestion.objects.filter(player=by_name["L. Ca"])
    assert {q.member.name for q in asked} == {"Lars Ca"}
    assert by_name["L. Ca"].member is None
    services.question_answer(player=by_name["L. Ca"], member=asked.first().member)
    by_name["L. Ca"].refresh_from_db()
    assert by_name["L. Ca"].member.name == "Lars Ca"
    assert not MemberQuestion.objects.filter(player=by_name["L. Ca"]).exists()


def test_a_tournament_is_an_evening_once(season):
    tournament = season.evenings.first().tournament
    with pytest.raises(Refused) as caught:
        services.competition_add(competition=season, tournament=tournament)
    assert caught.value.code == SeasonRefusal.EVENING_TWICE


def test_merging_moves_the_players_and_keeps_the_season(season):
    only_first = Member.objects.get(name="Lid J")
    other = services.member_create(register=club_sole(), name="J. Lid", club="")
    # J. Lid played evening 3 (a player re-pointed by hand for the test).
    player = Player.objects.filter(tournament=season.evenings.get(number=3).tournament).first()
    player.member = other
    player.save()
    preview = merge.member_merge_preview(keep=only_first, drop=other)
    assert preview.allowed and preview.players == [player]
    merge.member_merge(keep=only_first, drop=other)
    assert not Member.objects.filter(pk=other.pk).exists()
    row = next(r for r in season_of(season).rows if r.member == only_first.pk)
    assert row.played == 2


def test_two_members_who_played_one_evening_cannot_be_merged(season):
    a, b = Member.objects.get(name="Lid A"), Member.objects.get(name="Lid B")
    preview = merge.member_merge_preview(keep=a, drop=b)
    assert not preview.allowed
    with pytest.raises(Refused) as caught:
        merge.member_merge(keep=a, drop=b)
    assert caught.value.code == SeasonRefusal.MERGE_SAME_EVENING
    assert Member.objects.filter(pk=b.pk).exists()


def test_the_register_refuses_a_name_and_club_twice(db):
    services.member_create(register=club_sole(), name="Jan de Vries", club="De Troef")
    with pytest.raises(Refused) as caught:
        services.member_create(register=club_sole(), name=" jan  DE vries ", club="de troef")
    assert caught.value.code == SeasonRefusal.MEMBER_TWICE
    with pytest.raises(Refused):
        services.member_create(register=club_sole(), name="", club="")


def test_check_in_creates_the_evening_with_members_and_new_names(season, director):
    members = list(Member.objects.filter(name__in=["Lid A", "Lid B", "Lid C"]))
    tournament = check_in.evening_check_in(
        competition=season,
        director=director,
        check_in=check_in.CheckIn(
            name="Avond 4",
            date=timezone.localdate(),
            members=members,
            new_people=[("Nieuw Lid", "De Troef")],
        ),
    )
    assert tournament.players.count() == 4
    assert not tournament.players.filter(member=None).exists()
    assert Member.objects.filter(name="Nieuw Lid", club="De Troef").exists()
    assert season.evenings.get(tournament=tournament).number == 4
    assert tournament.directors.filter(pk=director.pk).exists()


def test_check_in_with_too_few_people_stores_nothing(season, director):
    before = (Member.objects.count(), season.evenings.count())
    with pytest.raises(Refused) as caught:
        check_in.evening_check_in(
            competition=season,
            director=director,
            check_in=check_in.CheckIn(
                name="x", date=timezone.localdate(), members=[], new_people=[("Een", "")]
            ),
        )
    assert caught.value.code == SeasonRefusal.NOBODY_CHECKED_IN
    assert (Member.objects.count(), season.evenings.count()) == before
