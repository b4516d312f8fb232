"""Score sheets for a round and blank sheets, read back from the PDF."""

import re
from dataclasses import replace
from urllib.parse import urlsplit

import pytest
from django.template.loader import render_to_string
from django.urls import resolve, reverse
from django.utils import translation

from scoring.deals import DEALS, dealer_seat
from tests import factories
from tests.printing.reading import pdf_pages, pdf_qr_codes, pdf_raster_images
from tournament.adapter import load_table_sheets
from tournament.models import Player
from tournament.printing.documents import blank_sheet_form
from tournament.printing.form import D_PATH, FormGeometry, grid_image
from tournament.printing.render import html_to_pdf
from tournament.sheets.table_link_urls import table_entry_url
from tournament.venue.qr import qr_data_uri
from tournament.venue.site_address import site_url

pytestmark = pytest.mark.django_db


def squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def sheets_pdf(client, tournament, round_number=1):
    response = client.get(reverse("print_sheets", args=[tournament.slug, round_number]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    return response.content


def test_one_page_per_table_with_its_number_round_and_players_in_seat_order(
    director_client, tournament
):
    pages = pdf_pages(sheets_pdf(director_client, tournament, 2))
    tables = load_table_sheets(tournament=tournament, round_number=2)
    names = dict(Player.objects.filter(tournament=tournament).values_list("pk", "name"))
    assert len(pages) == len(tables) == 3
    for page, table in zip(pages, tables, strict=True):
        assert re.search(rf"\bTable {table.table_number}\b", page)
        assert re.search(r"\bRound 2\b", page)
        assert "Testtoernooi" in page
        # "1 name 2 name ...": seat numbers and names in seat order (long names wrap).
        in_seat_order = "".join(
            f"{seat}{names[pid]}" for seat, pid in enumerate(table.player_ids, start=1)
        )
        assert squash(in_seat_order) in squash(page)
        others = set(names.values()) - {names[pid] for pid in table.player_ids}
        assert not any(other in page for other in others)


def test_the_form_has_the_deal_columns_two_boxes_each_and_the_totals(director_client, tournament):
    (page, *_rest) = pdf_pages(sheets_pdf(director_client, tournament))
    assert " ".join(spec.label for spec in DEALS) == "1 2 3 4 5 5Z 5B 4 3 2 1"
    assert re.search(r"Name 1 2 3 4 5 6 7 8 9 10 11 1 2 3 4 5 5Z 5B 4 3 2 1 (bid won ){11}", page)
    assert "Bollen Points Correct Total" in page
    assert "deals and bids last" in page
    assert "5Z: no trump. 5B: no trump, bid blind" in page
    assert "Signatures" in page


def test_each_table_size_has_its_grid_with_the_dealer_marked_clockwise(director_client, tournament):
    html = director_client.get(
        reverse("print_sheets", args=[tournament.slug, 1]) + "?format=html"
    ).content.decode()
    tables = load_table_sheets(tournament=tournament, round_number=1)
    grids = re.findall(r'<img class="grid" src="([^"]+)"', html)
    assert grids == [grid_image(len(t.player_ids), dealers=True) for t in tables]
    for n_seats in (3, 4, 5, 6):
        form = FormGeometry(n_seats, dealers=True)
        marks = form.dealer_boxes()
        assert marks == [(dealer_seat(deal, n_seats), deal) for deal in range(1, 12)]
        assert [seat for seat, _deal in marks[:n_seats]] == list(range(n_seats))
        assert form.svg().count(D_PATH) == len(DEALS)
        assert FormGeometry(n_seats, dealers=False).svg().count(D_PATH) == 0


def test_each_page_has_a_vector_qr_code_of_its_tables_entry_url_that_a_scan_reads(
    director_client, tournament
):
    response = director_client.get(reverse("print_sheets", args=[tournament.slug, 2]))
    tables = load_table_sheets(tournament=tournament, round_number=2)
    site = site_url(response.wsgi_request, club=tournament.club)
    urls = [table_entry_url(table, site=site) for table in tables]
    assert len(set(urls)) == len(tables)
    # Drawn in vectors (no picture of pixels that a printer would smooth), and read back from
    # the pages drawn at 150 dpi, as an office scanner sees the printed sheets.
    assert pdf_raster_images(response.content) == [[] for _table in tables]
    assert pdf_qr_codes(response.content) == [[url] for url in urls]


def test_the_entry_url_is_an_absolute_link_at_the_address_for_phones(
    director_client, tournament, settings
):
    settings.SITE_URL = "http://192.168.1.20:8000"
    response = director_client.get(reverse("print_sheets", args=[tournament.slug, 1]))
    table = load_table_sheets(tournament=tournament, round_number=1)[1]
    url = table_entry_url(table, site=site_url(response.wsgi_request, club=tournament.club))
    assert url.startswith("http://192.168.1.20:8000/s/")
    resolve(urlsplit(url).path)  # raises Resolver404 if no page answers there


def test_names_print_as_written(director_client, tournament):
    text = squash(" ".join(pdf_pages(sheets_pdf(director_client, tournament))))
    assert "<script>alert(1)</script>" in text
    assert '="1"' in text
    html = director_client.get(
        reverse("print_sheets", args=[tournament.slug, 1]) + "?format=html"
    ).content.decode()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<script>alert" not in html


def test_dutch_tournament_prints_the_dutch_form(director_client, director):
    tournament = factories.played_tournament(8, 1, director=director)
    assert tournament.language == "nl"
    (page, _second) = pdf_pages(sheets_pdf(director_client, tournament))
    assert "Bollen Punten Goed Totaal" in page
    assert re.search(r"\bTafel 1\b", page)
    assert re.search(r"\bRonde 1\b", page)


def test_a_round_without_tables_has_no_sheets(director_client, tournament):
    response = director_client.get(reverse("print_sheets", args=[tournament.slug, 3]))
    assert response.status_code == 404


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_blank_sheet_is_one_page_without_names_with_a_line_for_the_dealer(
    director_client, tournament, seats
):
    response = director_client.get(reverse("print_blank", args=[tournament.slug, seats]))
    assert response["Content-Type"] == "application/pdf"
    (page,) = pdf_pages(response.content)
    assert re.search(r"Name 1 2 3 4 5 6 7 8 9 10 11 1 2 3 4 5 5Z 5B 4 3 2 1 (bid won ){11}", page)
    assert "Bollen Points Correct Total" in page
    assert "Dealer" in page
    assert " ".join(str(seat) for seat in range(1, seats + 1)) in page
    assert "Signatures" in page
    assert not any(name in page for name in Player.objects.values_list("name", flat=True))
    assert pdf_qr_codes(response.content) == [[]]
    html = director_client.get(
        reverse("print_blank", args=[tournament.slug, seats]) + "?format=html"
    ).content.decode()
    assert re.findall(r'<div class="form-row"[^>]*>(\d)</div>', html) == [
        str(s) for s in range(1, seats + 1)
    ]
    assert f'src="{grid_image(seats, dealers=False)}"' in html


@pytest.mark.parametrize("first_dealer", [0, None])  # the site sets it; the table draws it
def test_a_full_table_with_long_names_still_fits_one_page(tournament, first_dealer):
    long = "Maria Theresia Wilhelmina van Oldenbarnevelt-Hoogstraten tot Zuylen"
    blank = blank_sheet_form(6)
    form = replace(
        blank,
        round=10,
        table=40,
        qr=qr_data_uri("http://testserver/t/x/rounds/10/tables/40/"),
        rows=tuple(replace(row, name=f"{long} {row.seat}", club=long) for row in blank.rows),
        first_dealer=first_dealer,
    )
    with translation.override("nl"):
        html = render_to_string(
            "printing/score_sheets.html",
            {"tournament": tournament, "forms": [form], "deals": DEALS},
        )
    (page,) = pdf_pages(html_to_pdf(html, base_url="http://testserver/"))
    assert "Handtekeningen" in page
    # Where a revoke is written down: the row and the deal, twice, on the signatures' line.
    assert "Verzaakt (een strafbol): rij spel (1-11) rij spel (1-11)" in page


@pytest.mark.parametrize("seats", [2, 7])
def test_blank_sheets_exist_for_3_to_6_players_only(director_client, tournament, seats):
    response = director_client.get(reverse("print_blank", args=[tournament.slug, seats]))
    assert response.status_code == 404
