"""The season's files as a secretary prints them and a spreadsheet adds them up: evenings in
date order, guests apart and never ranked, players tied to nobody in neither, the register's
current names on every sheet, every evening's points a number, the rule and the key to the
evenings on every file, and the JSON as its schema says."""

from __future__ import annotations

import csv
import datetime
import io
import json

import pytest
from django.core.management import call_command
from django.urls import reverse
from jsonschema import Draft202012Validator
from openpyxl import load_workbook

from tests.printing.reading import pdf_pages
from tournament.models import Competition, Member, Player
from tournament.season.exports import SCHEMA_PATH
from tournament.season.selectors import average_shown, season_of

pytestmark = pytest.mark.django_db

SCHEMA = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
# The conftest's evenings (all ten, nine without J, eight without A and J) get dates out of
# the order they were added in: the third one played first.
DATES = [datetime.date(2026, 9, 18), datetime.date(2026, 9, 25), datetime.date(2026, 9, 4)]


@pytest.fixture
def club_season(season):
    """The conftest's season with dates, a minimum of 2, a club name, Lid J a guest (one
    evening), Lid B renamed, and Lid C's last evening tied to nobody."""
    evenings = list(season.evenings.order_by("number").select_related("tournament"))
    for evening, day in zip(evenings, DATES, strict=True):
        evening.tournament.date = day
        evening.tournament.save(update_fields=["date"])
    season.min_evenings = 2
    season.save()
    season.club.name = "BC De Troef"
    season.club.save()
    Member.objects.filter(name="Lid J").update(guest=True)
    Member.objects.filter(name="Lid B").update(name="Bea Bakker")
    Player.objects.filter(tournament=evenings[1].tournament, name="Lid C").update(member=None)
    return season, [e.tournament for e in evenings]


def test_guests_come_apart_untied_players_nowhere_and_evenings_go_by_date(club_season):
    competition, (first, second, third) = club_season
    season = season_of(competition)
    assert [e.tournament for e in season.evenings] == [third, first, second]
    assert season.numbers == (1, 2, 3)
    names = [season.members[r.member].name for r in season.rows]
    assert "Lid J" not in names and "Bea Bakker" in names and len(names) == 9
    (guest,) = season.guests
    assert season.members[guest.member].name == "Lid J"
    assert guest.played == 1 and guest.per_evening[0] is None and guest.per_evening[1]
    lid_c = next(r for r in season.rows if season.members[r.member].name == "Lid C")
    assert lid_c.played == 2 and lid_c.per_evening[2] is None  # the untied evening is nobody's

    document = json.loads(
        call_command_out("export_competition_standings", competition.slug, "--format", "json")
    )
    Draft202012Validator(SCHEMA, format_checker=Draft202012Validator.FORMAT_CHECKER).validate(
        document
    )
    assert document["evenings"] == 3 and document["club"] == "BC De Troef"
    assert [(e["number"], e["date"], e["complete"]) for e in document["evening_list"]] == [
        (1, "2026-09-04", True),
        (2, "2026-09-18", True),
        (3, "2026-09-25", True),
    ]
    assert [g["name"] for g in document["guests"]] == ["Lid J"]
    assert "Lid J" not in {r["name"] for r in document["standings"]}
    for row, line in zip(document["standings"], season.rows, strict=True):
        assert (row["bollen"], row["correct"]) == (line.bollen, line.correct)
        assert row["bollen"] == sum(line.per_evening[n - 1].bollen for n in row["counted"]), row[
            "name"
        ]


