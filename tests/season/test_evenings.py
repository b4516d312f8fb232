"""Evenings taken out of a competition and put back on the site: removed (the tournament stays)
or deleted (from its backup), each with its preview of the season, numbered by date, and the
players' members kept by the member, never by name."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from tournament.errors import Refused
from tournament.models import (
    CompetitionEvening,
    CostlyWork,
    EveningRemoval,
    Member,
    MemberQuestion,
    Player,
    Tournament,
)
from tournament.season.evenings import evening_delete, evening_put_back
from tournament.season.selectors import season_of
from tournament.season.services import CompetitionSettings, competition_create, member_update
from tournament.tournament_file.exporting import tournament_export
from tournament.tournament_file.reading import tournament_file_check
from tournament.tournaments.services import tournament_update

pytestmark = pytest.mark.django_db


@pytest.fixture
def dated(season):
    """The season's three evenings on 10, 24 and 17 January: numbered by date, the third
    evening played becomes evening 2."""
    for evening, day in zip(season.evenings.order_by("number"), (10, 24, 17), strict=True):
        tournament_update(tournament=evening.tournament, date=datetime.date(2026, 1, day))
    return season


def _by_date(competition) -> list[tuple[int, datetime.date]]:
    return [
        (e.number, e.tournament.date)
        for e in CompetitionEvening.objects.filter(competition=competition)
        .select_related("tournament")
        .order_by("number")
    ]


def _take_out(client, competition, number: int, action: str):
    evening = competition.evenings.get(number=number)
    url = reverse("evening_remove", args=[competition.slug, evening.pk])
    preview = client.get(url)
    assert preview.status_code == 200
    response = client.post(url, {"action": action})
    assert response.status_code == 302
    return preview


def _put_back(client, competition):
    removal = EveningRemoval.objects.get(competition=competition)
    url = reverse("evening_put_back", args=[competition.slug, removal.pk])
    preview = client.get(url)
    assert preview.status_code == 200
    assert client.post(url).status_code == 302
    assert not EveningRemoval.objects.filter(pk=removal.pk).exists()
    return preview


def test_evenings_are_numbered_by_date_whatever_the_order_they_came_in(dated):
    days = [datetime.date(2026, 1, d) for d in (10, 17, 24)]
    assert _by_date(dated) == list(zip((1, 2, 3), days, strict=True))
    first = dated.evenings.get(number=1).tournament
    tournament_update(tournament=first, date=datetime.date(2026, 1, 31))  # moved to the end
    assert _by_date(dated) == list(zip((1, 2, 3), [*days[1:], first.date], strict=True))


def test_removing_an_evening_previews_the_season_and_putting_it_back_undoes_it(
    director_client, dated, settings, tmp_path
):
    settings.BACKUP_DIR = tmp_path
    before = season_of(dated).rows
    preview = _take_out(director_client, dated, 2, "remove")
    expected = preview.context["preview"].after.rows
    assert preview.context["change"].changes  # best 2 of 3 minus one: places move
    assert season_of(dated).rows == expected  # the preview was the season that followed
    assert Tournament.objects.filter(date=datetime.date(2026, 1, 17)).exists()  # it stays
    assert _by_date(dated) == [(1, datetime.date(2026, 1, 10)), (2, datetime.date(2026, 1, 24))]
    page = director_client.get(reverse("competition_detail", args=[dated.slug])).content.decode()
    assert "evenings-taken-out" in page
    assert not list(tmp_path.iterdir())  # a removal writes no backup: the tournament stays

    back = _put_back(director_client, dated)
    assert back.context["preview"].after.rows == before
    assert season_of(dated).rows == before  # every number as it was
    assert _by_date(dated)[1] == (2, datetime.date(2026, 1, 17))


def test_deleting_an_evening_writes_its_backup_and_putting_it_back_restores_it(
    director_client, dated, settings, tmp_path
):
    settings.BACKUP_DIR = tmp_path
    before = season_of(dated).rows
    deleted = dated.evenings.get(number=2).tournament
    cup = competition_create(
        club=dated.club, settings=CompetitionSettings(name="Beker"), tournaments=[deleted]
    )
    players_before = sorted(deleted.players.values_list("name", "member_id"))
    preview = _take_out(director_client, dated, 2, "delete")
    assert [str(c) for c in preview.context["preview"].also] == ["Beker"]
    assert not Tournament.objects.filter(pk=deleted.pk).exists()
    removal = EveningRemoval.objects.get(competition=dated)
    assert (tmp_path / removal.backup).is_file()
    assert season_of(dated).rows == preview.context["preview"].after.rows
    assert not cup.evenings.exists()

    _put_back(director_client, dated)
    restored = Tournament.objects.get(slug=deleted.slug)  # under its own short name
    assert restored.finished_at is not None
    assert sorted(restored.players.values_list("name", "member_id")) == players_before
    assert season_of(dated).rows == before
    assert [n for n, _day in _by_date(dated)] == [1, 2, 3]
    assert list(cup.evenings.values_list("tournament", flat=True)) == [restored.pk]  # and back
    assert not EveningRemoval.objects.exists()


def test_only_the_evenings_directors_take_it_out(client, season, django_user_model):
    from tournament.models import ClubRole

    colleague = django_user_model.objects.create_user(username="collega")
    ClubRole.objects.create(club=season.club, user=colleague, role=ClubRole.Role.DIRECTOR)
    client.force_login(colleague)
    evening = season.evenings.get(number=1)
    url = reverse("evening_remove", args=[season.slug, evening.pk])
    assert client.post(url, {"action": "delete"}).status_code == 403
    assert Tournament.objects.filter(pk=evening.tournament_id).exists()
    page = client.get(reverse("competition_detail", args=[season.slug])).content.decode()
    assert "take-out" not in page  # no button for what they may not do


def test_a_member_renamed_since_the_backup_is_found_again_by_the_member(
    director_client, dated, settings, tmp_path
):
    settings.BACKUP_DIR = tmp_path
    before = season_of(dated).rows
    member = Member.objects.get(name="Lid B")
    _take_out(director_client, dated, 2, "delete")
    member_update(member=member, name="Lid B-de Groot", club="", number="", active=True)
    members = Member.objects.count()
    _put_back(director_client, dated)
    assert Member.objects.count() == members  # no second "Lid B"
    restored = Tournament.objects.get(date=datetime.date(2026, 1, 17))
    assert restored.players.get(name="Lid B").member_id == member.pk
    after = season_of(dated).rows
    assert [(r.member, r.rank, r.points) for r in after] == [
        (r.member, r.rank, r.points) for r in before
    ]


def test_a_member_the_register_no_longer_has_is_asked_about_never_created(
    director_client, dated, settings, tmp_path
):
    """Lid B and Lid I both played the second evening; while it was deleted, Lid I left the
    register and Lid B was deleted and typed in again (another record): neither is linked by
    name, both are asked, and nobody is created."""
    settings.BACKUP_DIR = tmp_path
    _take_out(director_client, dated, 2, "delete")
    Member.objects.filter(name__in=["Lid B", "Lid I"]).delete()
    again = Member.objects.create(register=dated.club, name="Lid B")
    members = Member.objects.count()
    _put_back(director_client, dated)
    assert Member.objects.count() == members
    restored = Tournament.objects.get(date=datetime.date(2026, 1, 17))
    asked = {
        q.player.name: q.member
        for q in MemberQuestion.objects.filter(player__tournament=restored).select_related(
            "player", "member"
        )
    }
    assert asked == {"Lid B": again, "Lid I": None}
    assert restored.players.filter(member=None).count() == 2

    questions = reverse("competition_questions", args=[dated.slug])
    page = director_client.get(questions).content.decode()
    assert page.count('<tr class="who">') == 1  # "who is this?" for Lid I, with the register
    lid_b, lid_i = (restored.players.get(name=name) for name in ("Lid B", "Lid I"))
    director_client.post(questions, {"player": lid_b.pk, "member": again.pk})  # same person
    assert Player.objects.get(pk=lid_b.pk).member == again
    director_client.post(questions, {"player": lid_i.pk, "member": again.pk})
    assert Player.objects.get(pk=lid_i.pk).member is None  # Lid B played that evening already
    director_client.post(questions, {"player": lid_i.pk})  # a different person: joins
    assert Player.objects.get(pk=lid_i.pk).member.name == "Lid I"
    assert not MemberQuestion.objects.filter(player=lid_i).exists()


def test_a_backup_names_the_members_and_a_wrong_record_is_refused(season):
    tournament = season.evenings.get(number=1).tournament
    document = tournament_export(tournament=tournament)
    members = document["settings"]["x-site"]["members"]
    assert {m["name"] for m in members} == {p.name for p in tournament.players.all()}
    members[1]["player"] = members[0]["player"]
    members[2]["player"] = "p99"
    with pytest.raises(Refused) as refused:
        tournament_file_check(document)
    text = "\n".join(refused.value.lines())
    assert "x-site/members/1" in text and "x-site/members/2" in text


def test_a_second_click_a_backup_outside_its_folder_and_previews_do_no_harm(
    director_client, dated, settings, tmp_path
):
    """A second "delete" of an evening already deleted is refused without a second backup;
    a stored backup name leading out of the backup folder is as good as gone, and the message
    names no server path; looking at a deleted evening's preview counts as no import."""
    settings.BACKUP_DIR = tmp_path
    settings.COSTLY_PER_ACCOUNT = 2
    evening = dated.evenings.get(number=2)
    evening_delete(evening=evening, by=None)
    with pytest.raises(Refused):
        evening_delete(evening=evening, by=None)  # the same evening, as the second click has it
    assert len(list(tmp_path.rglob("*.json"))) == 1

    removal = EveningRemoval.objects.get(competition=dated)
    url = reverse("evening_put_back", args=[dated.slug, removal.pk])
    for _ in range(3):
        assert director_client.get(url).status_code == 200
    assert not CostlyWork.objects.exists()

    EveningRemoval.objects.filter(pk=removal.pk).update(backup="../../../../etc/passwd")
    removal.refresh_from_db()
    with pytest.raises(Refused) as refused:
        evening_put_back(removal=removal)
    assert refused.value.problems[0].field == "../../../../etc/passwd"
    assert str(tmp_path) not in str(refused.value.problems[0])
