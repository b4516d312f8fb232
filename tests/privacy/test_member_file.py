"""A member's data as a file: the register record, every evening with its scores per round,
every season; written in the club's log."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from tournament.models import ClubLogEntry, Player

pytestmark = pytest.mark.django_db


def test_a_club_admin_downloads_everything_kept_of_a_member(director_client, season, marloes):
    response = director_client.get(reverse("member_data_download", args=[marloes.pk]))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    assert "attachment" in response["Content-Disposition"]
    data = json.loads(response.content)
    assert data["member"]["name"] == "Marloes Bakker"
    assert data["member"]["public_consent"] is True
    players = Player.objects.filter(member=marloes)
    assert len(data["tournaments"]) == players.count() == 2
    for evening in data["tournaments"]:
        assert evening["player"]["name"] == "Marloes Bakker"
        assert len(evening["rounds"]) == 2
        assert (
            sum(r["tournament_points"] for r in evening["rounds"]) == (evening["tournament_points"])
        )
        assert evening["rank"] >= 1
    (competition,) = data["seasons"]
    assert competition["competition_slug"] == season.slug
    assert competition["evenings_played"] == 2
    assert [e["evening"] for e in competition["evenings"]] == [1, 2]
    # Nobody else's name is in the member's file.
    body = response.content.decode()
    assert "Jan van der Meer" not in body and "Anna Dekker" not in body
    assert ClubLogEntry.objects.filter(
        club=season.club, action=ClubLogEntry.Action.MEMBER_FILE
    ).exists()