def call_command_out(*args: str) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def test_the_csv_and_the_workbook_give_every_evening_as_a_number_and_say_what_they_are(
    director_client, club_season
):
    competition, _tournaments = club_season
    text = director_client.get(reverse("competition_download", args=[competition.slug, "csv"]))
    header, *rows = csv.reader(io.StringIO(text.content.decode("utf-8-sig")), delimiter=";")
    evenings = [header.index(label) for label in ("A1", "A2", "A3")]
    counted = header.index("Getelde avonden")
    assert [r[1] for r in rows if r[1] == "Lid J"] == []
    for row in rows:
        points = {header[i]: int(row[i]) for i in evenings if row[i] != ""}
        assert int(row[3]) == sum(points[label] for label in row[counted].split()), row
        assert not any("(" in cell for cell in row)

    xlsx = director_client.get(reverse("competition_download", args=[competition.slug, "xlsx"]))
    book = load_workbook(io.BytesIO(xlsx.content))
    sheet = book["Klassement"]
    values = list(sheet.iter_rows(values_only=True))
    assert values[0][0] == "Clubkampioenschap 2026: Seizoensklassement na avond 3"
    assert values[1][0] == (
        "BC De Troef. De beste 2 van de 3 avonden tellen voor elk lid. "
        "Een lid heeft 2 avonden nodig om geklasseerd te worden."
    )
    head = values[2]
    members = values[3:12]
    assert all(isinstance(r[i], int) for r in members for i in (3, 4) if r[i] is not None)
    cells = list(sheet.iter_rows(min_row=4, max_row=12))
    for row in cells:
        for label in ("A1", "A2", "A3"):
            cell = row[head.index(label)]
            if cell.value is not None:
                assert cell.font.b == (label in row[head.index("Getelde avonden")].value)
    texts = [r[:2] for r in values[12:]]
    assert ("Gasten (niet geklasseerd)", None) in texts
    assert next(r for r in values[12:] if r[1] == "Lid J")[3] > 0
    assert ("A1", "Testtoernooi, 4 september 2026") in texts
    assert ("A3", "Testtoernooi, 25 september 2026") in texts
    assert sheet.oddHeader.center.text == "Clubkampioenschap 2026 · BC De Troef"
    assert (sheet.oddHeader.left.text, sheet.oddHeader.right.text) == (None, None)
    assert (sheet.oddFooter.left.text, sheet.oddFooter.right.text) == (
        "Klassement",
        "Pagina &P van &N",
    )
    evening = list(book["Avond 2"].iter_rows(values_only=True))  # the first added: 18 Sept.
    assert evening[0][0] == "Avond 2: Testtoernooi, 18 september 2026"
    names = {r[1]: r[6] for r in evening[3:13]}
    assert names["Bea Bakker"] is None and "Lid B" not in names
    assert names["Lid J"] == "gast"
    assert {r[1]: r[6] for r in list(book["Avond 3"].values)[3:12]}["Lid C"] == "gast"


def test_the_average_ranking_on_the_page_the_csv_and_the_notice_board(
    director_client, club_season, tmp_path
):
    competition, _tournaments = club_season
    competition.ranking = Competition.Ranking.AVERAGE
    competition.save()
    season = season_of(competition)
    ranked = [r for r in season.rows if r.ranked]
    assert [r.average for r in ranked] == sorted((r.average for r in ranked), reverse=True)
    for row in season.rows:  # every evening counts
        assert row.counted == tuple(n for n, r in enumerate(row.per_evening, 1) if r)

    page = director_client.get(reverse("competition_detail", args=[competition.slug]))
    html = page.content.decode()
    assert '<span class="wide-label">Gemiddelde</span>' in html
    assert 'id="season-guests"' in html and html.index("Lid J") > html.index("Bea Bakker")
    text = director_client.get(reverse("competition_download", args=[competition.slug, "csv"]))
    header, *rows = csv.reader(io.StringIO(text.content.decode("utf-8-sig")), delimiter=";")
    assert "Getelde avonden" not in header
    shown = [float(r[header.index("Gemiddelde")].replace(",", ".")) for r in rows]
    assert shown == [float(average_shown(r.average)) for r in season.rows]

    pdf = director_client.get(reverse("competition_print", args=[competition.slug])).content
    (tmp_path / "season.pdf").write_bytes(pdf)
    (printed,) = pdf_pages(pdf)
    for said in (
        "Clubkampioenschap 2026 · BC De Troef",
        "Gerangschikt op de gemiddelde punten per gespeelde avond; elke avond telt. "
        "Een lid heeft 2 avonden nodig om geklasseerd te worden.",
        "Gasten (niet geklasseerd)",
        "A1 Testtoernooi, 4 september 2026",
        "A3 Testtoernooi, 25 september 2026",
    ):
        assert said in printed
