"""The rules engine of Bollen: plain Python, no Django.

Deals (``scoring.deals``)
    ``DEAL_COUNT``, ``DEALS``, ``DealSpec``, ``deal_spec(deal)``,
    ``dealer_seat(deal, n_seats, first_dealer=0)``, ``deals_dealt(seat, n_seats, first_dealer=0)``,
    ``bidding_order(deal, n_seats, first_dealer=0)``,
    ``forbidden_bid(deal, other_bids)`` (the dealer's; ``check_deal`` refuses it),
    ``dealer_hint(deal, bids, first_dealer=0)`` (the forbidden bid told while typing).
Score sheets (``scoring.sheet``; the checks live in ``scoring.checks``)
    ``DealEntry``, ``Penalty``, ``Sheet`` (``Sheet.from_rows``), ``check_deal``, ``check_sheet``,
    ``score_sheet``, ``CellState``, ``Cell``, ``SeatTotals``, ``SheetResult``,
    ``casual_losers``, ``bol_free``, ``CORRECT_BONUS``, ``BOL_PENALTY``.
Standings (``scoring.standings``)
    ``RoundScore``, ``TieBreak``, ``DEFAULT_ORDER``, ``StandingRow``, ``standings``,
    ``tie_break_order``, ``round_scores``.
Tables (``scoring.tables``)
    ``TableSplit``, ``table_split(n_players, *, sizes, prefer)``.
Errors (``scoring.errors``)
    ``ErrorCode``, ``Problem``, ``ScoringError``.

Seats are 0-based indexes in clockwise order; ``Sheet.first_dealer`` (seat 0 unless the table drew
another) deals deal 1; deals are numbered 1..11.
"""

from scoring.deals import (
    DEAL_COUNT,
    DEALS,
    MAX_SEATS,
    MIN_SEATS,
    DealSpec,
    bidding_order,
    deal_spec,
    dealer_hint,
    dealer_seat,
    deals_dealt,
    forbidden_bid,
)
from scoring.errors import ErrorCode, Problem, ScoringError
from scoring.sheet import (
    BOL_PENALTY,
    CORRECT_BONUS,
    Cell,
    CellState,
    DealEntry,
    Penalty,
    SeatTotals,
    Sheet,
    SheetResult,
    bol_free,
    casual_losers,
    check_deal,
    check_sheet,
    score_sheet,
)
from scoring.standings import (
    DEFAULT_ORDER,
    RoundScore,
    StandingRow,
    TieBreak,
    round_scores,
    standings,
    tie_break_order,
)
from scoring.tables import TableSplit, table_split

__all__ = [
    "BOL_PENALTY",
    "CORRECT_BONUS",
    "DEALS",
    "DEAL_COUNT",
    "DEFAULT_ORDER",
    "MAX_SEATS",
    "MIN_SEATS",
    "Cell",
    "CellState",
    "DealEntry",
    "DealSpec",
    "ErrorCode",
    "Penalty",
    "Problem",
    "RoundScore",
    "ScoringError",
    "SeatTotals",
    "Sheet",
    "SheetResult",
    "StandingRow",
    "TableSplit",
    "TieBreak",
    "bidding_order",
    "bol_free",
    "casual_losers",
    "check_deal",
    "check_sheet",
    "deal_spec",
    "dealer_hint",
    "dealer_seat",
    "deals_dealt",
    "forbidden_bid",
    "round_scores",
    "score_sheet",
    "standings",
    "table_split",
    "tie_break_order",
]
