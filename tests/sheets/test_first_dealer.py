"""The first dealer as the club plays it: drawn at the table, stored as a seat, rows never turn."""

from __future__ import annotations

import json
import random
import re

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse

from scoring.deals import DEAL_COUNT, bidding_order
from scoring.sheet import DealEntry, Sheet, score_sheet
from scoring.simulate import simulate_sheet
from tests.factories import played_tournament, round_completed
from tests.scoring.test_first_dealer import turned
from tests.table.helpers import XHR, link_url, save_via_link
from tournament.adapter import table_sheet
from tournament.errors import Refused
from tournament.models import Round, Table, Tournament
from tournament.sheets.first_dealer import FirstDealerRefusal, table_first_dealer
from tournament.sheets.services import sheet_record
from tournament.sheets.submission import SheetSubmission
from tournament.sheets.table_links import LinkRefusal, table_link_issue

DRAWN = Tournament.FirstDealerRule.DRAWN


@pytest.fixture
def drawn(director):
    """9 players in one published round (tables of 4 and 5), nothing entered, tables draw."""
    tournament = played_tournament(9, 1, last_round=[0, 0], director=director)
    Tournament.objects.filter(pk=tournament.pk).update(first_dealer_rule=DRAWN)
    return Tournament.objects.get(pk=tournament.pk)


def tables(tournament) -> list[Table]:
    return list(
        Table.objects.select_related("round__tournament")
        .filter(round__tournament=tournament)
        .order_by("number")
    )


def cells_of(sheet: Sheet) -> dict:
    return {
        (deal, seat): (entry.bids[seat], entry.tricks[seat])
        for deal, entry in enumerate(sheet.deals, start=1)
        for seat in range(sheet.n_seats)
    }


def test_existing_tournaments_keep_the_site_setting_the_first_dealer(transactional_db):
    executor = MigrationExecutor(connection)
    executor.migrate([("tournament", "0006_sheet_scores")])
    old = executor.loader.project_state([("tournament", "0006_sheet_scores")]).apps
    old.get_model("tournament", "Tournament").objects.create(name="Oud", slug="oud")
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    assert Tournament.objects.get(slug="oud").first_dealer_rule == Tournament.FirstDealerRule.SITE


@pytest.mark.parametrize("table_index", [0, 1])  # a table of 4 and a table of 5
def test_a_sheet_with_first_dealer_3_scores_as_the_same_sheet_turned(drawn, table_index):
    table = tables(drawn)[table_index]
    n = table.seats.count()
    game = Sheet(n, tuple(DealEntry(b, t) for b, t in simulate_sheet(n, random.Random(n))))
    # The same game written from the row of the second player down: the first dealer is row 2.
    by = n - 2
    written = turned(game, by)
    assert written.first_dealer == 2
    table_first_dealer(table=table, seat=2)
    saved = sheet_record(table=table, submission=SheetSubmission(0, cells_of(written)))
    assert saved.created
    stored = table_sheet(table).sheet
    assert stored.first_dealer == 2
    assert cells_of(stored) == cells_of(written)
    expected = score_sheet(game).totals
    assert [score_sheet(stored).totals[(seat - by) % n] for seat in range(n)] == list(expected)


def test_deal_1_waits_for_the_first_dealer_and_setting_it_is_refused_once_entered(drawn):
    table = tables(drawn)[0]
    deal_1 = {(1, 1): (0, None), (1, 2): (0, None)}
    with pytest.raises(Refused) as caught:
        sheet_record(table=table, submission=SheetSubmission(0, deal_1))
    assert caught.value.code == FirstDealerRefusal.NEEDED
    assert "Wie deelt als eerste?" in caught.value.message
    assert table_sheet(table).sheet.deals == ()

    table_first_dealer(table=table, seat=3)
    table_first_dealer(table=table, seat=1)  # a correction, while nothing is entered
    sheet_record(table=table, submission=SheetSubmission(0, deal_1))
    with pytest.raises(Refused) as caught:
        table_first_dealer(table=table, seat=0)
    assert caught.value.code == FirstDealerRefusal.SHEET_STARTED
    table.refresh_from_db()
    assert table.first_dealer_seat == 1
    with pytest.raises(Refused) as caught:
        table_first_dealer(table=table, seat=table.seats.count())  # rows count from 0
    assert caught.value.code == FirstDealerRefusal.NOT_AT_TABLE


