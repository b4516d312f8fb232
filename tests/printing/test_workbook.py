"""The final ranking workbook and the standings CSV, read back and compared with the standings,
the sheets and the statistics."""

import csv
import datetime
import io

import pytest
from django.urls import reverse
from django.utils import translation
from openpyxl import load_workbook
from openpyxl.utils import get_column_letter

from scoring.deals import DEALS
from scoring.sheet import CellState
from scoring.statistics import Game, tournament_statistics
from tests import factories
from tests.factories import round_completed
from tournament.adapter import load_table_sheets
from tournament.exports.base import FORMULA_STARTS
from tournament.models import Player
from tournament.printing.workbook import FinalWorkbookExporter
from tournament.standings.exports import StandingsExporter
from tournament.standings.selectors import tournament_standings
from tournament.tournaments.finish import tournament_finish

pytestmark = pytest.mark.django_db

TEXT_THAT_LOOKS_LIKE_A_FORMULA = ["=1+1", "+31 6", "-Jan", "@Marie", "\tTab", "\rReturn"]


@pytest.fixture
def workbook(director_client, tournament):
    """The workbook of the finished tournament: the final one."""
    tournament_finish(tournament=tournament)
    tournament.refresh_from_db()
    response = director_client.get(reverse("print_workbook", args=[tournament.slug]))
    assert response.status_code == 200
    assert response["Content-Disposition"] == (
        f'attachment; filename="{tournament.slug}-eindstand.xlsx"'
    )
    return load_workbook(io.BytesIO(response.content))


def rows(sheet, first=1):
    return [list(row) for row in sheet.iter_rows(min_row=first, values_only=True)]


def test_the_sheets_are_standings_each_round_and_statistics(workbook):
    assert workbook.sheetnames == ["Standings", "Round 1", "Round 2", "Statistics", "Games"]
    assert workbook.properties.creator == "Bollen-toernooi"
    assert workbook.properties.title.startswith("Final ranking ")


def test_dutch_tournament_names_its_sheets_in_dutch(director):
    tournament = factories.played_tournament(8, 2, director=director)
    data = FinalWorkbookExporter(tournament).render().data
    names = load_workbook(io.BytesIO(data)).sheetnames
    assert names == ["Klassement", "Ronde 1", "Ronde 2", "Statistieken", "Partijen"]


def test_standings_sheet_matches_the_standings(workbook, tournament):
    sheet = workbook["Standings"]
    standings = tournament_standings(tournament)
    (title, *_empty), header, *lines = rows(sheet)
    with translation.override("en"):
        assert title == standings.state.title()
    assert title.startswith("Final standings, ")
    assert header == [
        "Rank",
        "Name",
        "Club",
        "Total",
        "R1",
        "R2",
        "Bollen",
        "Correct",
        "Provisional",
    ]
    assert len(lines) == len(standings.rows) == 13
    for line, row in zip(lines, standings.rows, strict=True):
        player = standings.players[row.player]
        assert line == [
            row.rank,
            player.name,
            player.club or None,
            row.tournament_points,
            row.per_round[1],
            row.per_round[2],
            row.bollen,
            row.correct,
            None,  # final: nothing provisional
        ]
    assert sheet["A1"].font.bold and all(cell.font.bold for cell in sheet[2])
    assert sheet.freeze_panes == "A3"
    assert sheet.auto_filter.ref == "A2:I15"
    assert sheet["A3"].data_type == "n" and sheet["D3"].data_type == "n"
    assert 25 <= sheet.column_dimensions["B"].width <= 40  # the long names, within reason
    # Its few columns print upright, one page wide, the title and header on every page.
    assert sheet.page_setup.orientation == "portrait"
    assert sheet.print_title_rows == "$1:$2"
    assert sheet.print_area == "'Standings'!$A$1:$I$15"
    assert sheet.sheet_properties.pageSetUpPr.fitToPage
    assert (sheet.page_setup.fitToWidth, sheet.page_setup.fitToHeight) == (1, 0)


