"""The sheet page as a plain HTML form: who may see it, what it shows, what a save does."""

from __future__ import annotations

import re
import uuid

import pytest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape
from django.utils.translation import gettext as _

from scoring.deals import DEAL_COUNT
from scoring.errors import ErrorCode
from scoring.sheet import casual_losers
from tests.factories import played_tournament
from tests.sheets.helpers import DEAL_1, DEAL_2, form_data, names, stored_cells, stored_penalties
from tournament.adapter import table_sheet
from tournament.errors import RULE_MESSAGES, deal_name
from tournament.models import SheetVersion, Table
from tournament.sheets.forms import SheetForm
from tournament.sheets.views import EMPTY

pytestmark = pytest.mark.django_db


def dutch_label(kind: str, player: str, deal: int) -> str:
    """A box's name for screen readers, as the Dutch page says it."""
    with translation.override("nl"):
        text = (
            _("Bid of %(player)s, %(deal)s")
            if kind == "bid"
            else _("Tricks of %(player)s, %(deal)s")
        )
        return text % {"player": player, "deal": deal_name(deal)}


def url(table: Table, name: str = "sheet_edit") -> str:
    return reverse(name, args=[table.round.tournament.slug, table.round.number, table.number])


def restore_url(table: Table, version: SheetVersion) -> str:
    """The address that restores ``version`` on ``table``'s sheet."""
    return reverse(
        "sheet_version_restore",
        args=[table.round.tournament.slug, table.round.number, table.number, version.pk],
    )


def restore_data(base_version: int) -> dict[str, str]:
    return {"base_version": str(base_version), "idempotency_key": str(uuid.uuid4())}


def test_anonymous_visitors_are_sent_to_sign_in(client, empty_table):
    response = client.get(url(empty_table))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_a_signed_in_user_who_does_not_direct_the_tournament_is_refused(
    client, django_user_model, empty_table
):
    client.force_login(django_user_model.objects.create_user("other", password="x" * 12))
    assert client.get(url(empty_table)).status_code == 403
    assert client.post(url(empty_table), form_data(4, DEAL_1)).status_code == 403
    assert not stored_cells(empty_table)


def test_an_unknown_table_is_not_found(director_client, tournament):
    response = director_client.get(reverse("sheet_edit", args=[tournament.slug, 1, 9]))
    assert response.status_code == 404
    response = director_client.get(reverse("sheet_edit", args=[tournament.slug, 7, 1]))
    assert response.status_code == 404


def test_the_page_shows_the_paper_form(director_client, played_table):
    response = director_client.get(url(played_table))
    assert response.status_code == 200
    page = response.content.decode()
    labels = re.findall(r'<span class="label">([^<]+)</span>', page)
    assert labels == ["1", "2", "3", "4", "5", "5Z", "5B", "4", "3", "2", "1"]
    assert page.count('class="dealer-mark"') == DEAL_COUNT
    players = names(played_table)
    for name in players:
        assert f'<th scope="row" class="name">{name}</th>' in page
    assert f'aria-label="{dutch_label("bid", players[1], 3)}"' in page
    assert page.count('inputmode="numeric"') == 2 * DEAL_COUNT * 4
    assert reverse("round_detail", args=[played_table.round.tournament.slug, 1]) in page
    rows = response.context["rows"]
    result = response.context["result"]
    assert result["deals_complete"] == 3
    totals = [row.totals for row in rows]
    assert all(t is not None for t in totals)
    # Tournament points are points + 2 x correct - 2 x bollen.
    assert all(
        t["tournament_points"] == t["points"] + 2 * t["correct"] - 2 * t["bollen"] for t in totals
    )


def test_no_box_has_a_tabindex_and_the_boxes_follow_the_paper_form(director_client, empty_table):
    """Tab follows the document order (a row per player, bid then tricks per deal); the
    bidding order comes from the script moving the focus, never from a positive tabindex."""
    page = director_client.get(url(empty_table)).content.decode()
    assert not re.search(r'tabindex="[1-9]', page)
    boxes = re.findall(r'<input [^>]*class="box"[^>]*>', page)
    order = [
        (
            int(re.search(r'data-seat="(\d+)"', b).group(1)),
            int(re.search(r'data-deal="(\d+)"', b).group(1)),
            re.search(r'data-kind="(\w+)"', b).group(1),
        )
        for b in boxes
    ]
    assert order == [
        (seat, deal, kind)
        for seat in range(4)
        for deal in range(1, DEAL_COUNT + 1)
        for kind in ("bid", "tricks")
    ]
    assert all("aria-label=" in b for b in boxes)


