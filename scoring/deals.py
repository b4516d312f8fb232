"""The deal schedule of one game and who deals and bids when.

A game is 11 deals ("rondes" in Dutch; *deal* in code keeps "round" free for the tournament).
Seats are numbered 0..n-1 clockwise. The table draws who deals deal 1 (``first_dealer``, seat 0
unless told otherwise) and the deal passes clockwise, so deal ``d`` is dealt by seat
``(first_dealer + d - 1) % n``: the seats (the rows of the paper sheet) never move, only the
dealer does. Bidding starts left of (clockwise after) the dealer and
the dealer bids last, under the one restriction of the game: the bids may never add up to the
hand size.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scoring.errors import ErrorCode, Problem, ScoringError

DEAL_COUNT = 11
"""Deals in one game."""

MIN_SEATS = 3
"""The fewest players the game allows at one table."""

MAX_SEATS = 6
"""The most players the game allows at one table."""


@dataclass(frozen=True, slots=True)
class DealSpec:
    """One deal of the schedule: its number (1..11), hand size, label on the form and kind."""

    number: int
    hand_size: int
    label: str
    trump: bool
    blind: bool

    @property
    def title(self) -> str:
        """How messages name the deal: "Deal 4 (4 cards)", "Deal 6 (5Z: 5 cards, no trump)"."""
        cards = f"{self.hand_size} card{'s' if self.hand_size != 1 else ''}"
        if self.blind:
            return f"Deal {self.number} ({self.label}: {cards}, blind, no trump)"
        if not self.trump:
            return f"Deal {self.number} ({self.label}: {cards}, no trump)"
        return f"Deal {self.number} ({cards})"


DEALS: tuple[DealSpec, ...] = (
    DealSpec(1, 1, "1", trump=True, blind=False),
    DealSpec(2, 2, "2", trump=True, blind=False),
    DealSpec(3, 3, "3", trump=True, blind=False),
    DealSpec(4, 4, "4", trump=True, blind=False),
    DealSpec(5, 5, "5", trump=True, blind=False),
    DealSpec(6, 5, "5Z", trump=False, blind=False),
    DealSpec(7, 5, "5B", trump=False, blind=True),
    DealSpec(8, 4, "4", trump=True, blind=False),
    DealSpec(9, 3, "3", trump=True, blind=False),
    DealSpec(10, 2, "2", trump=True, blind=False),
    DealSpec(11, 1, "1", trump=True, blind=False),
)
"""The 11 deals in order; ``DEALS[d - 1]`` is deal ``d``."""


def is_deal_number(deal: object) -> bool:
    """Whether ``deal`` is a deal number of the schedule (a whole number from 1 to 11)."""
    return isinstance(deal, int) and not isinstance(deal, bool) and 1 <= deal <= DEAL_COUNT


def deal_number_problem(deal: object) -> Problem:
    """The problem that ``deal`` is not a deal number."""
    return Problem(
        ErrorCode.DEAL_NUMBER,
        f"There is no deal {deal}: a game has deals 1 to {DEAL_COUNT}.",
        params={"deal": deal if isinstance(deal, int) else str(deal), "max": DEAL_COUNT},
    )


def seat_count_problem(n_seats: int) -> Problem:
    """The problem that a table has ``n_seats`` seats, outside 3..6."""
    return Problem(
        ErrorCode.SEAT_COUNT,
        f"A table needs {MIN_SEATS} to {MAX_SEATS} seats, not {n_seats}.",
        params={"seats": n_seats, "min": MIN_SEATS, "max": MAX_SEATS},
    )


def deal_spec(deal: int) -> DealSpec:
    """The schedule entry of deal ``deal`` (1-based); ScoringError DEAL_NUMBER if there is none."""
    if not is_deal_number(deal):
        raise ScoringError(deal_number_problem(deal))
    return DEALS[deal - 1]


def _check_seats(n_seats: int) -> None:
    if not MIN_SEATS <= n_seats <= MAX_SEATS:
        raise ScoringError(seat_count_problem(n_seats))


def is_first_dealer(first_dealer: object, n_seats: int) -> bool:
    """Whether ``first_dealer`` is a seat of a table of ``n_seats`` (0 to n - 1)."""
    return (
        isinstance(first_dealer, int)
        and not isinstance(first_dealer, bool)
        and 0 <= first_dealer < n_seats
    )


def first_dealer_problem(first_dealer: object, n_seats: int) -> Problem:
    """The problem that ``first_dealer`` is not a seat of the table."""
    shown: int | str = str(first_dealer)
    if isinstance(first_dealer, int) and not isinstance(first_dealer, bool):
        shown = first_dealer + 1
    return Problem(
        ErrorCode.FIRST_DEALER,
        f"The first dealer is seat {shown}, but the table has seats 1 to {n_seats}.",
        params={"seat_number": shown, "seats": n_seats},
    )


def _check_first_dealer(first_dealer: int, n_seats: int) -> None:
    if not is_first_dealer(first_dealer, n_seats):
        raise ScoringError(first_dealer_problem(first_dealer, n_seats))


def dealer_seat(deal: int, n_seats: int, first_dealer: int = 0) -> int:
    """The seat (0-based) that deals deal ``deal``: ``first_dealer`` deals deal 1, then the
    deal passes clockwise."""
    _check_seats(n_seats)
    _check_first_dealer(first_dealer, n_seats)
    return (first_dealer + deal_spec(deal).number - 1) % n_seats


def deals_dealt(seat: int, n_seats: int, first_dealer: int = 0) -> int:
    """How many of the 11 deals the player in ``seat`` (0-based) deals. With seat 0 dealing
    first: at a table of 4 seats 0-2 deal three and seat 3 two; at a table of 5 seat 0 deals
    three and the others two."""
    return sum(
        dealer_seat(deal, n_seats, first_dealer) == seat for deal in range(1, DEAL_COUNT + 1)
    )


def bidding_order(deal: int, n_seats: int, first_dealer: int = 0) -> tuple[int, ...]:
    """The seats in the order they bid (and lead): left of the dealer first, the dealer last."""
    dealer = dealer_seat(deal, n_seats, first_dealer)
    return tuple((dealer + 1 + step) % n_seats for step in range(n_seats))


def forbidden_bid(deal: int, other_bids: Sequence[int]) -> int | None:
    """The one bid the dealer may not make after the others bid ``other_bids``.

    It is the bid that would make the bids add up to the hand size. None when that number is not
    a possible bid (the others already bid more than the hand size): then the dealer is free.
    """
    hand_size = deal_spec(deal).hand_size
    bid = hand_size - sum(other_bids)
    return bid if 0 <= bid <= hand_size else None


def dealer_hint(deal: int, bids: Sequence[int | None], first_dealer: int = 0) -> int | None:
    """The forbidden bid the sheet tells the dealer while typing: once every other seat has bid
    (``bids`` per seat, ``None`` for a box still empty) and the dealer has not; ``None`` before,
    after, or when the dealer is free."""
    order = bidding_order(deal, len(bids), first_dealer)
    others = [bid for bid in (bids[seat] for seat in order[:-1]) if bid is not None]
    if bids[order[-1]] is not None or len(others) < len(order) - 1:
        return None
    return forbidden_bid(deal, others)