def test_each_round_sheet_is_every_tables_full_sheet(workbook, tournament):
    standings = tournament_standings(tournament)
    per_round = {(row.player, r): p for row in standings.rows for r, p in row.per_round.items()}
    names = {pk: player.name for pk, player in standings.players.items()}
    for number in (1, 2):
        sheet = workbook[f"Round {number}"]
        labels, header, *lines = rows(sheet)
        assert [str(labels[3 + 3 * i]) for i in range(len(DEALS))] == [d.label for d in DEALS]
        # Each label spans its deal's three columns; hand sizes are numbers, not text.
        assert {str(r) for r in sheet.merged_cells.ranges} == {
            f"{get_column_letter(4 + 3 * i)}1:{get_column_letter(6 + 3 * i)}1"
            for i in range(len(DEALS))
        }
        assert all(sheet.cell(1, 4 + 3 * i).data_type == "n" for i in (0, 1, 2, 3, 4))
        assert sheet.cell(1, 4 + 3 * 5).value == "5Z"
        assert header[:6] == ["Table", "Seat", "Name", "Bid", "Tricks", "Points"]
        assert header[-5:] == ["Revokes", "Bollen", "Points", "Correct", "Total"]
        assert sheet.freeze_panes == "D3"
        assert sheet.print_title_rows == "$1:$2"
        assert sheet.auto_filter.ref == f"A2:AO{len(lines) + 2}"
        assert all(cell.font.bold for cell in sheet[2])

        expected = []
        for table in load_table_sheets(tournament=tournament, round_number=number):
            result = table.result()
            for seat, pid in enumerate(table.player_ids):
                line = [table.table_number, seat + 1, names[pid]]
                for deal_cells in result.cells:
                    cell = deal_cells[seat]
                    shown = 0 if cell.state is CellState.BOL else cell.points
                    line += [cell.bid, cell.tricks, shown]
                totals = result.totals[seat]
                line += [
                    totals.penalty_bollen,
                    totals.bollen,
                    totals.points,
                    totals.correct,
                    totals.tournament_points,
                ]
                assert totals.tournament_points == per_round[pid, number]
                expected.append(line)
        assert lines == expected


def test_bol_cells_are_zero_shown_as_bol_so_columns_sum(workbook, tournament):
    sheet = workbook["Round 1"]
    bol_cells, kept_cells = [], []
    for row in sheet.iter_rows(min_row=3):
        for deal in range(len(DEALS)):
            cell = row[3 + 3 * deal + 2]
            if cell.value is None:
                continue
            assert cell.data_type == "n", cell.coordinate
            if cell.number_format == '"bol";"bol";"bol"':
                bol_cells.append(cell)
            else:
                kept_cells.append(cell)
    assert bol_cells and kept_cells
    assert all(cell.value == 0 for cell in bol_cells)
    # Each row's per-deal points add up to its total of points, as a SUM in Excel would.
    for row in sheet.iter_rows(min_row=3, values_only=True):
        per_deal = [row[3 + 3 * deal + 2] or 0 for deal in range(len(DEALS))]
        assert sum(per_deal) == row[-3]


def test_every_sheet_prints_one_page_wide_with_its_header_clear_of_the_rows(workbook):
    """What LibreOffice makes of it is in test_workbook_pages (a browser test)."""
    orientations = {}
    for sheet in workbook.worksheets:
        setup, margins = sheet.page_setup, sheet.page_margins
        assert int(setup.paperSize) == int(sheet.PAPERSIZE_A4), sheet.title
        assert sheet.sheet_properties.pageSetUpPr.fitToPage, sheet.title
        # A round's 13 players fit on one page in every program: fitted to one page tall.
        tall = 1 if sheet.title.startswith("Round") else 0
        assert (setup.fitToWidth, setup.fitToHeight) == (1, tall), sheet.title
        assert margins.header < margins.top - 0.3 and margins.footer < margins.bottom - 0.2
        assert sheet.print_area.startswith(f"'{sheet.title}'!$A$1:"), sheet.title
        orientations[sheet.title] = setup.orientation
    assert orientations == {
        "Standings": "portrait",
        "Round 1": "landscape",
        "Round 2": "landscape",
        "Statistics": "landscape",
        "Games": "portrait",
    }


def test_round_sheets_print_one_page_wide_at_readable_size(workbook):
    sheet = workbook["Round 1"]
    assert sheet.print_title_cols == "$A:$C" and sheet.print_title_rows == "$1:$2"
    assert sheet.print_area == "'Round 1'!$A$1:$AO$15"
    assert not sheet.col_breaks.brk
    # The column headers stand on end, so that each column is as wide as its numbers; the row
    # is tall enough for the longest of them.
    assert {sheet.cell(2, c).alignment.textRotation for c in (1, 2, *range(4, 42))} == {90}
    assert sheet.row_dimensions[2].height >= 6 * len("Revokes")
    # Excel fits the sheet to the page's width at the scale its columns allow: A4 landscape
    # less the margins, Calibri 11's 7 pixels a digit's width.
    page_pixels = (297 / 25.4 - sheet.page_margins.left - sheet.page_margins.right) * 96
    widths = [sheet.column_dimensions[get_column_letter(c)].width for c in range(1, 42)]
    scale = page_pixels / sum(round(w * 7) for w in widths)
    assert scale * 11 >= 9.5  # points on paper
    # A line opens each deal and each table.
    assert all(sheet.cell(3, 4 + 3 * deal).border.left.style == "thin" for deal in range(12))
    tables = [sheet.cell(row, 1).value for row in range(3, sheet.max_row + 1)]
    for row, (above, table) in enumerate(zip([None, *tables], tables, strict=False), start=3):
        assert (sheet.cell(row, 2).border.top.style == "thin") == (table != above), row


