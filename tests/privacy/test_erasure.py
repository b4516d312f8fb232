"""Erasing a member: "Oud-lid N" everywhere the member was, everybody's standings unchanged,
the erasure in the club's log, the old name gone from the backups and the public pages."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from tournament.models import ClubLogEntry, Member, Player, Tournament
from tournament.season.selectors import season_of
from tournament.standings.tables import standings_table_rows
from tournament.tournament_file.backups import tournament_backup

pytestmark = pytest.mark.django_db

KEYS = ("rank", "player_id", "tournament_points", "bollen", "correct", "points")


def _tournament_rows(tournament):
    rows, _rounds = standings_table_rows(tournament)
    return [{k: row[k] for k in KEYS} for row in rows], [row["name"] for row in rows]


def _season_rows(competition):
    season = season_of(competition)
    rows = [(r.rank, r.member, r.points, r.bollen, r.correct, r.played) for r in season.rows]
    return rows, [season.members[r.member].name for r in season.rows]


def test_erasing_a_member_changes_their_name_and_nothing_else(
    director_client, season, marloes, evening, django_capture_on_commit_callbacks
):
    tournaments = list(Tournament.objects.filter(players__member=marloes).distinct())
    assert len(tournaments) == 2
    backup = tournament_backup(tournament=tournaments[0], label="round-2")
    before = {t.pk: _tournament_rows(t) for t in tournaments}
    season_before = _season_rows(season)

    with django_capture_on_commit_callbacks(execute=True):
        response = director_client.post(
            reverse("member_erase", args=[marloes.pk]), {"confirm": "erase"}
        )
    assert response.status_code == 302

    marloes.refresh_from_db()
    assert (marloes.name, marloes.club, marloes.number) == ("Oud-lid 1", "", "")
    assert set(Player.objects.filter(member=marloes).values_list("name", flat=True)) == {
        "Oud-lid 1"
    }
    for t in tournaments:
        rows, names = _tournament_rows(t)
        old_rows, old_names = before[t.pk]
        assert rows == old_rows  # everybody's place and scores as they were
        assert [n for n in names if n != "Oud-lid 1"] == [
            n for n in old_names if n != "Marloes Bakker"
        ]
        assert "Marloes Bakker" not in names
    rows, names = _season_rows(season)
    assert rows == season_before[0]
    assert "Oud-lid 1" in names and "Marloes Bakker" not in names

    # Gone, not hidden: the backups, the public pages, the log say no old name.
    assert "Marloes Bakker" not in backup.read_text(encoding="utf-8")
    assert "Oud-lid 1" in json.dumps(json.loads(backup.read_text(encoding="utf-8")))
    visitor = Client()
    for url in (
        reverse("public_standings", args=[evening.slug]),
        reverse("public_live", args=[evening.slug]),
        reverse("public_season", args=[season.slug]),
    ):
        assert "Marloes" not in visitor.get(url).content.decode()
    entry = ClubLogEntry.objects.get(club=season.club, action=ClubLogEntry.Action.ERASED)
    assert "Oud-lid 1" in entry.text and "Marloes" not in entry.text
    assert entry.by_name == "director"
    log = director_client.get(reverse("club_log")).content.decode()
    assert "Oud-lid 1" in log

    # The next erasure gets the next number, never one used before.
    jan = Member.objects.get(register=season.club, name="Jan van der Meer")
    director_client.post(reverse("member_erase", args=[jan.pk]), {"confirm": "erase"})
    jan.refresh_from_db()
    assert jan.name == "Oud-lid 2"


def test_erasure_needs_the_box_ticked(director_client, marloes):
    url = reverse("member_erase", args=[marloes.pk])
    assert "Oud-lid" in director_client.get(url).content.decode()
    director_client.post(url, {})
    marloes.refresh_from_db()
    assert marloes.name == "Marloes Bakker"
    assert not ClubLogEntry.objects.filter(action=ClubLogEntry.Action.ERASED).exists()
