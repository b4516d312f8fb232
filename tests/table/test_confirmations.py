"""The second pair of eyes: confirming a sheet by looking it over or by re-typing the paper."""

from __future__ import annotations

import re
import threading

import pytest
from django.db import connections
from django.test import Client
from django.urls import reverse
from django.utils.translation import gettext as _

from scoring.deals import DEAL_COUNT
from tests.sheets.helpers import form_data, names, stored_cells, stored_penalties
from tests.table.helpers import changed_cells, save_via_link
from tournament.errors import Refused, deal_name, refusal_message
from tournament.models import (
    SheetConfirmation,
    SheetVersion,
    Table,
    Tournament,
    unconfirmed_table_ids,
)
from tournament.sheets.confirmations import (
    ConfirmRefusal,
    sheet_confirm,
    sheet_retype,
)
from tournament.sheets.conflict_context import EMPTY
from tournament.sheets.selectors import sheet_version_number
from tournament.sheets.services import sheet_record
from tournament.sheets.submission import SheetSubmission
from tournament.sheets.table_links import (
    LinkRefusal,
    table_link_sheet_record,
)

pytestmark = pytest.mark.django_db


def url(name: str, table: Table) -> str:
    return reverse(name, args=[table.round.tournament.slug, table.round.number, table.number])


def save_as_director(client, table: Table, cells: dict):
    data = form_data(4, cells, stored_penalties(table), base_version=sheet_version_number(table))
    response = client.post(url("sheet_edit", table), data)
    assert response.status_code == 302
    return response


def test_a_sheet_entered_at_the_table_is_confirmed_by_looking_it_over(
    director_client, director, saved_at_table
):
    table = saved_at_table
    page = director_client.get(url("sheet_confirm", table))
    assert page.status_code == 200
    html = page.content.decode()
    assert re.search(r'<fieldset class="sheet-fields" disabled>', html)  # read-only sheet
    assert 'name="version" value="1"' in html
    assert "Vergelijk het formulier hieronder" in html  # what to do with the button below
    response = director_client.post(url("sheet_confirm", table), {"version": "1"})
    assert response.status_code == 302
    assert response["Location"] == reverse("round_detail", args=[table.round.tournament.slug, 1])
    confirmation = SheetConfirmation.objects.get()
    assert (confirmation.version.number, confirmation.user, confirmation.method) == (
        1,
        director,
        SheetConfirmation.Method.LOOK,
    )
    assert table.pk not in unconfirmed_table_ids(table.round.tournament)


def test_the_director_who_saved_a_version_cannot_confirm_it(
    director_client, director, second_director, table
):
    save_as_director(director_client, table, changed_cells(table))
    page = director_client.get(url("sheet_confirm", table)).content.decode()
    assert refusal_message(ConfirmRefusal.OWN_SHEET) in page
    assert 'name="version"' not in page  # no button to press ...
    assert "Vergelijk het formulier" not in page  # ... nor words that say to press one
    response = director_client.post(url("sheet_confirm", table), {"version": "1"})
    assert response.status_code == 302  # ... and the server refuses a crafted post
    assert not SheetConfirmation.objects.exists()
    retyped = form_data(4, stored_cells(table), stored_penalties(table), base_version=1)
    director_client.post(url("sheet_retype", table), retyped)
    assert not SheetConfirmation.objects.exists()

    # The round page offers the confirmation to the other director only, and says why.
    round_page = reverse("round_detail", args=[table.round.tournament.slug, table.round.number])
    confirm_url = url("sheet_confirm", table)
    mine = director_client.get(round_page).content.decode()
    assert confirm_url not in mine
    assert "(jij hebt het opgeslagen: iemand anders uit het team bevestigt het)" in mine
    other = Client()
    other.force_login(second_director)
    theirs = other.get(round_page).content.decode()
    assert confirm_url in theirs
    assert "jij hebt het opgeslagen" not in theirs
    other.post(confirm_url, {"version": "1"})
    assert SheetConfirmation.objects.get().user == second_director


