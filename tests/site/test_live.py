"""The live document the public pages poll (ETag, 304), and a player's own page."""

import json

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import played_tournament
from tournament.models import Player, Round, Seat, Table
from tournament.sheets.services import sheet_record
from tournament.sheets.submission import SheetSubmission
from tournament.standings.selectors import tournament_standings
from tournament.standings.tables import standings_for_public

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament():
    return played_tournament(8, rounds=2, last_round=[5, 0], public=True)


@pytest.fixture
def delayed(settings):
    settings.PUBLIC_STANDINGS_SECONDS = 60
    cache.clear()
    yield
    cache.clear()


def live(client, tournament, tag=None):
    headers = {"If-None-Match": tag} if tag else {}
    return client.get(reverse("public_live", args=[tournament.slug]), headers=headers)


def play_first_deal(tournament) -> None:
    """Table 2 of round 2 (nothing entered yet) plays deal 1: seat 1 bolt, the others keep."""
    table = Table.objects.get(round__tournament=tournament, round__number=2, number=2)
    cells = {(1, seat): (0, 1 if seat == 0 else 0) for seat in range(table.seats.count())}
    sheet_record(
        table=table,
        submission=SheetSubmission(cells=cells, penalties=(), base_version=0, idempotency_key=None),
    )


def test_the_live_document_holds_what_the_public_pages_show(client, tournament):
    response = live(client, tournament)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Cache-Control"] == "no-cache"
    data = json.loads(response.content)
    public = standings_for_public(tournament)
    assert data["standings"]["rounds"] == list(public.rounds)
    assert [(r["rank"], r["name"], r["tournament_points"]) for r in data["standings"]["rows"]] == [
        (r["rank"], r["name"], r["tournament_points"]) for r in public.rows
    ]
    assert [c for r in data["standings"]["rows"] for c in r["per_round_cells"]] == [
        list(c) for r in public.rows for c in r["per_round_cells"]
    ]
    assert data["standings"]["count_unconfirmed"] is True
    seated = Seat.objects.filter(round__tournament=tournament, round__number=2)
    assert data["seating"]["round"] == 2
    assert sorted((p["player"], p["table"]) for p in data["seating"]["places"]) == sorted(
        seated.values_list("player_id", "table__number")
    )
    assert {"computed_at", "time"} <= data.keys()


def test_the_live_document_is_404_unless_the_public_pages_are_on(client):
    hidden = played_tournament(8, rounds=1, public=False)
    assert live(client, hidden).status_code == 404
    assert client.get("/p/no-such-tournament/live.json").status_code == 404


def test_the_live_document_is_read_only(client, tournament):
    response = client.post(reverse("public_live", args=[tournament.slug]))
    assert response.status_code == 405


def test_a_current_tag_is_answered_304_without_a_body(client, tournament):
    first = live(client, tournament)
    tag = first["ETag"]
    assert tag.startswith('"') and tag.endswith('"') and not tag.startswith("W/")
    again = live(client, tournament, tag)
    assert again.status_code == 304
    assert again.content == b""
    assert again["ETag"] == tag
    assert again["Cache-Control"] == "no-cache"
    # A list of tags, or the weak form of the same tag, matches too; another tag does not.
    assert live(client, tournament, f'"old", W/{tag}').status_code == 304
    assert live(client, tournament, '"old"').status_code == 200


def test_the_tag_changes_when_a_sheet_is_saved(client, tournament):
    before = live(client, tournament)["ETag"]
    play_first_deal(tournament)
    after = live(client, tournament, before)
    assert after.status_code == 200
    assert after["ETag"] != before
    assert live(client, tournament, after["ETag"]).status_code == 304


def _site_queries(queries) -> list[str]:
    """The site's own queries, without the database cache's (``CACHE=database``, the default
    on PostgreSQL: a get, perhaps a set in a savepoint)."""
    from django.conf import settings

    return [
        q["sql"]
        for q in queries
        if settings.CACHE_TABLE not in q["sql"] and "SAVEPOINT" not in q["sql"].upper()
    ]


def test_while_the_standings_are_kept_a_poll_costs_one_query(client, tournament, delayed):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    tag = live(client, tournament)["ETag"]
    play_first_deal(tournament)
    with CaptureQueriesContext(connection) as queries:
        assert live(client, tournament, tag).status_code == 304
    assert len(_site_queries(queries)) <= 1  # the tournament, nothing that scores sheets
    with CaptureQueriesContext(connection) as queries:  # a page opened now: the kept document
        kept = live(client, tournament)
    assert len(_site_queries(queries)) <= 1
    assert kept["ETag"] == tag
    cache.clear()  # the delay is over: the saved deal shows
    fresh = live(client, tournament, tag)
    assert fresh.status_code == 200
    assert fresh["ETag"] != tag


def test_the_same_standings_give_the_same_tag_in_every_process(client, tournament, delayed):
    """Each gunicorn process may keep its own cache: the tag must not depend on when a
    process computed the standings."""
    first = live(client, tournament)
    cache.clear()  # as another process, which computes them at another time
    second = live(client, tournament, first["ETag"])
    assert second.status_code == 304
    cache.clear()
    assert live(client, tournament)["ETag"] == first["ETag"]


