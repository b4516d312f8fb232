"""Reading a sheet's boxes and kept totals gives what scoring the sheet gives: the rule of one
box (``deal_box``) and the statistics of games read that way (``KeptGame``)."""

from hypothesis import given
from hypothesis import strategies as st

from scoring.sheet import CellState, deal_box, score_sheet
from scoring.statistics import Game, KeptGame, tournament_statistics
from tests.scoring.sheet_strategies import legal_sheets


def test_a_box_is_empty_bid_kept_or_bol_by_what_is_written():
    assert deal_box(None, None) == (CellState.EMPTY, 0)
    assert deal_box(3, None) == (CellState.BID, 0)
    assert deal_box(3, 3) == (CellState.KEPT, 3)
    assert deal_box(0, 0) == (CellState.KEPT, 0)
    assert deal_box(2, 1) == (CellState.BOL, 0)


@given(legal_sheets())
def test_every_scored_box_follows_the_box_rule(sheet):
    for row in score_sheet(sheet).cells:
        for cell in row:
            assert deal_box(cell.bid, cell.tricks) == (cell.state, cell.points)


@given(st.lists(legal_sheets(), max_size=5))
def test_kept_games_give_the_statistics_of_scored_games(sheets):
    scored, kept = [], []
    for table, sheet in enumerate(sheets, start=1):
        result = score_sheet(sheet)
        players = tuple(f"t{table}s{seat}" for seat in range(sheet.n_seats))
        scored.append(Game(round=1, table=table, players=players, result=result))
        # Only the deals written, as a stored version keeps them.
        boxes = [list(zip(deal.bids, deal.tricks, strict=True)) for deal in sheet.deals]
        kept.append(KeptGame(1, table, players, boxes, result.totals, result.complete))
    assert tournament_statistics(kept) == tournament_statistics(scored)