@pytest.mark.parametrize("how", ["look", "retype"])
def test_the_services_refuse_a_directors_own_version_when_another_person_confirms(
    director, table, how
):
    tournament = table.round.tournament
    tournament.confirmation_rule = Tournament.ConfirmationRule.OTHER_PERSON
    tournament.save(update_fields=["confirmation_rule"])
    sheet_record(
        table=table,
        submission=SheetSubmission(
            cells=changed_cells(table),
            penalties=[],
            base_version=0,
            idempotency_key=None,
            by_user=director,
        ),
    )
    with pytest.raises(Refused) as refused:
        if how == "look":
            sheet_confirm(table=table, version=1, by_user=director)
        else:
            sheet_retype(
                table=table, version=1, cells=stored_cells(table), penalties=[], by_user=director
            )
    assert refused.value.code == ConfirmRefusal.OWN_SHEET
    assert not SheetConfirmation.objects.exists()


def test_a_confirmation_names_the_version_that_was_looked_at(
    director_client, director, phone_client, link, saved_at_table
):
    table = saved_at_table
    director_client.get(url("sheet_confirm", table))  # the director looks at version 1 ...
    save_via_link(phone_client, link, changed_cells(table, deal=10))  # ... the table: version 2
    director_client.post(url("sheet_confirm", table), {"version": "1"})
    assert not SheetConfirmation.objects.exists()
    with pytest.raises(Refused) as refused:
        sheet_confirm(table=table, version=1, by_user=director)
    assert refused.value.code == ConfirmRefusal.CHANGED


def test_a_save_after_confirmation_makes_the_sheet_unconfirmed_again(
    director_client, director, second_director, saved_at_table
):
    table = saved_at_table
    tournament = table.round.tournament
    sheet_confirm(table=table, version=1, by_user=director)
    assert table.pk not in unconfirmed_table_ids(tournament)
    save_as_director(director_client, table, changed_cells(table, deal=10))
    assert table.pk in unconfirmed_table_ids(tournament)
    # The director corrected it, so the second director confirms the correction.
    sheet_confirm(table=table, version=2, by_user=second_director)
    assert table.pk not in unconfirmed_table_ids(tournament)
    assert SheetConfirmation.objects.count() == 2


def test_an_unfinished_or_never_saved_sheet_cannot_be_confirmed(
    phone_client, director, other_link, other_table, table
):
    with pytest.raises(Refused) as refused:
        sheet_confirm(table=table, version=1, by_user=director)  # imported, never saved here
    assert refused.value.code == ConfirmRefusal.NOTHING
    save_via_link(phone_client, other_link, {**stored_cells(other_table), (4, 1): (1, None)})
    with pytest.raises(Refused) as refused:
        sheet_confirm(table=other_table, version=1, by_user=director)
    assert refused.value.code == ConfirmRefusal.NOT_COMPLETE


def test_retyping_an_equal_paper_form_confirms_the_sheet(director_client, saved_at_table):
    table = saved_at_table
    page = director_client.get(url("sheet_retype", table)).content.decode()
    assert not re.search(r'class="box"[^>]* value="', page)  # a blank grid
    assert '"plain": true' in page
    assert f'href="{url("sheet_confirm", table)}"' in page  # saved at the table: both ways open
    data = form_data(4, stored_cells(table), stored_penalties(table), base_version=1)
    response = director_client.post(url("sheet_retype", table), data)
    assert response.status_code == 302
    confirmation = SheetConfirmation.objects.get()
    assert confirmation.method == SheetConfirmation.Method.RETYPE
    assert confirmation.version.number == 1


