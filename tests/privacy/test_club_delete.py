"""Deleting a whole club: what goes is said first, the club's name typed to confirm, and the
other club untouched."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import played_tournament
from tournament.clubs.services import club_create
from tournament.models import (
    Club,
    ClubRole,
    Competition,
    Member,
    Player,
    SheetVersion,
    Tournament,
)
from tournament.season.services import CompetitionSettings, competition_create
from tournament.tournament_file.backups import tournament_backup

pytestmark = pytest.mark.django_db


def _club_with_a_season(name, admin):
    club = club_create(name=name, admin=admin)
    tournaments = [
        played_tournament(6, rounds=1, seed=seed, club=club, director=admin) for seed in (1, 2)
    ]
    competition_create(
        club=club,
        settings=CompetitionSettings(name="Competitie", season="2026"),
        tournaments=tournaments,
    )
    return club


def _held(club):
    return (
        Tournament.objects.filter(club=club).count(),
        Member.objects.filter(register=club).count(),
        Competition.objects.filter(club=club).count(),
        Player.objects.filter(tournament__club=club).count(),
        SheetVersion.objects.filter(table__round__tournament__club=club).count(),
    )


def test_a_club_admin_deletes_their_club_and_the_other_club_stays(
    client, django_user_model, settings, tmp_path, django_capture_on_commit_callbacks
):
    settings.BACKUP_DIR = tmp_path
    a_admin = django_user_model.objects.create_user("a-admin", password="x")
    b_admin = django_user_model.objects.create_user("b-admin", password="x")
    club_a = _club_with_a_season("BC Klaverbol", a_admin)
    club_b = _club_with_a_season("BC Buren", b_admin)
    b_before = _held(club_b)
    backup_a = tournament_backup(tournament=club_a.tournaments.first(), label="final")
    backup_b = tournament_backup(tournament=club_b.tournaments.first(), label="final")

    client.force_login(a_admin)
    page = client.get(reverse("club_delete") + f"?club={club_a.slug}").content.decode()
    assert "2 toernooien" in page and "6 leden" in page

    wrong = client.post(reverse("club_delete"), {"typed": "BC Buren", "club_slug": club_a.slug})
    assert wrong.status_code == 422
    assert "precies zoals getoond" in wrong.content.decode()
    assert Club.objects.filter(pk=club_a.pk).exists()

    with django_capture_on_commit_callbacks(execute=True):
        done = client.post(
            reverse("club_delete"), {"typed": " bc klaverbol ", "club_slug": club_a.slug}
        )
    assert done.status_code == 302
    assert not Club.objects.filter(pk=club_a.pk).exists()
    assert _held(club_a) == (0, 0, 0, 0, 0)
    assert not ClubRole.objects.filter(user=a_admin).exists()
    assert django_user_model.objects.filter(pk=a_admin.pk).exists()  # the account stays
    assert not backup_a.exists()
    assert _held(club_b) == b_before and backup_b.exists()
    assert ClubRole.objects.filter(club=club_b, user=b_admin).exists()


def test_a_club_never_touches_another_clubs_backups_under_a_reused_short_name(
    django_user_model, settings, tmp_path, django_capture_on_commit_callbacks
):
    """Club Alpha deletes an evening (its backup is what "put back" needs); club Delta then
    takes the freed short name, so both clubs' files share one backup folder. Delta erasing a
    member and then deleting itself touch only Delta's files; Alpha can still put it back."""
    from tournament.models import CompetitionEvening, EveningRemoval
    from tournament.privacy.services import club_delete, member_erase
    from tournament.season.evenings import evening_delete, evening_put_back

    settings.BACKUP_DIR = tmp_path
    alpha_admin = django_user_model.objects.create_user("alpha-admin", password="x")
    delta_admin = django_user_model.objects.create_user("delta-admin", password="x")
    alpha = _club_with_a_season("Club Alpha", alpha_admin)
    delta = _club_with_a_season("Club Delta", delta_admin)
    evening = CompetitionEvening.objects.filter(competition__club=alpha).first()
    slug = evening.tournament.slug
    (removal,) = evening_delete(evening=evening, by=alpha_admin)
    alpha_file = tmp_path / removal.backup
    alpha_bytes = alpha_file.read_bytes()
    assert "Speler 1" in alpha_bytes.decode()  # the name Delta erases below: Alpha's stays

    taken = Tournament.objects.filter(club=delta).first()
    Tournament.objects.filter(pk=taken.pk).update(slug=slug)
    taken.refresh_from_db()
    delta_file = tournament_backup(tournament=taken, label="round-1")
    assert delta_file.parent == alpha_file.parent

    member = Member.objects.get(register=delta, name="Speler 1")
    with django_capture_on_commit_callbacks(execute=True):
        member_erase(member=member, by=delta_admin)
    assert "Speler 1" not in delta_file.read_text(encoding="utf-8")
    assert alpha_file.read_bytes() == alpha_bytes

    with django_capture_on_commit_callbacks(execute=True):
        club_delete(club=delta, typed="Club Delta")
    assert not delta_file.exists()
    assert alpha_file.read_bytes() == alpha_bytes

    put_back = evening_put_back(removal=EveningRemoval.objects.get(pk=removal.pk))
    assert put_back.tournament.slug == slug and put_back.tournament.club == alpha

    # Alpha's own deletion takes its files, the deleted evening's backup with them.
    alpha.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        club_delete(club=alpha, typed="Club Alpha")
    assert not alpha_file.exists()


def test_only_files_written_in_the_tournaments_life_are_its_own(settings, tmp_path, director):
    """A club's short name may come back too (a club deleted, a new one named alike): a file
    written before the tournament was made, or after it was deleted, is not its own."""
    from datetime import timedelta

    from tournament.privacy.backups import Owner, backups_remove

    settings.BACKUP_DIR = tmp_path
    tournament = played_tournament(6, rounds=1, director=director)
    file = tournament_backup(tournament=tournament, label="round-1")
    mine = Owner(slug=tournament.slug, club=tournament.club.slug, since=tournament.created_at)
    later = mine.since + timedelta(hours=1)
    assert backups_remove([Owner(mine.slug, mine.club, since=later)]) == 0
    earlier = mine.since - timedelta(hours=2)
    assert backups_remove([Owner(mine.slug, mine.club, since=earlier, until=earlier)]) == 0
    assert backups_remove([Owner(mine.slug, "another-club", since=mine.since)]) == 0
    assert file.exists()
    assert backups_remove([mine]) == 1
    assert not file.exists() and not file.parent.exists()