def test_a_legal_partial_sheet_is_saved(director_client, director, empty_table):
    partial = {**DEAL_1, (2, 2): (1, None)}
    response = director_client.post(url(empty_table), form_data(4, partial))
    assert response.status_code == 302
    assert stored_cells(empty_table) == partial
    version = SheetVersion.objects.get(table=empty_table)
    assert (version.number, version.user, version.via) == (1, director, "director")
    page = director_client.get(response["Location"]).content.decode()
    assert 'name="base_version" value="1"' in page


def test_the_dealer_making_the_bids_add_up_is_refused_at_the_dealers_box(
    director_client, empty_table
):
    players = names(empty_table)
    forbidden = {(1, 1): (0, None), (1, 2): (0, None), (1, 3): (0, None), (1, 0): (1, None)}
    response = director_client.post(url(empty_table), form_data(4, forbidden))
    assert response.status_code == 422
    form = response.context["form"]
    (problem,) = form.problems
    assert (problem.code, problem.deal, problem.player) == (ErrorCode.DEALER_BID, 1, players[0])
    assert form.cell_form(1, 0).has_error("bid", code=ErrorCode.DEALER_BID)
    page = response.content.decode()
    with translation.override("nl"):
        message = str(RULE_MESSAGES[ErrorCode.DEALER_BID]) % {"bid": 1, "hand_size": 1}
    # At the dealer's bid box:
    assert f'<span class="error server" data-kind="bid">{message}</span>' in page
    assert str(problem) in page  # in the list above the sheet, naming deal and player
    assert players[0] in str(problem)
    assert not stored_cells(empty_table)
    assert not SheetVersion.objects.filter(table=empty_table).exists()


def test_tricks_that_do_not_add_up_are_refused(director_client, empty_table):
    wrong = {**DEAL_1, (1, 1): (1, 0)}  # nobody took the one trick
    response = director_client.post(url(empty_table), form_data(4, wrong))
    assert response.status_code == 422
    form = response.context["form"]
    assert [p.code for p in form.problems] == [ErrorCode.TRICKS_SUM]
    assert form.deal_errors[1]
    assert 'id="deal-msg-1"><span class="error server">' in response.content.decode()
    assert not stored_cells(empty_table)


def test_a_box_holding_something_else_than_a_digit_is_refused(director_client, empty_table):
    data = form_data(4, DEAL_1)
    data["cell-1-bid"] = "x"
    response = director_client.post(url(empty_table), data)
    assert response.status_code == 422
    assert response.context["form"].cell_form(1, 1).has_error("bid")
    assert not stored_cells(empty_table)


def test_a_penalty_bol_is_added_and_removed(director_client, empty_table):
    director_client.post(url(empty_table), form_data(4, DEAL_1, [(1, 2)]))
    assert stored_penalties(empty_table) == [(1, 2)]
    page = director_client.get(url(empty_table)).content.decode()
    assert "Een ● achter de score van een spel: een strafbol (verzaakt) in dat spel." in page
    # As the script writes it (JSON.stringify), so a poll with the same penalties redraws nothing.
    assert '<section id="penalties" class="card" data-penalties="[[1,2]]">' in page
    director_client.post(
        url(empty_table), form_data(4, DEAL_1, [(1, 2)], base_version=1, removed=[0])
    )
    assert not stored_penalties(empty_table)
    assert SheetVersion.objects.filter(table=empty_table).count() == 2


def test_two_saves_from_the_same_version_one_wins_and_the_other_sees_both(
    director_client, empty_table
):
    theirs = {**DEAL_1, **DEAL_2}
    mine = {**DEAL_1, (2, 2): (2, None)}
    assert director_client.post(url(empty_table), form_data(4, theirs)).status_code == 302
    response = director_client.post(url(empty_table), form_data(4, mine))
    assert response.status_code == 409
    page = response.content.decode()
    conflict = response.context["conflict"]
    assert (conflict["base"], conflict["current"]) == (0, 1)
    differing = {(c["deal"], c["player"], c["before"], c["after"]) for c in conflict["changes"]}
    with translation.override("nl"):
        deal_2 = deal_name(2)
    assert (deal_2, names(empty_table)[2], 0, 2) in differing
    assert 'name="base_version" value="1"' in page  # saving again puts mine over theirs
    assert re.search(r'name="cell-6-bid"[^>]* value="2"', page)  # my input is still there
    assert stored_cells(empty_table) == theirs
    kept = SheetVersion.objects.get(table=empty_table, number__isnull=True)
    assert kept.base_number == 0


