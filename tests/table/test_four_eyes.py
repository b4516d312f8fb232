"""Four eyes, box by box: input that only its author has seen is theirs, whoever saved last
(a save merged with one from an older page, another device's held input), and re-typing one's
own input is blind: the answer says where the boxes differ, never what is stored."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import played_tournament
from tests.sheets.helpers import form_data, stored_cells, stored_penalties
from tests.table.helpers import changed_cells
from tournament.errors import Refused
from tournament.models import SheetConfirmation, SheetVersion, Table, Tournament
from tournament.sheets.authorship import sheet_unseen_input
from tournament.sheets.confirmations import (
    ConfirmMethod,
    ConfirmRefusal,
    sheet_confirm,
    sheet_confirm_methods,
    sheet_confirm_refusal,
)
from tournament.sheets.drafts import sheet_draft_token
from tournament.sheets.forms import cell_field
from tournament.sheets.selectors import sheet_latest_version
from tournament.sheets.services import sheet_record
from tournament.sheets.submission import SheetSubmission

pytestmark = pytest.mark.django_db

Rule = Tournament.ConfirmationRule
STORED_HINT = re.compile(r"opgeslagen: [0-9\u2013]")  # "stored: 2" at a box that differs


def url(name: str, table: Table) -> str:
    return reverse(name, args=[table.round.tournament.slug, table.round.number, table.number])


@pytest.fixture
def scorer(django_user_model, tournament):
    user = django_user_model.objects.create_user("teller", password="x-kaart-2026-s")
    tournament.scorers.add(user)
    return user


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def save_on_sheet_page(client: Client, table: Table, cells: dict, base: int) -> None:
    data = form_data(table.seats.count(), cells, stored_penalties(table), base_version=base)
    assert client.post(url("sheet_edit", table), data).status_code == 302


def with_deal(cells: dict, other: dict, deal: int, n_seats: int) -> dict:
    """``cells`` with ``deal`` as ``other`` has it."""
    return {**cells, **{(deal, seat): other[deal, seat] for seat in range(n_seats)}}


def test_input_merged_into_someone_elses_save_stays_its_authors(
    scorer, director, director_client, second_director, table
):
    tournament = table.round.tournament
    n = table.seats.count()
    paper = stored_cells(table)
    scorer_client = signed_in(scorer)
    # The scorer corrects deal 11 (version 1); the director, on a page drawn before that,
    # corrects deal 10: merged, version 2 is the director's and holds the scorer's deal 11,
    # which the director never had on the screen.
    save_on_sheet_page(scorer_client, table, changed_cells(table, deal=11), 0)
    save_on_sheet_page(
        director_client, table, with_deal(paper, changed_cells(table, deal=10), 10, n), 0
    )
    latest = sheet_latest_version(table)
    assert (latest.number, latest.base_number, latest.user) == (2, 0, director)
    assert sheet_unseen_input(table=table, version=latest, user_id=scorer.pk) == (11,)

    # So the scorer does not confirm it: the page says why and offers no button ...
    page = html.unescape(scorer_client.get(url("sheet_confirm", table)).content.decode())
    assert 'data-refusal="own_sheet"' in page
    assert "Deze versie bevat jouw eigen invoer in spel 11, en niemand anders heeft die gezien" in (
        page
    )
    assert "Daarom moet iemand anders uit het team deze versie bevestigen." in page
    assert 'name="version"' not in page
    # ... and the server refuses a crafted post, either way.
    scorer_client.post(url("sheet_confirm", table), {"version": "2"})
    retyped = form_data(n, stored_cells(table), stored_penalties(table), base_version=2)
    assert scorer_client.post(url("sheet_retype", table), retyped).status_code == 409
    assert not SheetConfirmation.objects.exists()
    # Where re-typing confirms, the scorer re-types it (blind, as their own sheet).
    tournament.confirmation_rule = Rule.RETYPE
    tournament.save(update_fields=["confirmation_rule"])
    assert sheet_confirm_methods(table=table, by_user=scorer) == (ConfirmMethod.RETYPE,)
    assert sheet_confirm_refusal(table=table, by_user=scorer) == ConfirmRefusal.RETYPE_OWN_SHEET
    tournament.confirmation_rule = Rule.OTHER_PERSON
    tournament.save(update_fields=["confirmation_rule"])

    # Once someone else saves from a page that showed the scorer's deal 11 (version 3, from
    # version 2), it has been seen: the scorer may look the sheet over.
    now = stored_cells(table)
    save_on_sheet_page(
        signed_in(second_director), table, with_deal(now, changed_cells(table, deal=9), 9, n), 2
    )
    assert (
        sheet_unseen_input(table=table, version=sheet_latest_version(table), user_id=scorer.pk)
        == ()
    )
    scorer_client.post(url("sheet_confirm", table), {"version": "3"})
    assert SheetConfirmation.objects.get().user == scorer


def test_a_confirmation_by_someone_else_is_a_look_at_the_input(
    scorer, director, second_director, table
):
    n = table.seats.count()

    def save(user, cells, base):
        sheet_record(
            table=table,
            submission=SheetSubmission(
                cells=cells, penalties=stored_penalties(table), base_version=base, by_user=user
            ),
        )

    paper = stored_cells(table)
    save(scorer, changed_cells(table, deal=11), 0)  # version 1: the scorer's deal 11
    sheet_confirm(table=table, version=1, by_user=second_director)  # looked at by someone
    save(director, with_deal(paper, changed_cells(table, deal=10), 10, n), 0)  # version 2, merged
    latest = sheet_latest_version(table)
    assert sheet_unseen_input(table=table, version=latest, user_id=scorer.pk) == ()
    assert sheet_confirm_refusal(table=table, by_user=scorer) is None


def test_held_input_counted_through_another_devices_save_stays_its_authors(
    scorer, director, other_table
):
    """Deal 5 typed before deal 4 is held back; a later save of deal 4 from a page that did not
    show it counts it. The one who saved that never saw deal 5: it is still the scorer's."""
    table = other_table
    n = table.seats.count()
    paper = stored_cells(table)  # deals 1 to 3
    deal_4 = {(4, seat): (0, 1) for seat in range(n)}  # 4 cards, nobody bids: legal
    deal_5 = {(5, seat): (0, 2 if seat == 0 else 1) for seat in range(n)}
    three = changed_cells(table, deal=3)
    saved = sheet_record(
        table=table,
        submission=SheetSubmission(
            cells={**three, **deal_5}, base_version=0, by_user=scorer, hold=True, draft_seen=""
        ),
    )
    assert saved.version == 1 and saved.split is not None and saved.split.held_deals == (5,)
    assert sheet_draft_token(table)
    sheet_record(
        table=table,
        submission=SheetSubmission(
            cells={**paper, **deal_4}, base_version=0, by_user=director, hold=True, draft_seen=""
        ),
    )
    latest = SheetVersion.objects.get(table=table, number=2)
    assert latest.user == director
    assert len(latest.cells) == 5  # deal 5 counted with the director's deal 4
    assert sheet_unseen_input(table=table, version=latest, user_id=scorer.pk) == (3, 5)
    assert sheet_unseen_input(table=table, version=latest, user_id=director.pk) == (4,)


