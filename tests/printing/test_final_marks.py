"""Every channel of the standings says the same about what is final, at three moments of the
last round: while it is played, complete with a sheet not confirmed yet, and once finished. The
director's page, the public page and its live document, the PDF, the standings' Excel file and
CSV, the workbook and the JSON (checked against its schema)."""

from __future__ import annotations

import csv
import datetime
import io
import json
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse
from jsonschema import Draft202012Validator
from openpyxl import load_workbook

from tests.factories import played_tournament
from tests.printing.reading import pdf_pages
from tests.table.helpers import changed_cells
from tournament.exports.base import PROVISIONAL_FORMAT
from tournament.models import Round, Tournament
from tournament.printing.printouts import standings_printout
from tournament.printing.render import printout_pdf
from tournament.printing.workbook import FinalWorkbookExporter
from tournament.sheets.selectors import sheet_version_number
from tournament.sheets.services import sheet_record
from tournament.sheets.submission import SheetSubmission
from tournament.standings.exports import StandingsExporter
from tournament.standings.selectors import tournament_standings
from tournament.tournaments.finish import tournament_finish

pytestmark = pytest.mark.django_db

SCHEMA_PATH = Path(__file__).resolve().parents[2] / "tournament/formats/standings-v1.schema.json"
SCHEMA = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
FINAL_WORDS = re.compile(r"eindstand|eindklassement", re.IGNORECASE)
LEGEND = "voorlopig: formulier nog niet compleet of niet bevestigd"


@dataclass(frozen=True)
class Moment:
    title: str
    final: bool
    rounds_complete: list[int]


MOMENTS = {
    "during the last round": Moment(
        "Stand na ronde 1, ronde 2 wordt gespeeld (voorlopig)", False, [1]
    ),
    "complete, a sheet unconfirmed": Moment("Stand na ronde 2 (voorlopig)", False, [1, 2]),
    "finished": Moment("Eindstand, 14 december 2026", True, [1, 2]),
}


def schema_validate(document: dict) -> None:
    Draft202012Validator(SCHEMA, format_checker=Draft202012Validator.FORMAT_CHECKER).validate(
        document
    )


@pytest.fixture(params=list(MOMENTS))
def moment(request, director) -> tuple[Tournament, Moment]:
    """A Dutch tournament of 9 players in two planned rounds, at one of the three moments."""
    during = request.param == "during the last round"
    tournament = played_tournament(
        9, 2, last_round=[11, 5] if during else None, director=director, seed=2
    )
    Tournament.objects.filter(pk=tournament.pk).update(
        rounds_planned=2, date=datetime.date(2026, 12, 14)
    )
    tournament.refresh_from_db()
    if request.param == "complete, a sheet unconfirmed":
        # The director corrects a complete sheet: the new version waits for a confirmation.
        table = Round.objects.get(tournament=tournament, number=2).tables.order_by("number")[0]
        sheet_record(
            table=table,
            submission=SheetSubmission(
                cells=changed_cells(table),
                base_version=sheet_version_number(table),
                by_user=director,
            ),
        )
    elif request.param == "finished":
        tournament = tournament_finish(tournament=tournament, by_user=director)
    return tournament, MOMENTS[request.param]