def test_the_same_post_twice_is_stored_once(director_client, empty_table):
    data = form_data(4, DEAL_1, key=uuid.uuid4())
    first = director_client.post(url(empty_table), data)
    second = director_client.post(url(empty_table), data)
    assert first.status_code == second.status_code == 302
    assert SheetVersion.objects.filter(table=empty_table).count() == 1
    assert stored_cells(empty_table) == DEAL_1


def test_json_saves_answer_with_the_version_and_the_servers_scores(director_client, empty_table):
    response = director_client.post(
        url(empty_table), form_data(4, DEAL_1), headers={"X-Requested-With": "XMLHttpRequest"}
    )
    assert response.status_code == 200
    data = response.json()
    assert (data["outcome"], data["version"], data["status"]) == ("saved", 1, "progress")
    assert data["cells"][0][1] == {"state": "kept", "score": "+3", "penalties": 0}
    assert data["cells"][0][2]["state"] == "bol"
    assert data["totals"][1] == {"bollen": 0, "points": 1, "correct": 1, "tournament_points": 3}


def test_json_saves_redraw_the_penalty_bollen_as_the_page_draws_them(director_client, empty_table):
    response = director_client.post(
        url(empty_table),
        form_data(4, DEAL_1, [(1, 2)]),
        headers={"X-Requested-With": "XMLHttpRequest"},
    )
    data = response.json()
    assert data["penalties"] == [[1, 2]]
    stored = table_sheet(empty_table).sheet
    page = SheetForm(players=names(empty_table), stored=stored, version=1)
    drawn = render_to_string("sheets/_penalties.html", {"form": page})
    assert data["penalties_html"] == drawn
    # The third player's penalty bol in deal 1: in words, its values in hidden fields.
    assert 'type="hidden" name="penalty-0-seat" value="2"' in drawn
    assert f"{deal_name(1).capitalize()}: {names(empty_table)[2]}</span>" in drawn


def test_json_problems_name_each_box(director_client, empty_table):
    data = form_data(4, DEAL_1)
    data["cell-1-bid"] = "x"  # not a digit: the form itself refuses it, at its box
    response = director_client.post(
        url(empty_table), data, headers={"X-Requested-With": "XMLHttpRequest"}
    )
    assert response.status_code == 422
    data = response.json()
    assert data["outcome"] == "problems"
    assert [(b["deal"], b["seat"], b["kind"]) for b in data["boxes"]] == [(1, 1, "bid")]


def test_a_penalty_bol_without_its_deal_or_player_says_which_is_missing(
    director_client, empty_table
):
    players = names(empty_table)
    without_deal = form_data(4, DEAL_1)
    without_deal["penalty-0-seat"] = "2"  # the new row: a player, no deal
    response = director_client.post(
        url(empty_table), without_deal, headers={"X-Requested-With": "XMLHttpRequest"}
    )
    assert response.status_code == 422
    data = response.json()
    with translation.override("nl"):
        assert data["penalties"] == [
            _("Penalty bol of %(player)s: choose the deal in which they revoked.")
            % {"player": players[2]}
        ]
        assert data["summary"] == [
            _("A penalty bol is not filled in completely; see the penalty bollen.")
        ]
        without_player = form_data(4, DEAL_1)
        without_player["penalty-0-deal"] = "1"
        page = director_client.post(url(empty_table), without_player)
        message = _("Penalty bol in %(deal)s: choose who revoked.") % {"deal": deal_name(1)}
    assert page.status_code == 422
    assert escape(message) in page.content.decode()
    assert not SheetVersion.objects.filter(table=empty_table).exists()


def test_json_conflict_answers_409_with_the_current_version(director_client, empty_table):
    director_client.post(url(empty_table), form_data(4, DEAL_1))
    response = director_client.post(
        url(empty_table),
        form_data(4, {(1, 1): (0, None)}),
        headers={"X-Requested-With": "XMLHttpRequest"},
    )
    assert response.status_code == 409
    assert response.json()["current_version"] == 1
    assert 'data-action="keep-mine"' in response.json()["html"]
    assert SheetVersion.objects.filter(table=empty_table, number__isnull=True).count() == 1


