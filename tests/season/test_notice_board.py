"""The notice-board PDF: a season of 20 members and 10 evenings on one A4 page, names on one
line, the evening columns narrow, the key to the evenings (name and date) below."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from pypdf import PdfReader

from tests.factories import played_tournament
from tests.printing.reading import pdf_pages
from tournament.clubs.services import club_sole
from tournament.season.services import CompetitionSettings, competition_create

pytestmark = pytest.mark.django_db

MEMBERS = [
    "Anna van der Aalst-Brouwer",
    "Bert Bos",
    "Cor Claassen",
    "Dirk de Dekker",
    "Els Eerens",
    "Frits Fransen",
    "Gerda Gerritsen-Haverkamp",
    "Henk Hoekstra",
    "Ineke IJzerman",
    "Jan de Vries",
    "Karel Kok",
    "Lies Lammers",
    "Marieke van Meerveld-Zandvoort",
    "Nico Nijland",
    "Olga Oosterhuis",
    "Piet Prins",
    "Quirine Quint",
    "Rob Roos",
    "Sjaak Brouwers",
    "Truus ter Horst",
]


@pytest.fixture
def full_season(director):
    evenings = [
        played_tournament(20, 2, seed=seed, names=MEMBERS, director=director)
        for seed in range(1, 11)
    ]
    for week, tournament in enumerate(evenings):
        tournament.name = f"Clubavond {week + 1}"
        tournament.date = datetime.date(2026, 9, 4) + datetime.timedelta(weeks=week)
        tournament.save(update_fields=["name", "date"])
    return competition_create(
        club=club_sole(),
        settings=CompetitionSettings(name="Clubcompetitie", season="2026-2027", best=8),
        tournaments=evenings,
    )


def test_twenty_members_and_ten_evenings_fit_one_page_with_names_on_one_line(
    director_client, full_season, tmp_path
):
    pdf = director_client.get(reverse("competition_print", args=[full_season.slug])).content
    (tmp_path / "season.pdf").write_bytes(pdf)
    assert len(PdfReader(tmp_path / "season.pdf").pages) == 1
    (page,) = pdf_pages(pdf)
    for name in MEMBERS:
        assert name in page  # a wrapped name would be split by a line break
    assert "A1 Clubavond 1, 4 september 2026" in page
    assert "A10 Clubavond 10, 6 november 2026" in page