def test_every_cell_names_its_font(workbook):
    """LibreOffice prints a font without a name in a serif (a bold header among sans-serif
    numbers); openpyxl's default style is Calibri."""
    for sheet in workbook.worksheets:
        for row in sheet.iter_rows():
            for cell in row:
                assert cell.font.name == "Calibri", (sheet.title, cell.coordinate)


def test_every_printed_page_names_the_tournament_the_sheet_and_the_page(director, tournament):
    tournament.date = datetime.date(2025, 12, 6)
    tournament.name = "Bollen & Co"
    tournament.language = "nl"
    tournament.save(update_fields=["date", "name", "language"])
    data = FinalWorkbookExporter(tournament).render().data
    workbook = load_workbook(io.BytesIO(data))
    standings = load_workbook(
        io.BytesIO(StandingsExporter(tournament, format="xlsx").render().data)
    )
    for sheet in [*workbook.worksheets, *standings.worksheets]:
        # The long part alone in the header, the two short ones apart in the footer: no part
        # prints over another.
        header, footer = sheet.oddHeader, sheet.oddFooter
        assert header.center.text == "Bollen && Co, 6 december 2025", sheet.title
        assert (header.left.text, header.right.text) == (None, None)
        assert footer.left.text == sheet.title
        assert footer.right.text == "Pagina &P van &N"
        assert footer.center.text is None

    # A name too long for the page's width keeps its start and its date.
    tournament.name = (
        "Voorjaarstoernooi van Bollenclub De Vrolijke Kaarters uit Enschede en omstreken"
    )
    tournament.save(update_fields=["name"])
    workbook = load_workbook(io.BytesIO(FinalWorkbookExporter(tournament).render().data))
    upright = workbook["Partijen"].oddHeader.center.text
    assert upright.startswith("Voorjaarstoernooi van Bollenclub De Vrolijke")
    assert upright.endswith(" 6 december 2025") and "…" in upright and len(upright) <= 70
    assert workbook["Ronde 1"].oddHeader.center.text == f"{tournament.name}, 6 december 2025"


def test_names_stand_apart_from_the_number_before_them(workbook):
    """Excel and LibreOffice indent only text aligned left (or right), not by default."""
    round_sheet, standings = workbook["Round 1"], workbook["Standings"]
    assert round_sheet["B3"].alignment.horizontal == "center"
    games = workbook["Games"]
    header = next(row for row in games.iter_rows(min_row=2) if row[2].value == "Name")
    name = games.cell(header[2].row + 1, 3)
    for cell in (round_sheet["C3"], standings["B2"], standings["B3"], header[2], name):
        assert (cell.alignment.horizontal, cell.alignment.indent) == ("left", 1), cell.coordinate
    # A number's header stands right, over its numbers.
    assert {standings["A2"].alignment.horizontal, header[1].alignment.horizontal} == {"right"}


def test_no_bol_free_games_says_none_instead_of_an_empty_table(director):
    tournament = factories.played_tournament(8, 1, director=director)
    tournament.language = "nl"
    tournament.save(update_fields=["language"])
    workbook = FinalWorkbookExporter(tournament)
    stats = tournament_statistics(
        Game(s.round_number, s.table_number, s.player_ids, s.result())
        for s in load_table_sheets(tournament=tournament)
    )
    table = rows(load_workbook(io.BytesIO(workbook.render().data))["Partijen"])
    assert not stats.bol_free
    assert table[0][0].startswith("Bolloze potjes: 0 ")
    assert table[1][:2] == ["geen", None]


