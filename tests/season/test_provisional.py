"""An evening is final once its tournament is finished; until then every result of it is
provisional, and so are the season points of each member who played it. Every channel of the
season (the director's page, the public page, the notice-board print, the workbook, the CSV and
the JSON) marks the same members and the evening itself, and none says final before the end."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest
from django.core.management import call_command
from django.urls import reverse
from jsonschema import Draft202012Validator
from openpyxl import load_workbook

from tests.factories import played_tournament
from tests.printing.reading import pdf_pages
from tests.season.conftest import NAMES, evening
from tournament.models import Table
from tournament.season.exports import SCHEMA_PATH
from tournament.season.selectors import season_of
from tournament.season.services import competition_add
from tournament.sheets.services import sheet_record
from tournament.sheets.submission import SheetSubmission
from tournament.standings.selectors import tournament_standings
from tournament.tournaments.finish import tournament_finish

pytestmark = pytest.mark.django_db

LEGEND_NL = "voorlopig: uit een avond die nog wordt gespeeld (nog niet afgesloten)"
IN_PLAY_NL = "Seizoensklassement, avond 4 wordt nog gespeeld (voorlopig)"
TOTAL = r'<td class="name">([^<]*)</td>.*?<td class="num total">-?\d+(\*?)</td>'
SCHEMA = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


def season_table(rows: list) -> tuple[list, list]:
    """The standings sheet's header (below the title and the rule) and the members' rows (up
    to the first empty row)."""
    header, *rest = rows[2:]
    members = []
    for row in rest:
        values = [getattr(c, "value", c) for c in row]
        if not any(v is not None for v in values):
            break
        members.append(row)
    return header, members


def valid(document: dict) -> dict:
    Draft202012Validator(SCHEMA, format_checker=Draft202012Validator.FORMAT_CHECKER).validate(
        document
    )
    return document


@pytest.fixture
def in_play(season, director):
    """A fourth evening of eight members, every sheet complete but the tournament not finished
    (its director may still play a round more): still being played."""
    tournament = evening(4, NAMES[:8], director, finished=False)
    competition_add(competition=season, tournament=tournament)
    season.public = True
    season.save()
    return season, tournament


def channels(director_client, client, season) -> dict[str, tuple[str, set[str]]]:
    """Each channel's heading (or final flag) and the members whose points it marks."""
    slug = season.slug
    page = director_client.get(reverse("competition_detail", args=[slug]))
    public = client.get(reverse("public_season", args=[slug]))
    printed = director_client.get(reverse("competition_print", args=[slug]), {"format": "html"})
    printed_text = printed.content.decode()
    xlsx = director_client.get(reverse("competition_download", args=[slug, "xlsx"]))
    book = load_workbook(io.BytesIO(xlsx.content))
    header, sheet = season_table(list(book["Klassement"].iter_rows()))
    points = [c.value for c in header].index("Punten")
    text = director_client.get(reverse("competition_download", args=[slug, "csv"]))
    rows = list(csv.reader(io.StringIO(text.content.decode("utf-8-sig")), delimiter=";"))
    assert rows[0][-2:] == ["Voorlopige avonden", "Voorlopig"]
    out = io.StringIO()
    call_command("export_competition_standings", slug, "--format", "json", stdout=out)
    document = valid(json.loads(out.getvalue()))

    def heading(response) -> str:
        return re.search(r'id="season-title">([^<]*)<', response.content.decode())[1]

    return {
        "page": (
            heading(page),
            {li["member"].name for li in page.context["lines"] if li["provisional"]},
        ),
        "public": (
            heading(public),
            {li["member"].name for li in public.context["lines"] if li["provisional"]},
        ),
        "print": (
            re.search(r"<h1>([^<]*)</h1>", printed_text)[1],
            {name for name, mark in re.findall(TOTAL, printed_text) if mark},
        ),
        "xlsx": (
            book.properties.title,
            {r[1].value for r in sheet if '"*"' in r[points].number_format},
        ),
        "csv": ("", {r[1] for r in rows[1:] if r[-1] == "ja"}),
        "json": (
            str(document["final"]),
            {r["name"] for r in document["standings"] if r["provisional"]},
        ),
    }


