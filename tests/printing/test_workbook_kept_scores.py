"""The workbook reads the kept scores and the stored boxes instead of scoring every sheet again:
its round sheets, totals and statistics equal a fresh scoring of every sheet, with penalty
bollen, an unfinished sheet and kept scores that are no longer current."""

import io
import uuid

import pytest
from django.utils import translation
from openpyxl import load_workbook

from scoring.sheet import CellState
from scoring.statistics import Game, tournament_statistics
from tests import factories
from tests.sheets.helpers import stored_cells
from tournament.adapter import load_table_sheets
from tournament.models import Player, Seat, SheetScore, Table
from tournament.printing.workbook import FinalWorkbookExporter, statistics_rows
from tournament.sheets.selectors import sheet_version_number
from tournament.sheets.services import sheet_record
from tournament.sheets.submission import SheetSubmission

pytestmark = pytest.mark.django_db

BOL_FORMAT = '"bol";"bol";"bol"'


def rows(sheet, first=1):
    return [list(row) for row in sheet.iter_rows(min_row=first, values_only=True)]


def saved(table: Table, cells, penalties=()) -> None:
    sheet_record(
        table=table,
        submission=SheetSubmission(
            cells=cells,
            penalties=penalties,
            base_version=sheet_version_number(table),
            idempotency_key=uuid.uuid4(),
        ),
    )


def tricks_swapped(cells, n_seats: int):
    """The sheet with the tricks of seats 0 and 1 swapped in the first deal where they differ:
    still legal (the same tricks in all), but other bids kept."""
    for deal in range(1, 12):
        first, second = cells[deal, 0], cells[deal, 1]
        if first[1] != second[1] and first[0] in (first[1], second[1]):
            changed = dict(cells)
            changed[deal, 0] = (first[0], second[1])
            changed[deal, 1] = (second[0], first[1])
            return changed
    raise AssertionError("no deal whose tricks can be swapped")


def seats_swapped(table: Table) -> None:
    """Seats 0 and 1 change places (the seating changed under a kept score)."""
    first, second = (
        Seat.objects.get(table=table, position=0),
        Seat.objects.get(table=table, position=1),
    )
    Seat.objects.filter(pk=first.pk).update(position=5)
    Seat.objects.filter(pk=second.pk).update(position=0)
    Seat.objects.filter(pk=first.pk).update(position=1)


@pytest.fixture
def tournament(director):
    """13 players at tables of 5, 4 and 4, two rounds; the last round's tables stopped after
    11, 6 and 0 deals. Round 1: a table saved with two penalty bollen, a table whose sheet got a
    new version without a kept score; round 2: the unfinished table's seats changed places."""
    tournament = factories.played_tournament(13, 2, director=director, last_round=[11, 6, 0])
    tournament.language = "en"
    tournament.save(update_fields=["language"])
    first, second, _third = Table.objects.filter(round__tournament=tournament, round__number=1)
    saved(first, stored_cells(first), penalties=[(2, 1), (7, 3)])
    factories.sheet_version_stored(second, tricks_swapped(stored_cells(second), 4))
    unfinished = Table.objects.get(round__tournament=tournament, round__number=2, number=2)
    seats_swapped(unfinished)
    return tournament


def expected_round_rows(tournament, number: int):
    names = dict(Player.objects.filter(tournament=tournament).values_list("pk", "name"))
    lines, bol_places = [], set()
    for table in load_table_sheets(tournament=tournament, round_number=number):
        result = table.result()
        for seat, player in enumerate(table.player_ids):
            line = [table.table_number, seat + 1, names[player]]
            for deal_cells in result.cells:
                cell = deal_cells[seat]
                if cell.state is CellState.BOL:
                    bol_places.add((len(lines), len(line) + 2))
                shown = {CellState.KEPT: cell.points, CellState.BOL: 0}.get(cell.state)
                line += [cell.bid, cell.tricks, shown]
            totals = result.totals[seat]
            line += [
                totals.penalty_bollen,
                totals.bollen,
                totals.points,
                totals.correct,
                totals.tournament_points,
            ]
            lines.append(line)
    return lines, bol_places


