"""The tournament's confirmation rule on the site: a director alone re-types their own sheet,
"auto" follows the team's size, "none" makes every sheet final, and a director's save through
a table link in their own browser is known to be theirs."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from scoring.confirmation import ConfirmationRule, ConfirmMethod
from tests.factories import played_tournament
from tests.sheets.helpers import form_data, stored_cells, stored_penalties
from tests.table.helpers import changed_cells, save_via_link
from tournament.errors import Refused, refusal_message
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
    sheet_confirm_methods,
    sheet_retype,
    tournament_confirmation_rule,
)
from tournament.sheets.services import sheet_record
from tournament.sheets.submission import SheetSubmission
from tournament.standings.selectors import tournament_standings

pytestmark = pytest.mark.django_db

Rule = Tournament.ConfirmationRule


@pytest.fixture
def public_round(director):
    """Two complete rounds of 8 (imported: nothing to confirm), public pages on."""
    return played_tournament(8, 2, director=director, public=True)


def url(name: str, table: Table) -> str:
    return reverse(name, args=[table.round.tournament.slug, table.round.number, table.number])


def set_rule(tournament: Tournament, rule: str) -> None:
    tournament.confirmation_rule = rule
    tournament.save(update_fields=["confirmation_rule"])


def saved_by(table: Table, user) -> Table:
    """Table 1's complete sheet, corrected once on the sheet page by ``user``: version 1."""
    sheet_record(
        table=table,
        submission=SheetSubmission(
            cells=changed_cells(table),
            penalties=stored_penalties(table),
            base_version=0,
            idempotency_key=None,
            by_user=user,
        ),
    )
    return table


def retype(client, table: Table, cells=None):
    data = form_data(
        table.seats.count(),
        stored_cells(table) if cells is None else cells,
        stored_penalties(table),
        base_version=1,
    )
    return client.post(url("sheet_retype", table), data)


def test_the_models_choices_mirror_the_rule():
    assert {c.value for c in Rule} == {r.value for r in ConfirmationRule}
    assert {c.value for c in SheetConfirmation.Method} == {m.value for m in ConfirmMethod}


def test_a_director_alone_confirms_their_own_sheet_by_retyping_it(director_client, director, table):
    tournament = table.round.tournament
    assert tournament.confirmation_rule == Rule.AUTO  # the default, and the director is alone
    saved_by(table, director)
    round_page = director_client.get(reverse("round_detail", args=[tournament.slug, 1]))
    html = round_page.content.decode()
    assert url("sheet_retype", table) in html
    assert url("sheet_confirm", table) not in html  # looking over one's own save proves nothing
    assert "bevestig het door het papieren formulier over te typen" in html

    # The re-typing page leads nowhere it cannot go: no "look it over instead" to a refusal.
    retype_page = director_client.get(url("sheet_retype", table)).content.decode()
    assert f'href="{url("sheet_confirm", table)}"' not in retype_page

    look = director_client.get(url("sheet_confirm", table)).content.decode()
    assert refusal_message(ConfirmRefusal.RETYPE_OWN_SHEET) in look
    assert f'href="{url("sheet_retype", table)}"' in look  # the way that is open
    assert 'name="version"' not in look
    # No "compare it and confirm it" without a button to confirm with: the way open is offered.
    assert "Vergelijk het formulier" not in look
    assert re.search(r'<a class="button" href="[^"]*/retype/">Liever het papieren formulier', look)
    director_client.post(url("sheet_confirm", table), {"version": "1"})
    assert not SheetConfirmation.objects.exists()

    # A slip while re-typing is shown, not confirmed ...
    wrong = stored_cells(table)
    wrong[1, 0] = (wrong[1, 0][0], 5 - (wrong[1, 0][1] or 0))
    assert retype(director_client, table, wrong).status_code == 422
    assert not SheetConfirmation.objects.exists()
    # ... the paper form typed as it is confirms.
    response = retype(director_client, table)
    assert response.status_code == 302
    confirmation = SheetConfirmation.objects.get()
    assert (confirmation.user, confirmation.method) == (director, SheetConfirmation.Method.RETYPE)
    assert confirmation.version.user == director
    assert table.pk not in unconfirmed_table_ids(tournament)


def test_auto_asks_another_person_as_soon_as_the_team_has_two(director, django_user_model, table):
    tournament = table.round.tournament
    saved_by(table, director)
    assert tournament_confirmation_rule(tournament) is ConfirmationRule.RETYPE
    assert sheet_confirm_methods(table=table, by_user=director) == (ConfirmMethod.RETYPE,)

    scorer = django_user_model.objects.create_user("teller", password="x-kaart-2026-s")
    tournament.scorers.add(scorer)
    assert tournament_confirmation_rule(tournament) is ConfirmationRule.OTHER_PERSON
    assert sheet_confirm_methods(table=table, by_user=director) == ()
    with pytest.raises(Refused) as refused:
        sheet_retype(
            table=table, version=1, cells=stored_cells(table), penalties=[], by_user=director
        )
    assert refused.value.code == ConfirmRefusal.OWN_SHEET
    # The scorer, who did not save it, confirms it.
    assert sheet_confirm(table=table, version=1, by_user=scorer).user == scorer

    # A scorer who leaves (or is switched off) no longer counts: alone again.
    tournament.scorers.remove(scorer)
    assert tournament_confirmation_rule(tournament) is ConfirmationRule.RETYPE