def box(body: str, name: str) -> str:
    """The value in the form's box ``name`` as the page has it."""
    tag = re.search(rf'<input[^>]*name="{name}"[^>]*>', body)
    assert tag is not None, name
    value = re.search(r'value="([^"]*)"', tag[0])
    return value[1] if value else ""


def test_held_input_no_save_stored_is_its_typists(director):
    """The scorer types deal 11 before deal 10: held back whole, no version, only the table's
    draft. The director, on a page drawn before that draft, types deal 10, and the save counts
    the scorer's deal 11 too: unseen by anyone but the scorer, so theirs to have confirmed."""
    tournament = played_tournament(8, 1, last_round=[11, 9], director=director)
    table = Table.objects.get(round__tournament=tournament, round__number=1, number=2)
    scorer = type(director).objects.create_user("teller2", password="x-kaart-2026-s")
    tournament.scorers.add(scorer)
    n = table.seats.count()
    paper = stored_cells(table)  # deals 1 to 9

    def legal(deal: int, hand: int) -> dict:
        return {(deal, seat): (0, 1 if seat < hand else 0) for seat in range(n)}

    def save(cells: dict, user) -> None:
        sheet_record(
            table=table,
            submission=SheetSubmission(
                cells={**paper, **cells},
                penalties=stored_penalties(table),
                base_version=0,
                by_user=user,
                hold=True,
                draft_seen="",
            ),
        )

    save(legal(11, 1), scorer)
    assert sheet_draft_token(table) and not SheetVersion.objects.filter(table=table, number=1)
    save(legal(10, 2), director)
    latest = SheetVersion.objects.get(table=table, number=1)
    assert latest.user == director and latest.submitted["held_by"] == [scorer.pk]
    assert sheet_unseen_input(table=table, version=latest, user_id=scorer.pk) == (11,)
    assert sheet_unseen_input(table=table, version=latest, user_id=director.pk) == (10,)
    with pytest.raises(Refused):
        sheet_confirm(table=table, version=1, by_user=scorer)