def test_the_table_link_asks_who_deals_first_and_takes_the_answer(client, drawn, director):
    table = tables(drawn)[1]
    link = table_link_issue(table=table, by_user=director)
    page = client.get(link_url(link)).content.decode()
    assert "Wie deelt als eerste?" in page
    config = json.loads(re.search(r'id="sheet-config"[^>]*>(.*?)</script>', page, re.S)[1])
    url = reverse("table_entry_first_dealer", args=[link.token])
    names = list(table.seats.order_by("position").values_list("player__name", flat=True))
    assert config["firstDealer"] == {"needed": True, "url": url, "players": names}
    assert 'class="dealer-mark"' not in page  # no dealer marked until it is drawn

    response = client.post(url, {"seat": 2})
    assert response.status_code == 302 and response["Location"] == link_url(link)
    table.refresh_from_db()
    assert table.first_dealer_seat == 2
    page = client.get(link_url(link)).content.decode()
    config = json.loads(re.search(r'id="sheet-config"[^>]*>(.*?)</script>', page, re.S)[1])
    assert config["firstDealer"]["needed"] is False
    assert [d["order"] for d in config["deals"]] == [
        list(bidding_order(deal, len(names), 2)) for deal in range(1, DEAL_COUNT + 1)
    ]
    assert config["deals"][0]["order"][-1] == 2  # row 3 deals deal 1 and bids last
    assert page.count('class="dealer-mark"') == DEAL_COUNT
    assert f"{names[2]} deelt als eerste." in page

    answer = client.post(url, {"seat": 3}, **XHR)  # the phone's script: JSON
    assert answer.json() == {"outcome": "saved", "firstDealer": 3}
    assert save_via_link(client, link, {(1, 0): (0, None)}).status_code == 200
    refused = client.post(url, {"seat": 0}, **XHR)
    assert refused.status_code == 409
    assert refused.json()["message"] == str(FirstDealerRefusal.SHEET_STARTED.label)


def test_the_first_dealer_link_refuses_a_wrong_token_a_stranger_seat_and_a_closed_round(
    client, drawn, director
):
    table = tables(drawn)[0]
    link = table_link_issue(table=table, by_user=director)
    url = reverse("table_entry_first_dealer", args=[link.token])
    assert (
        client.post(reverse("table_entry_first_dealer", args=["x" * 43]), {"seat": 0}).status_code
        == 404
    )
    assert client.get(url).status_code == 405
    for value in ("", "abc", "-1", "9", "5" * 30):
        assert client.post(url, {"seat": value}, **XHR).status_code == 400
    round_completed(drawn.rounds.get())
    Round.objects.create(tournament=drawn, number=2, published=True)
    refused = client.post(url, {"seat": 1}, **XHR)
    assert refused.status_code == 409
    assert refused.json()["message"] == str(LinkRefusal.ROUND_CLOSED.label)
    table.refresh_from_db()
    assert table.first_dealer_seat is None


def test_the_round_page_asks_each_table_that_has_not_drawn(director_client, drawn):
    url = reverse("round_detail", args=[drawn.slug, 1])
    page = director_client.get(url).content.decode()
    assert page.count("Wie deelt als eerste?") == 2
    first = tables(drawn)[0]
    answer = director_client.post(
        reverse("table_first_dealer", args=[drawn.slug, 1, 1]), {"seat": 1, "back": "round"}
    )
    assert answer["Location"] == url
    first.refresh_from_db()
    assert first.first_dealer_seat == 1
    assert director_client.get(url).content.decode().count("Wie deelt als eerste?") == 1


def test_the_setting_is_on_the_tournament_settings_page(director_client, drawn):
    page = director_client.get(reverse("tournament_edit", args=[drawn.slug])).content.decode()
    assert "De site bepaalt de eerste deler" in page
    assert "De tafel trekt de eerste deler" in page


def test_under_the_site_rule_the_top_row_deals_first_and_nothing_is_asked(client, director):
    tournament = played_tournament(8, 1, last_round=[0, 0], director=director)
    table = tables(tournament)[0]
    link = table_link_issue(table=table, by_user=director)
    page = client.get(link_url(link)).content.decode()
    assert "Wie deelt als eerste?" not in page
    assert page.count('class="dealer-mark"') == DEAL_COUNT
    assert save_via_link(client, link, {(1, 1): (0, None)}).status_code == 200