def test_statistics_sheet_lays_out_the_statistics(workbook, tournament):
    sheets = load_table_sheets(tournament=tournament)
    stats = tournament_statistics(
        Game(s.round_number, s.table_number, s.player_ids, s.result()) for s in sheets
    )
    sheet = workbook["Statistics"]
    table = rows(sheet)
    header = table[0]
    assert header[:4] == ["Kind", "Deals", "Bids", "Kept"]
    by_group = {line[1]: line for line in table[1:] if line[0]}
    assert by_group["1 card"][2:9] == [
        stats.by_hand_size[1].bids,
        stats.by_hand_size[1].kept,
        stats.by_hand_size[1].bollen,
        stats.by_hand_size[1].over,
        stats.by_hand_size[1].under,
        pytest.approx(stats.by_hand_size[1].accuracy),
        pytest.approx(stats.by_hand_size[1].bol_rate),
    ]
    assert by_group["5 cards"][2] == stats.by_hand_size[5].bids
    assert by_group["5B (bid blind)"][2:4] == [stats.blind.bids, stats.blind.kept]
    assert by_group["All other deals"][2:4] == [stats.others.bids, stats.others.kept]
    assert by_group["Deal 7 (5B)"][2:4] == [stats.blind.bids, stats.blind.kept]
    assert by_group["All deals"][2:9] == [
        stats.overall.bids,
        stats.overall.kept,
        stats.overall.bollen,
        stats.overall.over,
        stats.overall.under,
        pytest.approx(stats.overall.accuracy),
        pytest.approx(stats.overall.bol_rate),
    ]
    assert sheet["H2"].number_format == "0.0%"
    assert sheet.freeze_panes == "A2"
    assert not any(str(line[0]).startswith("Bol-free") for line in table)

    games = workbook["Games"]
    assert games.column_dimensions["C"].width >= 20  # names, not the tallies' "Bids" column
    table = rows(games)
    titles = [i for i, line in enumerate(table) if line[0] and str(line[0]).startswith("Bol-free")]
    (bol_free_at,) = titles
    assert table[bol_free_at][0] == (
        f"Bol-free games: {len(stats.bol_free)} of {stats.player_games} games"
    )
    best_at = next(i for i, line in enumerate(table) if line[0] == "Best single game")
    names = dict(Player.objects.filter(tournament=tournament).values_list("pk", "name"))
    best_lines = [line[:7] for line in table[best_at + 2 :]]
    assert best_lines == [
        [g.round, g.table, names[g.player], g.tournament_points, g.bollen, g.points, g.correct]
        for g in stats.best
    ]


def test_text_that_looks_like_a_formula_is_stored_as_text(director_client, tournament):
    players = list(Player.objects.filter(tournament=tournament).order_by("pk"))
    for player, name in zip(players, TEXT_THAT_LOOKS_LIKE_A_FORMULA, strict=False):
        player.name = name
        player.club = '=HYPERLINK("http://x")'
        player.save(update_fields=["name", "club"])
    response = director_client.get(reverse("print_workbook", args=[tournament.slug]))
    workbook = load_workbook(io.BytesIO(response.content))
    # Written through lxml, even a carriage return comes back as written (&#13;).
    read_back = set(TEXT_THAT_LOOKS_LIKE_A_FORMULA)
    found = set()
    for sheet in workbook:
        for row in sheet.iter_rows():
            for cell in row:
                assert cell.data_type != "f", (sheet.title, cell.coordinate, cell.value)
                if cell.value in read_back:
                    assert cell.data_type == "s"
                    found.add(cell.value)
    assert found == read_back
    standings = workbook["Standings"]
    clubs = {row[2] for row in rows(standings, 3)}
    assert {'=HYPERLINK("http://x")', "=SUM(A1)"} <= clubs


def test_standings_csv_puts_an_apostrophe_before_formula_text(director_client, tournament):
    players = list(Player.objects.filter(tournament=tournament).order_by("pk"))
    for player, name in zip(players, TEXT_THAT_LOOKS_LIKE_A_FORMULA, strict=False):
        player.name = name
        player.save(update_fields=["name"])
    response = director_client.get(reverse("standings_download", args=[tournament.slug, "csv"]))
    table = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    written = {row["Name"] for row in table}
    for name in TEXT_THAT_LOOKS_LIKE_A_FORMULA:
        assert name.startswith(FORMULA_STARTS)
        assert "'" + name in written
    standings = tournament_standings(tournament)
    by_rank_name = [(int(row["Rank"]), int(row["Total"])) for row in table]
    assert by_rank_name == [(row.rank, row.tournament_points) for row in standings.rows]


def test_the_workbook_is_called_final_only_once_the_tournament_is_finished(
    director_client, director
):
    tournament = factories.played_tournament(8, 2, last_round=[5, 0], director=director, seed=4)
    url = reverse("print_workbook", args=[tournament.slug])
    disposition = director_client.get(url)["Content-Disposition"]
    assert disposition == f'attachment; filename="{tournament.slug}-tijdens-ronde-2.xlsx"'
    for round_ in tournament.rounds.all():
        round_completed(round_)
    # Every planned round is complete: still not final until the director finishes it
    # (tests/printing/test_final_marks.py: then it is).
    assert tournament.rounds.count() == tournament.rounds_planned
    disposition = director_client.get(url)["Content-Disposition"]
    assert disposition == f'attachment; filename="{tournament.slug}-na-ronde-2.xlsx"'
    director_client.cookies["django_language"] = "en"
    disposition = director_client.get(url)["Content-Disposition"]
    assert disposition == f'attachment; filename="{tournament.slug}-after-round-2.xlsx"'