def test_the_history_lists_every_version_with_who_where_and_what_changed(
    director_client, director, empty_table
):
    director_client.post(url(empty_table), form_data(4, DEAL_1))
    director_client.post(
        url(empty_table), form_data(4, {**DEAL_1, (2, 2): (1, None)}, base_version=1)
    )
    director_client.post(
        url(empty_table), form_data(4, {**DEAL_1, (2, 2): (0, None)}, base_version=1)
    )
    response = director_client.get(url(empty_table, "sheet_history"))
    assert response.status_code == 200
    rows = response.context["rows"]
    assert [row["version"].number for row in rows] == [None, 2, 1]
    assert [len(row["changes"]) for row in rows] == [1, 1, 8]
    assert (rows[1]["changes"][0]["before"], rows[1]["changes"][0]["after"]) == (EMPTY, 1)
    page = response.content.decode()
    assert director.username in page
    assert "127.0.0.1" in page


def test_a_long_list_of_changes_opens_in_full(director_client, empty_table):
    director_client.post(url(empty_table), form_data(4, {**DEAL_1, **DEAL_2}))
    response = director_client.get(url(empty_table, "sheet_history"))
    (row,) = response.context["rows"]
    assert len(row["changes"]) == 16
    page = response.content.decode()
    with translation.override("nl"):
        assert re.search(r"<summary[^>]*>\s*en nog 4 wijzigingen\s*</summary>", page)
    for change in row["changes"]:  # the first 12 shown, the other 4 behind the summary
        line = f"{change['deal']}, {change['player']}: {change['what']}"
        assert escape(line) in page


def test_an_earlier_version_is_restored_as_a_new_version(director_client, empty_table):
    director_client.post(url(empty_table), form_data(4, DEAL_1))
    director_client.post(url(empty_table), form_data(4, {**DEAL_1, **DEAL_2}, base_version=1))
    first = SheetVersion.objects.get(table=empty_table, number=1)
    restore = restore_url(empty_table, first)
    data = restore_data(2)
    response = director_client.post(restore, data)
    assert response.status_code == 302
    assert stored_cells(empty_table) == DEAL_1
    assert SheetVersion.objects.get(table=empty_table, number=3).restored_from == first
    director_client.post(restore, data)  # a double click restores once
    assert SheetVersion.objects.filter(table=empty_table).count() == 3


def test_a_restore_from_a_stale_page_is_refused(director_client, empty_table):
    director_client.post(url(empty_table), form_data(4, DEAL_1))
    director_client.post(url(empty_table), form_data(4, {**DEAL_1, **DEAL_2}, base_version=1))
    first = SheetVersion.objects.get(table=empty_table, number=1)
    restore = restore_url(empty_table, first)
    response = director_client.post(restore, restore_data(1))
    assert response.status_code == 302
    assert response["Location"] == url(empty_table, "sheet_history")
    assert stored_cells(empty_table) == {**DEAL_1, **DEAL_2}


def test_another_tables_version_cannot_be_restored_here(director_client, empty_table, played_table):
    director_client.post(url(empty_table), form_data(4, DEAL_1))
    other = SheetVersion.objects.get(table=empty_table)
    restore = restore_url(played_table, other)
    response = director_client.post(restore, restore_data(0))
    assert response.status_code == 404


def test_player_names_are_shown_as_written(director_client, director):
    tricky = ["<script>alert(1)</script>", '="1"', "Anne & Bert", "O'Neill"]
    tournament = played_tournament(4, 1, last_round=[11], director=director, names=tricky)
    table = Table.objects.get(round__tournament=tournament)
    page = director_client.get(url(table)).content.decode()
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "=&quot;1&quot;" in page
    label = escape(dutch_label("bid", tricky[1], 1))
    assert f'aria-label="{label}"' in page
    assert "Anne &amp; Bert" in page


def test_a_complete_sheet_names_the_loser_and_the_players_without_a_bol(director_client, director):
    tournament = played_tournament(4, 1, last_round=[11], director=director, seed=5)
    table = Table.objects.select_related("round__tournament").get(round__tournament=tournament)
    response = director_client.get(url(table))
    result = table_sheet(table).result()
    players = names(table)
    shown = response.context["result"]
    assert shown["complete"]
    assert shown["losers"] == [players[seat] for seat in casual_losers(result.totals)]
    assert shown["bol_free"] == [players[seat] for seat in result.bol_free]
    with translation.override("nl"):
        heading = _("Loser:") if len(shown["losers"]) == 1 else _("Double drink (dubbel zuipen):")
    assert heading in response.content.decode()


def test_restoring_only_answers_a_form_and_only_to_a_director(client, director, empty_table):
    restore = reverse("sheet_version_restore", args=[empty_table.round.tournament.slug, 1, 1, 1])
    response = client.get(restore)
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    client.force_login(director)
    assert client.get(restore).status_code == 405
