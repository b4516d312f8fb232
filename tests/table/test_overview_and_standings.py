"""What the director and the public see of table links and confirmations: the round page, the
standings (provisional marks, or unconfirmed sheets left out), and the printed QR codes."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import played_tournament
from tests.printing.reading import pdf_page_images, qr_texts
from tests.table.helpers import changed_cells, link_url, save_via_link
from tournament.adapter import load_table_sheets
from tournament.models import SheetConfirmation, Table, TableLink
from tournament.sheets.confirmations import sheet_confirm
from tournament.sheets.selectors import round_sheet_reviews
from tournament.sheets.services import sheet_record
from tournament.sheets.submission import SheetSubmission
from tournament.sheets.table_links import table_link_active
from tournament.standings.selectors import tournament_standings

pytestmark = pytest.mark.django_db


def round_url(tournament, number: int = 1) -> str:
    return reverse("round_detail", args=[tournament.slug, number])


def card(page: str, number: int) -> str:
    """The HTML of one table's card on the round page."""
    start = page.index(f'data-table-card="{number}"')
    end = page.find("data-table-card=", start + 1)
    return page[start : end if end != -1 else len(page)]


def test_the_round_page_shows_who_saved_each_sheet_and_whether_it_is_confirmed(
    director_client, director, second_director, phone_client, link, table, other_table
):
    tournament = table.round.tournament
    save_via_link(phone_client, link, changed_cells(table))
    page = director_client.get(round_url(tournament)).content.decode()
    first = card(page, 1)
    assert 'data-via="table_link"' in first and 'data-confirmed="no"' in first
    assert reverse("sheet_confirm", args=[tournament.slug, 1, 1]) in first
    assert reverse("sheet_retype", args=[tournament.slug, 1, 1]) in first
    second = card(page, 2)
    assert 'data-via=""' in second  # imported, never saved on the site
    assert reverse("sheet_confirm", args=[tournament.slug, 1, 2]) not in second

    sheet_confirm(table=table, version=1, by_user=second_director)
    reviews = round_sheet_reviews(table.round)
    assert reviews[1].confirmed and reviews[1].confirmed_by == "tweede"
    assert reviews[1].at_table and reviews[1].version == 1 and reviews[1].link_active
    assert not reviews[2].link_active and reviews[2].version is None
    page = director_client.get(round_url(tournament)).content.decode()
    first = card(page, 1)
    assert 'data-confirmed="yes"' in first
    assert "tweede" in first
    assert reverse("sheet_confirm", args=[tournament.slug, 1, 1]) not in first
    summary = re.search(r'id="sheets-summary">([^<]+)<', page)[1]
    assert re.findall(r"\d+", summary) == ["1", "2", "1", "1", "2"]


def test_the_round_page_says_when_the_director_saved_the_sheet_themselves(
    director_client, director, table
):
    (stored,) = load_table_sheets(tournament=table.round.tournament, table_ids=[table.pk])
    penalties = [(p.deal, p.seat) for p in stored.sheet.penalties]
    submission = SheetSubmission(
        cells=changed_cells(table), penalties=penalties, base_version=0, by_user=director
    )
    sheet_record(table=table, submission=submission)
    reviews = round_sheet_reviews(table.round)
    assert (reviews[1].via, reviews[1].saved_by_id) == ("director", director.pk)
    page = director_client.get(round_url(table.round.tournament)).content.decode()
    assert 'data-via="director"' in card(page, 1)
    assert "director" in card(page, 1)


