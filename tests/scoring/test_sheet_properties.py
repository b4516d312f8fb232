"""Properties that hold for every legal sheet, complete or in progress, with penalties."""

from hypothesis import given
from hypothesis import strategies as st

from scoring.deals import deal_spec, dealer_seat, forbidden_bid
from scoring.errors import ErrorCode
from scoring.sheet import (
    BOL_PENALTY,
    CORRECT_BONUS,
    CellState,
    DealEntry,
    Sheet,
    casual_losers,
    check_sheet,
    score_sheet,
)
from tests.scoring.sheet_strategies import legal_sheets, permuted


@given(legal_sheets())
def test_generated_sheets_are_legal(sheet):
    assert check_sheet(sheet) == []


@given(legal_sheets())
def test_every_complete_deal_has_at_least_one_bol(sheet):
    result = score_sheet(sheet)
    complete_rows = result.cells[: result.deals_complete]
    assert all(any(cell.state is CellState.BOL for cell in row) for row in complete_rows)
    assert all(
        cell.state in (CellState.EMPTY, CellState.BID)
        for row in result.cells[result.deals_complete :]
        for cell in row
    )


@given(legal_sheets())
def test_totals_are_the_sums_of_the_cells(sheet):
    result = score_sheet(sheet)
    for seat, totals in enumerate(result.totals):
        cells = [row[seat] for row in result.cells]
        penalties = sum(penalty.seat == seat for penalty in sheet.penalties)
        assert totals.tournament_points == sum(cell.tournament_points for cell in cells)
        assert totals.points == sum(cell.points for cell in cells)
        assert totals.penalty_bollen == penalties
        assert totals.bollen == penalties + sum(cell.state is CellState.BOL for cell in cells)
        assert totals.correct == sum(cell.state is CellState.KEPT for cell in cells)
        assert totals.correct + totals.bollen - penalties == result.deals_complete
        assert totals.tournament_points == (
            totals.points + CORRECT_BONUS * totals.correct + BOL_PENALTY * totals.bollen
        )


@given(legal_sheets(), st.data())
def test_totals_do_not_depend_on_the_seat_order(sheet, data):
    order = data.draw(st.permutations(range(sheet.n_seats)))
    reseated = permuted(sheet, order)
    # The sum rule does not care who dealt, so the reseated sheet is legal too.
    assert check_sheet(reseated) == []
    before, after = score_sheet(sheet), score_sheet(reseated)
    assert [after.totals[new] for new in range(sheet.n_seats)] == [
        before.totals[old] for old in order
    ]
    assert sorted(order[seat] for seat in after.losers) == list(before.losers)


@given(legal_sheets(complete=True))
def test_a_complete_game_has_a_loser_with_the_most_bollen(sheet):
    result = score_sheet(sheet)
    most = max(seat.bollen for seat in result.totals)
    assert result.losers
    assert result.losers == casual_losers(result.totals)
    assert all(result.totals[seat].bollen == most for seat in result.losers)
    assert all(result.totals[seat].bollen == 0 for seat in result.bol_free)
    assert not set(result.losers) & set(result.bol_free)


@given(legal_sheets(complete=True, max_penalties=0), st.data())
def test_only_the_forbidden_dealer_bid_is_refused_and_at_the_dealer(sheet, data):
    deal = data.draw(st.integers(1, 11))
    dealer = dealer_seat(deal, sheet.n_seats)
    entry = sheet.deals[deal - 1]
    forbidden = forbidden_bid(deal, [bid for seat, bid in enumerate(entry.bids) if seat != dealer])
    for dealer_bid in range(deal_spec(deal).hand_size + 1):
        bids = list(entry.bids)
        bids[dealer] = dealer_bid
        deals = list(sheet.deals)
        deals[deal - 1] = DealEntry(tuple(bids), entry.tricks)
        found = [(p.code, p.deal, p.seat) for p in check_sheet(Sheet(sheet.n_seats, deals))]
        if dealer_bid == forbidden:
            assert found == [(ErrorCode.DEALER_BID, deal, dealer)]
        else:
            assert found == []