def test_an_evening_being_played_is_marked_in_every_channel_until_it_is_finished(
    director_client, client, in_play
):
    season, tournament = in_play
    played = set(NAMES[:8])
    before = channels(director_client, client, season)
    assert {name: marked for name, (_t, marked) in before.items()} == {
        name: played for name in before
    }
    for name in ("page", "public", "print"):
        assert before[name][0] == IN_PLAY_NL
    assert before["xlsx"][0] == f"Clubkampioenschap 2026: {IN_PLAY_NL}"
    assert before["json"][0] == "False"

    page = director_client.get(reverse("competition_detail", args=[season.slug])).content.decode()
    assert LEGEND_NL in page and "Eindstand" not in page
    assert page.count('<th class="num evening provisional">') == 1
    assert "wordt nog gespeeld (voorlopig)</strong>" in page  # the list of evenings
    public = client.get(reverse("public_season", args=[season.slug])).content.decode()
    assert LEGEND_NL in public and "(Testtoernooi): <strong" in public  # evening 4's legend
    (pdf,) = pdf_pages(
        director_client.get(reverse("competition_print", args=[season.slug])).content
    )
    assert IN_PLAY_NL in pdf and LEGEND_NL in pdf and "A4*" in pdf
    book = load_workbook(
        io.BytesIO(
            director_client.get(reverse("competition_download", args=[season.slug, "xlsx"])).content
        )
    )
    rows = list(book["Klassement"].iter_rows(values_only=True))
    header, members = season_table(rows)
    assert "A4*" in header and "A3" in header  # only the evening being played
    assert len(members) == len(NAMES)
    assert all(isinstance(r[3], int) for r in members)  # numbers stay numbers
    assert ("*", LEGEND_NL) in [r[:2] for r in rows] and rows[0][0].endswith(IN_PLAY_NL)
    evening4 = list(book["Avond 4"].iter_rows())
    assert all('"*"' in r[3].number_format for r in evening4[3:11])
    assert evening4[1][0].value.startswith("Stand na ronde 2")
    evening3 = book["Avond 3"].iter_rows(min_row=4, max_row=11)
    assert not any('"*"' in r[3].number_format for r in evening3)
    out = io.StringIO()
    call_command("export_competition_standings", season.slug, stdout=out)
    document = json.loads(out.getvalue())
    assert [e["final"] for e in document["evening_list"]] == [True, True, True, False]
    # Every sheet of evening 4 is in, confirmed: complete, though not finished yet.
    assert all(e["complete"] for e in document["evening_list"])
    marked = {
        r["name"]: r["provisional_evenings"] for r in document["standings"] if r["provisional"]
    }
    assert marked == {name: [4] for name in played}

    tournament_finish(tournament=tournament)
    after = channels(director_client, client, season)
    assert {name: marked for name, (_t, marked) in after.items()} == {name: set() for name in after}
    for name in ("page", "public", "print"):
        assert after[name][0] == "Seizoensklassement na avond 4"
    assert after["json"][0] == "True"
    page = director_client.get(reverse("competition_detail", args=[season.slug])).content.decode()
    assert LEGEND_NL not in page and "provisional" not in page


def test_a_half_played_evening_reads_as_its_tournament_standings_and_marks_all_who_play(
    season, director
):
    """A fourth evening whose second round has a table not complete, one deal typed on the site
    and not confirmed: its standings are the tournament's own, and every member of it is
    provisional, not only those at the open table."""
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
    standings = season_of(season)
    evening4 = standings.evenings[3]
    own = tournament_standings(tournament)
    for field in ("rows", "players", "rounds_counted", "provisional", "unfinished", "left_out"):
        assert getattr(evening4.standings, field) == getattr(own, field), field
    assert evening4.standings.rounds_complete == own.rounds_complete == (1,)
    assert own.provisional  # the typed deal waits for a confirmation
    assert evening4.title() == own.state.title()
    assert {standings.members[m].name for m, n in standings.provisional} == set(NAMES[:8])
    assert {n for _m, n in standings.provisional} == {4}
    assert standings.in_play == (4,) and not standings.final
    assert not evening4.complete and standings.evenings[2].complete


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
    for line in page.context["lines"]:
        points, counted, provisional = line["cells"][3]
        if line["member"].name in names:
            assert (points, counted, provisional) == (None, False, True)
        elif line["member"].name in NAMES[:8]:
            assert points is not None and provisional
    assert 'class="num evening provisional"></td>' in page.content.decode()
    printed = director_client.get(
        reverse("competition_print", args=[season.slug]), {"format": "html"}
    )
    assert printed.content.decode().count('<td class="num">*</td>') == len(names)
    xlsx = director_client.get(reverse("competition_download", args=[season.slug, "xlsx"]))
    header, rows = season_table(
        list(load_workbook(io.BytesIO(xlsx.content))["Klassement"].iter_rows(values_only=True))
    )
    evening4 = header.index("A4*")
    assert {r[1] for r in rows if r[evening4] == "*"} == names
    text = director_client.get(reverse("competition_download", args=[season.slug, "csv"]))
    lines = [line.split(";") for line in text.content.decode("utf-8-sig").splitlines()]
    assert {line[1] for line in lines[1:] if line[-2] == "A4"} == set(NAMES[:8])
    assert all(line[evening4] == "" for line in lines[1:] if line[1] in names)
    document = json.loads(
        director_client.get(reverse("competition_download", args=[season.slug, "json"])).content
    )
    valid(document)
    pending_rows = [r for r in document["standings"] if r["name"] in names]
    assert all(
        r["per_evening"][3] is None and r["provisional_evenings"] == [4] for r in pending_rows
    )


def test_a_season_of_finished_evenings_is_final_and_shows_no_mark(director_client, season):
    text = director_client.get(reverse("competition_detail", args=[season.slug])).content.decode()
    assert LEGEND_NL not in text and "Seizoensklassement na avond 3" in text
    assert text.count("afgesloten") == 3


def test_the_schema_examples_are_documents_it_accepts():
    assert SCHEMA["$id"] == "urn:bollen-toernooi:schema:competition-standings-v1"
    Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["examples"]
    for example in SCHEMA["examples"]:
        valid(example)
    example = SCHEMA["examples"][0]
    assert not example["final"] and any(r["provisional"] for r in example["standings"])


def test_statistics_say_nobody_when_no_round_went_without_a_bol(season):
    from tournament.season.workbook import SeasonStatistics, statistics_rows

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