def test_every_file_marks_the_same_numbers_provisional_and_says_final_only_at_the_end(
    moment, director_client
):
    tournament, expected = moment
    standings = tournament_standings(tournament)
    provisional = {
        standings.players[row.player].name: standings.is_provisional(row.player)
        for row in standings.rows
    }
    marked = sum(provisional.values())
    assert (marked > 0) == (not expected.final) and marked < len(provisional)
    texts = []

    # The pages: the director's and the public standings headed by the state, and the live
    # document the public pages and the projector follow.
    Tournament.objects.filter(pk=tournament.pk).update(public=True)
    page_html = director_client.get(reverse("standings", args=[tournament.slug])).content.decode()
    public_html = Client().get(reverse("public_standings", args=[tournament.slug])).content
    for html in (page_html, public_html.decode()):
        assert expected.title in html
        assert ('id="provisional-legend"' in html) is bool(marked)
    live = json.loads(Client().get(reverse("public_live", args=[tournament.slug])).content)
    assert live["final"] is expected.final
    assert live["standings"]["rounds_complete"] == expected.rounds_complete
    assert {row["name"]: row["provisional"] for row in live["standings"]["rows"]} == provisional
    texts.append(page_html.split("<h1>")[1].split("</h1>")[0])

    # JSON: valid against the published schema, final only once finished.
    document = json.loads(StandingsExporter(tournament, format="json").render().data)
    schema_validate(document)
    assert document["final"] is expected.final
    assert (document["finished_at"] is not None) is expected.final
    assert document["rounds"] == [1, 2]
    assert all(len(row["per_round"]) == 2 for row in document["standings"])
    assert document["rounds_complete"] == expected.rounds_complete
    assert document["rounds_counted"] == len(expected.rounds_complete)
    assert {row["name"]: row["provisional"] for row in document["standings"]} == provisional

    # CSV: a column "Voorlopig", "ja" on exactly the provisional rows.
    exported = StandingsExporter(tournament, format="csv").render()
    text = exported.data.decode("utf-8-sig")
    header, *lines = csv.reader(io.StringIO(text), delimiter=";")
    assert header[-1] == "Voorlopig"
    assert {line[1]: line[-1] == "ja" for line in lines} == provisional
    assert {line[-1] for line in lines} <= {"ja", ""}
    texts += [exported.filename, text]

    # The standings' Excel file and the workbook's standings sheet: headed by the state, the
    # provisional totals shown with a "*", the legend below them.
    standings_file = StandingsExporter(tournament, format="xlsx").render()
    workbook_file = FinalWorkbookExporter(tournament).render()
    assert workbook_file.filename.endswith("-eindstand.xlsx") is expected.final
    for data in (standings_file.data, workbook_file.data):
        workbook = load_workbook(io.BytesIO(data))
        sheet = workbook["Klassement"]
        assert sheet["A1"].value == expected.title
        rows = list(sheet.iter_rows(min_row=3))
        players = [row for row in rows if isinstance(row[0].value, int)]
        assert {row[1].value: row[-1].value == "ja" for row in players} == provisional
        assert {row[1].value: row[3].number_format == PROVISIONAL_FORMAT for row in players} == (
            provisional
        )
        assert all(row[3].data_type == "n" for row in players)
        legend = [(row[0].value, row[1].value) for row in rows[len(players) :] if row[0].value]
        assert legend == ([("*", LEGEND)] if marked else [])
        texts += [workbook.properties.title, sheet["A1"].value]
    assert workbook.properties.title.startswith("Eindklassement") is expected.final
    texts.append(workbook_file.filename)

    # The PDF: headed by the state, a "*" after each provisional total and each provisional
    # round's points (as the standings pages mark them), and the legend.
    printout = standings_printout(tournament)
    (page,) = pdf_pages(printout_pdf(printout, tournament=tournament, base_url="http://x/"))
    assert expected.title in page
    rounds_marked = sum(
        standings.is_provisional(row.player, number)
        for row in standings.rows
        for number in standings.rounds_counted
    )
    assert marked <= rounds_marked
    assert page.count("*") == marked + rounds_marked + (1 if marked else 0)
    assert (LEGEND in page) is bool(marked)
    assert ("1e prijs" in page) is expected.final  # the prizes, once there are any
    squashed = re.sub(r"\s+", "", page)
    for row in standings.rows:
        if standings.is_provisional(row.player):
            rounds = "".join(
                str(row.per_round.get(number, "\N{EN DASH}"))
                + ("*" if standings.is_provisional(row.player, number) else "")
                for number in standings.rounds_counted
            )
            assert f"{rounds}{row.tournament_points}*{row.bollen}{row.correct}" in squashed
    texts += [printout.filename, page]

    # No channel says "final" before the end; the PDF does once finished.
    if not expected.final:
        assert not [t for t in texts if FINAL_WORDS.search(t)]
        assert "na ronde 2" not in page or expected.rounds_complete == [1, 2]
    else:
        assert "Eindstand" in page


def test_the_schemas_example_is_valid_and_names_its_id():
    assert SCHEMA["$id"] == "urn:bollen-toernooi:schema:standings-v1"
    assert SCHEMA["examples"]
    for example in SCHEMA["examples"]:
        schema_validate(example)
