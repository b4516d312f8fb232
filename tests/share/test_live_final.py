"""The live document says whether the standings are final, follows its schema before and after
the end, and the projector turns into its final view."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.urls import reverse
from jsonschema import Draft202012Validator

from tests.factories import played_tournament
from tournament.models import Tournament
from tournament.tournaments.finish import tournament_finish, tournament_reopen

SCHEMA = Path(__file__).resolve().parents[2] / "tournament" / "formats" / "live-v1.schema.json"


@pytest.fixture(scope="module")
def validator() -> Draft202012Validator:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)


def _planned(tournament: Tournament) -> Tournament:
    Tournament.objects.filter(pk=tournament.pk).update(rounds_planned=2, prize_last_place=True)
    tournament.refresh_from_db()
    return tournament


def live(client, tournament) -> dict:
    response = client.get(reverse("public_live", args=[tournament.slug]))
    assert response.status_code == 200
    return json.loads(response.content)


def screen(client, tournament) -> str:
    return client.get(reverse("public_screen", args=[tournament.slug])).content.decode()


def test_the_schemas_examples_follow_it(validator):
    for example in validator.schema["examples"]:
        validator.validate(example)


@pytest.mark.django_db
def test_during_the_last_round_the_live_document_is_not_final(client, director, validator):
    # Round 2's last table is still at deal 5.
    tournament = _planned(played_tournament(9, 2, last_round=[11, 5], public=True))
    during = live(client, tournament)
    validator.validate(during)
    assert during["final"] is False
    standings = during["standings"]
    state = (standings["rounds_complete"], standings["after_round"], standings["in_play"])
    assert state == ([1], 1, [2])
    assert standings["any_provisional"] is True
    assert any(row["provisional"] for row in standings["rows"])
    assert not any(row["prize"] or row["loser"] for row in standings["rows"])
    # The projector says the state, names no winner, and shows the seating.
    page = screen(client, tournament)
    assert "Stand na ronde 1, ronde 2 wordt gespeeld (voorlopig)" in page
    assert 'data-live="podium-section" hidden' in page
    assert 'data-live="seating" hidden' not in page


@pytest.mark.django_db
def test_once_finished_the_live_document_is_final_and_the_projector_shows_the_prizes(
    client, director, validator
):
    tournament = _planned(played_tournament(9, 2, director=director, public=True))
    before = live(client, tournament)
    validator.validate(before)
    assert before["final"] is False  # every round complete, but not finished
    tournament = tournament_finish(tournament=tournament, by_user=director)
    after = live(client, tournament)
    validator.validate(after)
    assert after["final"] is True and after["seating"]["finished"] is True
    standings = after["standings"]
    state = (standings["rounds_complete"], standings["after_round"], standings["in_play"])
    assert state == ([1, 2], 2, [])
    rows = standings["rows"]
    assert not any(row["provisional"] for row in rows)
    assert [row["prize"] for row in rows] == [row["rank"] <= 3 for row in rows]
    last = max(row["rank"] for row in rows)
    assert [row["loser"] for row in rows] == [row["rank"] == last for row in rows]

    page = screen(client, tournament)
    assert 'class="screen final"' in page
    assert 'data-live="podium-section" hidden' not in page
    assert 'data-live="seating" hidden' in page
    assert page.count('<li class="place-') == sum(row["prize"] for row in rows)
    assert "Eindstand, " in page and "de verliezer" in page

    tournament_reopen(tournament=tournament, by_user=director)
    assert live(client, tournament)["final"] is False