def test_the_round_page_reads_the_same_queries_for_2_or_20_tables(director_client, director):
    counts = []
    for n_players in (8, 80):
        tournament = played_tournament(n_players, 1, last_round=[5] * (n_players // 4),
                                       director=director, seed=n_players)  # fmt: skip
        for table in Table.objects.filter(round__tournament=tournament)[:2]:
            TableLink.objects.create(table=table, token=f"t{table.pk}")
        director_client.get(round_url(tournament))
        with CaptureQueriesContext(connection) as queries:
            assert director_client.get(round_url(tournament)).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_the_director_makes_replaces_and_revokes_a_tables_link(director_client, table, settings):
    settings.SITE_URL = "http://192.168.1.20:8000"
    tournament = table.round.tournament
    show = reverse("table_link", args=[tournament.slug, 1, 1])
    assert "data:image/svg+xml" not in director_client.get(show).content.decode()
    director_client.post(reverse("table_link_new", args=[tournament.slug, 1, 1]))
    first = table_link_active(table)
    page = director_client.get(show).content.decode()
    assert f"http://192.168.1.20:8000{link_url(first)}" in page
    assert "data:image/svg+xml" in page  # the QR code, to show on a screen
    director_client.post(reverse("table_link_new", args=[tournament.slug, 1, 1]))
    second = table_link_active(table)
    assert second.token != first.token
    first.refresh_from_db()
    assert first.revoked_at is not None
    response = director_client.post(reverse("table_link_revoke", args=[tournament.slug, 1, 1]))
    assert response["Location"] == round_url(tournament)
    assert table_link_active(table) is None


def test_printed_sheets_carry_each_tables_own_link_made_on_demand(
    director_client, tournament, settings
):
    settings.SITE_URL = "http://192.168.1.20:8000"
    assert not TableLink.objects.exists()
    url = reverse("print_sheets", args=[tournament.slug, 1])
    images = pdf_page_images(director_client.get(url).content)
    tables = load_table_sheets(tournament=tournament, round_number=1)
    links = {link.table_id: link for link in TableLink.objects.all()}
    assert len(links) == len(tables) == len(images)
    for page_images, sheet in zip(images, tables, strict=True):
        expected = f"http://192.168.1.20:8000{link_url(links[sheet.table_id])}"
        assert [text for image in page_images for text in qr_texts(image)] == [expected]
    director_client.get(url)  # printing again gives the same links
    assert {link.table_id: link for link in TableLink.objects.all()} == links


# Standings: unconfirmed sheets count as provisional by default, or not at all.


@pytest.fixture
def public_round(director):
    """Two complete rounds of 8 (imported: nothing to confirm), public pages on."""
    return played_tournament(8, 2, director=director, public=True)


def corrected_at_the_table(tournament, client) -> Table:
    """Round 2, table 1 corrected through its link: unconfirmed."""
    table = Table.objects.select_related("round__tournament").get(
        round__tournament=tournament, round__number=2, number=1
    )
    link = TableLink.objects.create(table=table, token=f"link-{table.pk}")
    assert save_via_link(client, link, changed_cells(table)).status_code == 200
    return table


def test_imported_sheets_are_not_provisional(director_client, public_round):
    standings = tournament_standings(public_round)
    assert standings.provisional == frozenset()
    page = director_client.get(reverse("standings", args=[public_round.slug])).content.decode()
    assert "provisional" not in page.split("<table", 1)[1].split("</table>")[0]
    assert 'id="provisional-legend"' not in page


def test_unconfirmed_sheets_count_marked_provisional_on_every_standings_page(
    director_client, phone_client, public_round
):
    table = corrected_at_the_table(public_round, phone_client)
    players = set(table.seats.values_list("player_id", flat=True))
    standings = tournament_standings(public_round)
    assert standings.provisional == {(player, 2) for player in players}
    assert standings.rounds_counted == (1, 2)
    for row in standings.rows:
        assert (2 in row.per_round) and standings.is_provisional(row.player) == (
            row.player in players
        )

    director_page = director_client.get(reverse("standings", args=[public_round.slug]))
    public_page = phone_client.get(reverse("public_standings", args=[public_round.slug]))
    screen = phone_client.get(reverse("public_screen", args=[public_round.slug]))
    for response in (director_page, public_page, screen):
        html = response.content.decode()
        # Each of the table's 4 players: the round 2 score and the total are marked.
        marked = [set(c.split()) for c in re.findall(r'<td class="([^"]*provisional[^"]*)"', html)]
        assert sum("total" not in classes for classes in marked) == 4
        assert sum("total" in classes for classes in marked) == 4
        assert 'id="provisional-legend"' in html


def test_confirmed_sheets_are_not_provisional(
    director_client, director, phone_client, public_round
):
    table = corrected_at_the_table(public_round, phone_client)
    sheet_confirm(table=table, version=1, by_user=director)
    assert tournament_standings(public_round).provisional == frozenset()
    html = phone_client.get(reverse("public_standings", args=[public_round.slug])).content
    assert not re.search(rb'class="[^"]*\bprovisional\b', html)  # no marked cell, no legend


def test_with_the_setting_off_only_confirmed_sheets_count(
    director_client, director, phone_client, public_round
):
    assert public_round.count_unconfirmed is True  # the default
    table = corrected_at_the_table(public_round, phone_client)
    response = director_client.post(
        reverse("standings_unconfirmed", args=[public_round.slug]), {"count": "0"}
    )
    assert response.status_code == 302
    public_round.refresh_from_db()
    assert public_round.count_unconfirmed is False
    players = set(table.seats.values_list("player_id", flat=True))
    standings = tournament_standings(public_round)
    assert standings.left_out == 1
    assert standings.provisional == frozenset()
    for row in standings.rows:
        assert (2 in row.per_round) == (row.player not in players)
    page = director_client.get(reverse("standings", args=[public_round.slug])).content.decode()
    assert re.search(r'value="0" checked', page)
    waiting = "1 formulier met invoer is nog niet bevestigd en telt niet mee"
    assert waiting in page

    sheet_confirm(table=table, version=1, by_user=director)
    assert all(2 in row.per_round for row in tournament_standings(public_round).rows)
    page = director_client.get(reverse("standings", args=[public_round.slug])).content.decode()
    assert waiting not in page
    assert SheetConfirmation.objects.count() == 1
