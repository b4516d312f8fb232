"""The printouts on paper: lists without a near-empty last page, the seating in the order a
player reads it."""

from __future__ import annotations

import io
import re

import pytest
from django.urls import reverse
from pypdf import PdfReader

from tests.factories import played_tournament
from tests.printing.reading import pdf_pages
from tournament.clubs.services import club_sole
from tournament.models import Member
from tournament.season.guests import member_guest_set
from tournament.season.services import CompetitionSettings, competition_create

pytestmark = pytest.mark.django_db


def pdf(client, name: str, *args: object) -> bytes:
    response = client.get(reverse(name, args=args))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    return response.content


def test_the_standings_of_23_players_fit_one_a4_page(director_client, director):
    tournament = played_tournament(23, 2, director=director)
    (page,) = pdf_pages(pdf(director_client, "print_standings", tournament.slug))
    assert all(f"Speler {number} " in f"{page} " for number in range(1, 24))
    assert "1 / 1" in page


def test_a_season_of_20_members_and_guests_leaves_no_page_with_the_legend_alone(
    director_client, director
):
    # With the usual row height the last guest and the legend would go to a page of their own.
    names = [f"Lid {number:02} Jansen-van der Berg" for number in range(1, 25)]
    evenings = [
        played_tournament(24, 2, seed=seed, names=names, director=director) for seed in (1, 2)
    ]
    competition = competition_create(
        club=club_sole(),
        settings=CompetitionSettings(name="Clubcompetitie", season="2026-2027", best=2),
        tournaments=evenings,
    )
    for member in Member.objects.filter(name__in=names[20:]):
        member_guest_set(member=member, guest=True)
    pages = pdf_pages(pdf(director_client, "competition_print", competition.slug))
    assert all(any(name in page for name in names) for page in pages)  # rows on every page
    assert len(pages) == 1
    (page,) = pages
    assert "Gasten (niet geklasseerd)" in page
    assert all(name in page for name in names)
    assert "A1 Testtoernooi" in page and "A2 Testtoernooi" in page  # the key to the evenings


def test_the_seating_reads_table_1_2_3_in_order_in_the_pdfs_text(director_client, director):
    tournament = played_tournament(24, 1, director=director)  # six tables of four
    data = pdf(director_client, "print_seating", tournament.slug, 1)
    by_table = PdfReader(io.BytesIO(data)).pages[0]
    in_order = [f"Tafel {number}" for number in range(1, 7)]
    # In the order of the content (a screen reader, a copy) and of the lines on the page.
    assert re.findall(r"Tafel \d+", by_table.extract_text()) == in_order
    assert re.findall(r"Tafel \d+", by_table.extract_text(extraction_mode="layout")) == in_order