def test_retyping_ones_own_sheet_is_answered_blind(director, director_client, table):
    """The director alone, who saved the sheet, re-types it: the answer says how many boxes
    differ and where, keeps what was typed, and shows no stored value anywhere."""
    from tests.table.test_confirmation_rules import saved_by

    saved_by(table, director)
    n = table.seats.count()
    page = director_client.get(url("sheet_retype", table)).content.decode()
    assert 'data-penalties="[]"' in page  # not even the stored penalty bollen in the page
    typed = stored_cells(table)
    bid, tricks = typed[3, 2]
    typed[3, 2] = ((bid + 1) % 4, tricks)  # a misread bid
    typed[7, 0] = (typed[7, 0][0], None)  # a box left empty
    data = form_data(n, typed, [*stored_penalties(table), (5, 1)], base_version=1)
    response = director_client.post(url("sheet_retype", table), data)
    assert response.status_code == 422
    assert not SheetConfirmation.objects.exists()
    where = [
        (d["deal"], d["player"], d["what"], d["before"]) for d in response.context["differences"]
    ]
    players = [s.player.name for s in table.seats.order_by("position")]
    assert where == [
        ("spel 3 (3)", players[2], "bod", ""),
        ("spel 5 (5)", players[1], "strafbollen", ""),
        ("spel 7 (5B)", players[0], "slagen", ""),
    ]
    body = html.unescape(response.content.decode())
    assert "3 vakjes verschillen van het opgeslagen formulier" in body
    assert 'id="retype-blind"' in body
    assert not STORED_HINT.search(body) and ">Opgeslagen<" not in body
    assert body.count("wijkt af van het opgeslagen formulier") == 2  # at the bid and the tricks
    assert 'data-penalties="[]"' in body
    # What was typed stays in the boxes, the slips too.
    assert box(body, cell_field(n, 3, 2, "bid")) == str((bid + 1) % 4)
    assert box(body, cell_field(n, 7, 0, "tricks")) == ""
    assert box(body, cell_field(n, 1, 0, "bid")) == str(typed[1, 0][0])

    # A blank grid sent to see what comes back gets no stored value either.
    blank = director_client.post(url("sheet_retype", table), form_data(n, {}, [], base_version=1))
    assert blank.status_code == 422
    assert not STORED_HINT.search(blank.content.decode())
    assert {d["before"] for d in blank.context["differences"]} == {""}