def test_counting_unconfirmed_sheets_or_not_changes_the_tag_at_once(client, tournament, delayed):
    play_first_deal(tournament)
    tag = live(client, tournament)["ETag"]
    tournament.count_unconfirmed = False
    tournament.save(update_fields=["count_unconfirmed"])
    response = live(client, tournament, tag)
    assert response.status_code == 200
    assert json.loads(response.content)["standings"]["count_unconfirmed"] is False


def test_a_draft_round_is_not_in_the_live_seating(client, tournament):
    Round.objects.filter(tournament=tournament, number=2).update(published=False)
    assert json.loads(live(client, tournament).content)["seating"]["round"] == 1


# ---- a player's own page ----


def player_url(tournament, player_id: int) -> str:
    return reverse("public_player", args=[tournament.slug, player_id])


def test_where_do_i_sit_links_each_name_to_the_players_page(client, tournament):
    player = Player.objects.filter(tournament=tournament).order_by("pk").first()
    response = client.get(reverse("public_home", args=[tournament.slug]), {"q": player.name})
    assert f'href="{player_url(tournament, player.pk)}"' in response.content.decode()
    assert response.context["live"]["players"] == [
        p.pk for p in Player.objects.filter(tournament=tournament) if player.name in p.name
    ]


def test_a_players_page_shows_tables_opponents_and_points_per_round(client, tournament):
    standings = tournament_standings(tournament)
    best = standings.rows[0]
    response = client.get(player_url(tournament, best.player))
    assert response.status_code == 200
    page = response.context["page"]
    assert page.rank == 1
    assert page.tournament_points == best.tournament_points
    assert [r.number for r in page.rounds] == [1, 2]
    for played in page.rounds:
        seat = Seat.objects.select_related("table").get(
            round__tournament=tournament, round__number=played.number, player_id=best.player
        )
        assert played.table == seat.table.number
        others = Seat.objects.filter(table=seat.table).exclude(player_id=best.player)
        assert sorted(played.opponents) == sorted(s.player.name for s in others)
        assert played.tournament_points == best.per_round.get(played.number)
    html = response.content.decode()
    assert "Plaats 1 van 8" in html
    assert f"Tafel {page.rounds[0].table}, stoel {page.rounds[0].seat}" in html


def test_a_players_page_marks_provisional_and_unstarted_rounds(client, tournament):
    table = Table.objects.get(round__tournament=tournament, round__number=2, number=2)
    waiting = table.seats.first().player_id
    page = client.get(player_url(tournament, waiting)).context["page"]
    assert page.rounds[1].tournament_points is None
    assert "Nog niet begonnen." in client.get(player_url(tournament, waiting)).content.decode()
    play_first_deal(tournament)  # saved on the site, confirmed by nobody: provisional
    page = client.get(player_url(tournament, waiting)).context["page"]
    assert page.rounds[1].provisional
    assert page.rounds[1].deals_played == 1
    tournament.count_unconfirmed = False
    tournament.save(update_fields=["count_unconfirmed"])
    response = client.get(player_url(tournament, waiting))
    assert response.context["page"].rounds[1].waiting
    assert response.context["page"].rounds[1].tournament_points is None
    assert "zodra de wedstrijdleiding" in response.content.decode()


def test_a_withdrawn_player_says_so(client, tournament):
    player = Player.objects.filter(tournament=tournament).first()
    Player.objects.filter(pk=player.pk).update(withdrawn_round=2)
    html = client.get(player_url(tournament, player.pk)).content.decode()
    assert "Afgemeld vanaf ronde 2" in html


def test_a_draft_round_stays_off_the_players_page(client, tournament):
    Round.objects.filter(tournament=tournament, number=2).update(published=False)
    player = Player.objects.filter(tournament=tournament).first()
    page = client.get(player_url(tournament, player.pk)).context["page"]
    assert [r.number for r in page.rounds] == [1]


def test_a_players_page_is_404_for_another_tournament_or_when_not_public(client, tournament):
    other = played_tournament(8, rounds=1, public=True, seed=3)
    stranger = Player.objects.filter(tournament=other).first()
    assert client.get(player_url(tournament, stranger.pk)).status_code == 404
    assert client.get(player_url(tournament, 999_999)).status_code == 404
    hidden = played_tournament(8, rounds=1, public=False, seed=4)
    player = Player.objects.filter(tournament=hidden).first()
    assert client.get(player_url(hidden, player.pk)).status_code == 404


def test_a_players_page_reads_as_many_queries_for_six_rounds_as_for_one(client):
    counts = []
    for rounds in (1, 6):
        tournament = played_tournament(20, rounds=rounds, public=True, seed=rounds)
        player = Player.objects.filter(tournament=tournament).first()
        with CaptureQueriesContext(connection) as queries:
            response = client.get(player_url(tournament, player.pk))
        assert len(response.context["page"].rounds) == rounds
        counts.append(len(queries))
    assert counts[0] == counts[1]
    assert counts[1] <= 12
