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
