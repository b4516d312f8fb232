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
from tournament.sheets.services import sheet_record
from tournament.sheets.submission import SheetSubmission

pytestmark = pytest.mark.django_db

LEGEND_NL = "voorlopig: formulier nog niet compleet of niet bevestigd"


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


def test_the_workbook_marks_them_with_a_number_format_keeping_numbers(director_client, provisional):
    season, names = provisional
    xlsx = director_client.get(reverse("competition_download", args=[season.slug, "xlsx"]))
    book = load_workbook(io.BytesIO(xlsx.content))
    sheet = book["Klassement"]
    rows = list(sheet.iter_rows())
    header = [c.value for c in rows[0]]
    evening4, points = header.index("A4"), header.index("Punten")
    by_name = {row[1].value: row for row in rows[1:] if row[1].value in names}
    assert set(by_name) == names
    for row in by_name.values():
        assert isinstance(row[evening4].value, int)
        assert '"*"' in row[evening4].number_format
    unmarked = [r for r in rows[1:] if r[1].value in set(NAMES) - names]
    assert unmarked
    assert all(isinstance(r[points].value, int) for r in rows[1:] if r[1].value in NAMES)
    assert not any("*" in r[evening4].number_format for r in unmarked if r[evening4].value)
    assert rows[-1][0].value == "*" and rows[-1][1].value == LEGEND_NL
    evening = list(book["Avond 4"].iter_rows())
    total = [c.value for c in evening[0]].index("Totaal")
    marked = {r[1].value for r in evening[1:] if "*" in r[total].number_format}
    assert marked == names
    assert evening[-1][1].value == LEGEND_NL


def test_the_csv_writes_provisional_numbers_without_a_formula_guard(director_client, provisional):
    season, names = provisional
    data = director_client.get(reverse("competition_download", args=[season.slug, "csv"]))
    text = data.content.decode("utf-8-sig")
    assert "'" not in text
    lines = [line.split(";") for line in text.splitlines()]
    header = lines[0]
    assert header[-1] == "Voorlopig"
    evening4 = header.index("A4")
    by_name = {line[1]: line for line in lines[1:]}
    for name in names:
        assert by_name[name][-1] == "A4"
        assert by_name[name][evening4].strip("()").lstrip("-").isdigit()
    assert all(by_name[n][-1] == "" for n in set(by_name) - names)


def test_an_unentered_table_shows_the_mark_not_a_counted_zero(director_client, season, director):
    """A fourth evening of one round whose second table has nothing entered: its players
    get no 0 (not counted, not bold) but the mark, on the page, the PDF, workbook and CSV."""
    tournament = played_tournament(
        8, 1, seed=9, names=NAMES[:8], director=director, last_round=[11, 0]
    )
    competition_add(competition=season, tournament=tournament)
    table = Table.objects.get(round__tournament=tournament, number=2)
    names = set(table.seats.values_list("player__name", flat=True))
    standings = season_of(season)
    pending = {standings.members[m].name for m, n in standings.pending if n == 4}
    assert pending == names
    by_name = {standings.members[r.member].name: r for r in standings.rows}
    for name in names:
        row = by_name[name]
        assert row.per_evening[3] is None and 4 not in row.counted
        assert standings.is_provisional(row, 4) and standings.is_provisional(row)
    page = director_client.get(reverse("competition_detail", args=[season.slug]))
    assert LEGEND_NL in page.content.decode()
    for line in page.context["lines"]:
        points, counted, provisional = line["cells"][3]
        if line["member"].name in names:
            assert (points, counted, provisional) == (None, False, True)
        elif line["member"].name in NAMES[:8]:
            assert points is not None and not provisional
    assert 'class="num evening provisional"></td>' in page.content.decode()
    pdf = director_client.get(reverse("competition_print", args=[season.slug]))
    assert LEGEND_NL in pdf_pages(pdf.content)[0]
    xlsx = director_client.get(reverse("competition_download", args=[season.slug, "xlsx"]))
    rows = list(load_workbook(io.BytesIO(xlsx.content))["Klassement"].iter_rows(values_only=True))
    evening4 = rows[0].index("A4")
    assert {r[1] for r in rows[1:] if r[evening4] == "*"} == names
    csv = director_client.get(reverse("competition_download", args=[season.slug, "csv"]))
    lines = [line.split(";") for line in csv.content.decode("utf-8-sig").splitlines()]
    assert {line[1] for line in lines[1:] if line[-1] == "A4"} == names
    assert all(line[evening4] == "" for line in lines[1:] if line[1] in names)


def test_statistics_say_nobody_when_no_round_went_without_a_bol(season):
    from tournament.season.exports import SeasonStatistics, statistics_rows

    stats = SeasonStatistics(bol_free=[], best=[], by_hand_size={})
    rows = statistics_rows(season_of(season), stats).rows
    assert rows[0][0] == "Meeste rondes zonder bol"
    assert rows[1][0] == "niemand"


def test_the_workbook_counts_rounds_without_a_bol_not_deals(director_client, season):
    xlsx = director_client.get(reverse("competition_download", args=[season.slug, "xlsx"]))
    sheet = load_workbook(io.BytesIO(xlsx.content))["Statistieken"]
    labels = [row[0] for row in sheet.iter_rows(values_only=True)]
    assert "Meeste rondes zonder bol" in labels
    assert "Meeste spellen zonder bol" not in labels