def test_the_cases_read_kept_scores_that_are_not_all_current(tournament):
    """What the fixture set up: the penalties counted, two kept scores not current."""
    tables = {
        (t.round.number, t.number): t for t in Table.objects.filter(round__tournament=tournament)
    }
    kept = {s.table_id: s for s in SheetScore.objects.filter(table__round__tournament=tournament)}
    penalised = kept[tables[1, 1].pk]
    assert sum(seat[1] for seat in penalised.totals) == 2  # penalty_bollen
    assert kept[tables[1, 2].pk].version != sheet_version_number(tables[1, 2])
    seat_ids = list(tables[2, 2].seats.order_by("position").values_list("pk", flat=True))
    assert kept[tables[2, 2].pk].seat_ids != seat_ids
    assert not kept[tables[2, 2].pk].complete
    # Read as it is, the kept score of the older version would give other totals.
    fresh = {s.table_id: s.result().totals for s in load_table_sheets(tournament=tournament)}
    assert kept[tables[1, 2].pk].totals != [
        [t.bollen, t.penalty_bollen, t.points, t.correct, t.tournament_points, t.deals_played]
        for t in fresh[tables[1, 2].pk]
    ]


def test_round_sheets_equal_a_fresh_scoring_of_every_sheet(tournament):
    workbook = load_workbook(io.BytesIO(FinalWorkbookExporter(tournament).render().data))
    for number in (1, 2):
        sheet = workbook[f"Round {number}"]
        expected, bol_places = expected_round_rows(tournament, number)
        assert rows(sheet, first=3) == expected
        for line, row in enumerate(sheet.iter_rows(min_row=3)):
            for column, cell in enumerate(row):
                shown_as_bol = cell.number_format == BOL_FORMAT
                assert shown_as_bol == ((line, column) in bol_places), cell.coordinate
    # The unfinished table shows bids and tricks of the deals played and nothing after them.
    unfinished = [line for line in rows(workbook["Round 2"], first=3) if line[0] == 2]
    assert all(value is None for line in unfinished for value in line[3 + 3 * 6 : -5])
    assert any(value is not None for line in unfinished for value in line[3 : 3 + 3 * 6])


def test_statistics_equal_those_of_a_fresh_scoring_of_every_sheet(tournament):
    workbook = load_workbook(io.BytesIO(FinalWorkbookExporter(tournament).render().data))
    stats = tournament_statistics(
        Game(s.round_number, s.table_number, s.player_ids, s.result())
        for s in load_table_sheets(tournament=tournament)
    )
    with translation.override("en"):
        expected = statistics_rows(stats)
    table = rows(workbook["Statistics"])
    assert table[0] == list(expected.header)
    # The shares as the file writes them: to 15 significant digits.
    assert table[1:] == [
        [pytest.approx(v, rel=1e-14) if isinstance(v, float) else v for v in line]
        for line in expected.rows
    ]

    names = dict(Player.objects.filter(tournament=tournament).values_list("pk", "name"))

    def game_lines(games):
        return [
            [g.round, g.table, names[g.player], g.tournament_points, g.bollen, g.points, g.correct]
            for g in games
        ]

    games = rows(workbook["Games"])
    assert games[0][0] == f"Bol-free games: {len(stats.bol_free)} of {stats.player_games} games"
    best_at = next(i for i, line in enumerate(games) if line[0] == "Best single game")
    assert stats.best
    if stats.bol_free:
        assert [line[:7] for line in games[2 : best_at - 1]] == game_lines(stats.bol_free)
    else:
        assert games[1][:2] == ["none", None] and best_at == 3
    assert [line[:7] for line in games[best_at + 2 :]] == game_lines(stats.best)
