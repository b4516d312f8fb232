"""Season results from sheets no director has confirmed yet are marked ``*``, everywhere the
season standings are shown, with the legend of the evening's own standings."""

from __future__ import annotations

import io

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from tests.factories import played_tournament
from tests.printing.reading import pdf_pages
from tests.season.conftest import NAMES
from tournament.models import Table
from tournament.season.selectors import season_of
from tournament.season.services import competition_add
from tournament.sheets.services import SheetSubmission, sheet_record

pytestmark = pytest.mark.django_db

LEGEND_NL = "voorlopig: van een formulier dat nog niet door de toernooileiding is bevestigd"


@pytest.fixture
def provisional(season, director):
    """A fourth evening whose last table typed one deal on the site, not confirmed yet: the
    members at that table have a provisional result of evening 4."""
    tournament = played_tournament(
        8, 2, seed=7, names=NAMES[:8], director=director, last_round=[11, 0]
    )
    competition_add(competition=season, tournament=tournament)
    table = Table.objects.get(round__tournament=tournament, round__number=2, number=2)
    cells = {(1, seat): (0, 1 if seat == 0 else 0) for seat in range(table.seats.count())}
    sheet_record(
        table=table,
        submission=SheetSubmission(cells=cells, penalties=(), base_version=0, idempotency_key=None),
    )
    names = set(table.seats.values_list("player__name", flat=True))
    return season, names


def test_the_season_knows_which_evening_results_are_provisional(provisional):
    season, names = provisional
    standings = season_of(season)
    marked = {standings.members[m].name for m, n in standings.provisional}
    assert marked == names
    assert {n for _m, n in standings.provisional} == {4}


def test_the_season_page_and_the_public_page_mark_them_with_the_legend(
    director_client, client, provisional
):
    season, names = provisional
    page = director_client.get(reverse("competition_detail", args=[season.slug]))
    text = page.content.decode()
    assert LEGEND_NL in text
    marked_lines = [line for line in page.context["lines"] if line["cells"][3][2]]
    assert {line["member"].name for line in marked_lines} == names
    assert text.count('provisional"') >= len(names)
    season.public = True
    season.save()
    public = client.get(reverse("public_season", args=[season.slug])).content.decode()
    assert LEGEND_NL in public


def test_a_season_without_unconfirmed_sheets_shows_no_legend(director_client, season):
    text = director_client.get(reverse("competition_detail", args=[season.slug])).content
    assert LEGEND_NL not in text.decode()


def test_the_pdf_marks_them_and_says_what_the_mark_means(director_client, provisional):
    season, names = provisional
    pdf = director_client.get(reverse("competition_print", args=[season.slug]))
    (page,) = pdf_pages(pdf.content)
    assert LEGEND_NL in page
    assert page.count("*") >= len(names)


def test_the_workbook_marks_them(director_client, provisional):
    season, names = provisional
    xlsx = director_client.get(reverse("competition_download", args=[season.slug, "xlsx"]))
    sheet = load_workbook(io.BytesIO(xlsx.content))["Klassement"]
    rows = list(sheet.iter_rows(values_only=True))
    header = rows[0]
    evening4 = header.index("A4")
    by_name = {row[1]: row for row in rows[1:] if row[1] in names}
    assert set(by_name) == names
    assert all(str(row[evening4]).rstrip(")").endswith("*") for row in by_name.values())
    unmarked = [r for r in rows[1:] if r[1] in set(NAMES) - names and r[evening4] is not None]
    assert unmarked
    assert not any(str(r[evening4]).endswith("*") for r in unmarked)
    assert rows[-1][0] == "*" and rows[-1][1] == LEGEND_NL


def test_the_workbook_counts_rounds_without_a_bol_not_deals(director_client, season):
    xlsx = director_client.get(reverse("competition_download", args=[season.slug, "xlsx"]))
    sheet = load_workbook(io.BytesIO(xlsx.content))["Statistieken"]
    labels = [row[0] for row in sheet.iter_rows(values_only=True)]
    assert "Meeste rondes zonder bol" in labels
    assert "Meeste spellen zonder bol" not in labels