def test_retyping_shows_exactly_the_boxes_that_differ(director_client, saved_at_table):
    table = saved_at_table
    stored = stored_cells(table)
    typed = dict(stored)
    bid, tricks = stored[3, 2]
    typed[3, 2] = ((bid + 1) % 4, tricks)  # a misread bid
    bid, tricks = stored[7, 0]
    typed[7, 0] = (bid, None)  # a box left empty
    penalties = [*stored_penalties(table), (5, 1)]  # and a penalty bol the site lacks
    data = form_data(4, typed, penalties, base_version=1)
    response = director_client.post(url("sheet_retype", table), data)
    assert response.status_code == 422
    assert not SheetConfirmation.objects.exists()
    players = names(table)
    assert response.context["differences"] == [
        {
            "deal": deal_name(3),
            "player": players[2],
            "what": _("bid"),
            "before": stored[3, 2][0],
            "after": (stored[3, 2][0] + 1) % 4,
        },
        {"deal": deal_name(5), "player": players[1], "what": _("penalty bollen"),
         "before": 0, "after": 1},
        {
            "deal": deal_name(7),
            "player": players[0],
            "what": _("tricks"),
            "before": stored[7, 0][1],
            "after": EMPTY,
        },
    ]  # fmt: skip
    page = response.content.decode()
    invalid = re.findall(r'<input [^>]*aria-invalid="true"[^>]*>', page)
    marked = sorted(
        (int(re.search(r'data-deal="(\d+)"', b)[1]), re.search(r'data-kind="(\w+)"', b)[1])
        for b in invalid
    )
    assert marked == [(3, "bid"), (7, "tricks")]
    # What was typed stays in the boxes, to be looked at again.
    assert re.search(r'data-deal="3" data-seat="2" data-kind="bid"', page)
    assert page.count('class="box"') == 2 * DEAL_COUNT * 4


def test_retyping_compares_a_paper_form_that_breaks_the_rules(director_client, saved_at_table):
    table = saved_at_table
    typed = dict(stored_cells(table))
    bid, tricks = typed[2, 0]
    typed[2, 0] = (bid, tricks + 1)  # the tricks of deal 2 no longer add up
    data = form_data(4, typed, stored_penalties(table), base_version=1)
    response = director_client.post(url("sheet_retype", table), data)
    assert response.status_code == 422
    (difference,) = response.context["differences"]
    assert (difference["what"], difference["before"], difference["after"]) == (
        _("tricks"),
        tricks,
        tricks + 1,
    )


def test_retyping_an_older_version_is_refused(director_client, phone_client, link, saved_at_table):
    table = saved_at_table
    typed = form_data(4, stored_cells(table), stored_penalties(table), base_version=1)
    save_via_link(phone_client, link, changed_cells(table, deal=10))
    response = director_client.post(url("sheet_retype", table), typed)
    assert response.status_code == 409
    assert not SheetConfirmation.objects.exists()


def race(*jobs):
    """Run the jobs in threads released together; return what each returned or raised."""
    start = threading.Barrier(len(jobs))
    outcomes: list[object] = [None] * len(jobs)

    def run(index, job):
        try:
            start.wait()
            outcomes[index] = job()
        except Refused as refused:
            outcomes[index] = refused
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=item) for item in enumerate(jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


@pytest.mark.django_db(transaction=True)
def test_a_save_through_the_link_and_a_confirmation_at_once_never_confirm_unseen_input(
    director, link, table
):
    """Whichever comes first, a confirmed sheet is always the version the director saw."""
    for repetition in range(6):
        version = sheet_version_number(table)
        if repetition == 0:
            cells = changed_cells(table)
            table_link_sheet_record(
                link=link,
                submission=SheetSubmission(
                    cells=cells, penalties=[], base_version=0, idempotency_key=None
                ),
            )
            version = 1
        SheetConfirmation.objects.all().delete()
        new = changed_cells(table, deal=10 - repetition % 3)
        confirm, save = race(
            lambda v=version: sheet_confirm(table=table, version=v, by_user=director),
            lambda v=version, c=new: table_link_sheet_record(
                link=link,
                submission=SheetSubmission(
                    cells=c, penalties=[], base_version=v, idempotency_key=None
                ),
            ),
        )
        confirmed = isinstance(confirm, SheetConfirmation)
        saved = not isinstance(save, Refused)
        assert confirmed != saved  # exactly one of them got through
        latest = SheetVersion.objects.filter(table=table, number__isnull=False).latest("number")
        if confirmed:
            assert save.code == LinkRefusal.CONFIRMED
            assert latest.number == version
            assert confirm.version_id == latest.pk
        else:
            assert confirm.code == ConfirmRefusal.CHANGED
            assert latest.number == version + 1
            assert table.pk in unconfirmed_table_ids(table.round.tournament)