def test_a_superuser_who_is_not_listed_does_not_make_a_team(director, django_user_model, table):
    django_user_model.objects.create_superuser("beheer", password="x-kaart-2026-b")
    assert tournament_confirmation_rule(table.round.tournament) is ConfirmationRule.RETYPE


def test_retyping_as_the_rule_lets_others_look_it_over(
    director, second_director, director_client, table
):
    tournament = table.round.tournament
    set_rule(tournament, Rule.RETYPE)  # with a team of two
    saved_by(table, director)
    assert retype(director_client, table).status_code == 302
    assert SheetConfirmation.objects.get().user == director
    SheetConfirmation.objects.all().delete()
    assert sheet_confirm(table=table, version=1, by_user=second_director).user == second_director


def test_another_person_as_the_rule_holds_for_a_director_alone(director, director_client, table):
    set_rule(table.round.tournament, Rule.OTHER_PERSON)
    saved_by(table, director)
    assert retype(director_client, table).status_code == 409
    assert not SheetConfirmation.objects.exists()
    # The page says so before anyone types 100 boxes blind: no blank grid is offered.
    page = director_client.get(url("sheet_retype", table)).content.decode()
    assert refusal_message(ConfirmRefusal.OWN_SHEET) in page
    assert 'data-kind="bid"' not in page


def test_no_confirmation_makes_every_sheet_final(
    director_client, director, phone_client, public_round
):
    tournament = public_round
    table = Table.objects.select_related("round__tournament").get(
        round__tournament=tournament, round__number=2, number=1
    )
    link = table.links.create(token=f"link-{table.pk}")
    assert save_via_link(phone_client, link, changed_cells(table)).status_code == 200
    tournament.count_unconfirmed = False  # "only confirmed sheets count" ...
    tournament.save(update_fields=["count_unconfirmed"])
    assert tournament_standings(tournament).left_out == 1

    response = director_client.post(
        reverse("tournament_edit", args=[tournament.slug]),
        {
            "name": tournament.name,
            "rounds_planned": 4,
            "language": "nl",
            "table_sizes": ["4", "5"],
            "prefer_size": "4",
            "tiebreak_1": "tournament_points",
            "tiebreak_2": "fewer_bollen",
            "confirmation_rule": Rule.NONE,
        },
    )
    assert response.status_code == 302, response.content.decode()
    tournament.refresh_from_db()
    assert tournament.confirmation_rule == Rule.NONE
    # ... but with no confirmation, every sheet counts, final.
    standings = tournament_standings(tournament)
    assert (standings.left_out, standings.provisional) == (0, frozenset())
    assert all(2 in row.per_round for row in standings.rows)
    assert unconfirmed_table_ids(tournament) == frozenset()

    standings_page = director_client.get(reverse("standings", args=[tournament.slug]))
    public_page = phone_client.get(reverse("public_standings", args=[tournament.slug]))
    for response in (standings_page, public_page):
        html = response.content.decode()
        assert not re.search(r'<td class="[^"]*provisional', html)
        assert 'id="provisional-legend"' not in html
        assert "Alleen door een toernooileider bevestigde" not in html
    assert reverse("standings_unconfirmed", args=[tournament.slug]) not in (
        standings_page.content.decode()
    )
    round_page = director_client.get(reverse("round_detail", args=[tournament.slug, 2]))
    html = round_page.content.decode()
    assert url("sheet_confirm", table) not in html
    assert url("sheet_retype", table) not in html
    assert "Niet bevestigd" not in html
    with pytest.raises(Refused) as refused:
        sheet_confirm(table=table, version=1, by_user=director)
    assert refused.value.code == ConfirmRefusal.NOT_NEEDED
    # The table can keep correcting its sheet: nothing locks it.
    assert save_via_link(phone_client, link, changed_cells(table, deal=10)).status_code == 200


def test_a_directors_save_through_a_table_link_in_their_own_browser_is_theirs(
    director_client, director, second_director, link, table
):
    response = save_via_link(director_client, link, changed_cells(table))
    assert response.status_code == 200
    version = SheetVersion.objects.get(table=table, number=1)
    assert (version.via, version.user) == (SheetVersion.Via.TABLE_LINK, director)
    round_page = director_client.get(reverse("round_detail", args=[table.round.tournament.slug, 1]))
    html = round_page.content.decode()
    assert url("sheet_confirm", table) not in html
    assert "jij hebt het opgeslagen" in html
    director_client.post(url("sheet_confirm", table), {"version": "1"})
    assert not SheetConfirmation.objects.exists()
    # The other director may confirm it; a phone without an account saves as nobody.
    other = Client()
    other.force_login(second_director)
    other.post(url("sheet_confirm", table), {"version": "1"})
    assert SheetConfirmation.objects.get().user == second_director
    SheetConfirmation.objects.all().delete()
    assert save_via_link(Client(), link, changed_cells(table, deal=10)).status_code == 200
    assert SheetVersion.objects.get(table=table, number=2).user is None


def test_a_scorer_enters_and_confirms_a_sheet_on_the_site(
    django_user_model, director, table, other_table
):
    tournament = table.round.tournament
    scorer = django_user_model.objects.create_user("teller", password="x-kaart-2026-s")
    tournament.scorers.add(scorer)
    saved_by(table, director)
    client = Client()
    client.force_login(scorer)
    assert client.get(url("sheet_edit", other_table)).status_code == 200
    assert client.post(url("sheet_confirm", table), {"version": "1"}).status_code == 302
    confirmation = SheetConfirmation.objects.get()
    assert (confirmation.user, confirmation.method) == (scorer, SheetConfirmation.Method.LOOK)
