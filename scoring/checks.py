"""The rules a score sheet must obey, checked all at once.

``check_deal`` checks one deal's rows and ``check_sheet`` a whole sheet: the rows of every deal,
the order of the deals and the revoke penalties. They return every problem found, each located at
its deal and, where one seat is to blame, that seat; they never raise. ``scoring.sheet`` re-exports
both, next to the sheet they check.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from scoring.deals import (
    DEAL_COUNT,
    DEALS,
    MAX_SEATS,
    MIN_SEATS,
    deal_number_problem,
    dealer_seat,
    first_dealer_problem,
    forbidden_bid,
    is_deal_number,
    is_first_dealer,
    seat_count_problem,
)
from scoring.errors import ErrorCode, Problem

if TYPE_CHECKING:
    from scoring.sheet import Penalty, Sheet


def _is_count(value: object, hand_size: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= hand_size


def _shown(value: object) -> str:
    # Show a stray string as '1' so it is not mistaken for the number 1.
    return str(value) if isinstance(value, int) and not isinstance(value, bool) else repr(value)


def _param(value: object) -> int | str:
    return value if isinstance(value, int) and not isinstance(value, bool) else str(value)


def check_deal(
    deal: int,
    bids: Sequence[int | None],
    tricks: Sequence[int | None],
    n_seats: int,
    first_dealer: int = 0,
) -> list[Problem]:
    """Every rule that one deal's bids and tricks break; an empty list when the deal is legal.

    ``deal`` is 1-based and the rows are indexed by seat; ``first_dealer`` is the seat that
    dealt deal 1. Problems carry the deal and, where one seat is to blame, that seat.
    """
    if not MIN_SEATS <= n_seats <= MAX_SEATS:
        return [seat_count_problem(n_seats)]
    if not is_first_dealer(first_dealer, n_seats):
        return [first_dealer_problem(first_dealer, n_seats)]
    if not is_deal_number(deal):
        return [deal_number_problem(deal)]
    spec = DEALS[deal - 1]
    size = spec.hand_size
    base: dict[str, int | str] = {"deal": deal, "label": spec.label, "hand_size": size}

    def problem(
        code: ErrorCode, message: str, seat: int | None = None, **params: int | str
    ) -> Problem:
        if seat is not None:
            params["seat_number"] = seat + 1
        return Problem(code, f"{spec.title}: {message}", deal, seat, {**base, **params})

    problems = [
        problem(
            ErrorCode.ROW_LENGTH,
            f"the {row} row has {len(values)} entries but the table has {n_seats} seats.",
            row=row,
            length=len(values),
            seats=n_seats,
        )
        for row, values in (("bids", bids), ("tricks", tricks))
        if len(values) != n_seats
    ]
    if problems:
        return problems

    for seat, bid in enumerate(bids):
        if bid is not None and not _is_count(bid, size):
            problems.append(
                problem(
                    ErrorCode.BID_RANGE,
                    f"seat {seat + 1} bid {_shown(bid)}, but a bid must be a whole number "
                    f"from 0 to {size}.",
                    seat,
                    bid=_param(bid),
                )
            )
    made = [bid for bid in bids if bid is not None]
    if not problems and len(made) == n_seats:
        dealer = dealer_seat(deal, n_seats, first_dealer)
        if made[dealer] == forbidden_bid(deal, made[:dealer] + made[dealer + 1 :]):
            problems.append(
                problem(
                    ErrorCode.DEALER_BID,
                    f"the dealer (seat {dealer + 1}) may not bid {made[dealer]}, because the "
                    f"bids would add up to {size}.",
                    dealer,
                    bid=made[dealer],
                    sum=size,
                )
            )

    if all(value is None for value in tricks):
        return problems
    problems.extend(
        problem(
            ErrorCode.BIDS_INCOMPLETE,
            f"tricks are entered but seat {seat + 1} has no bid yet.",
            seat,
        )
        for seat, bid in enumerate(bids)
        if bid is None
    )
    range_problems = [
        problem(
            ErrorCode.TRICKS_RANGE,
            f"seat {seat + 1} took {_shown(taken)} tricks, but a player takes a whole number "
            f"from 0 to {size}.",
            seat,
            tricks=_param(taken),
        )
        for seat, taken in enumerate(tricks)
        if taken is not None and not _is_count(taken, size)
    ]
    problems.extend(range_problems)
    missing = [seat for seat, taken in enumerate(tricks) if taken is None]
    problems.extend(
        problem(
            ErrorCode.TRICKS_INCOMPLETE,
            f"seat {seat + 1} has no tricks entered, while other seats have.",
            seat,
        )
        for seat in missing
    )
    # Only whole numbers in range are left here, so the sum is safe to take.
    taken = [taken for taken in tricks if taken is not None]
    if not range_problems and not missing and sum(taken) != size:
        problems.append(
            problem(
                ErrorCode.TRICKS_SUM,
                f"the tricks add up to {sum(taken)}, but every deal has exactly {size} "
                f"trick{'s' if size != 1 else ''}.",
                sum=sum(taken),
            )
        )
    return problems


def check_sheet(sheet: Sheet) -> list[Problem]:
    """Every rule the sheet breaks, each located at its deal and seat; empty when it is legal."""
    n_seats = sheet.n_seats
    if not MIN_SEATS <= n_seats <= MAX_SEATS:
        return [seat_count_problem(n_seats)]
    if not is_first_dealer(sheet.first_dealer, n_seats):
        return [first_dealer_problem(sheet.first_dealer, n_seats)]
    problems: list[Problem] = []
    if len(sheet.deals) > DEAL_COUNT:
        problems.append(
            Problem(
                ErrorCode.TOO_MANY_DEALS,
                f"The sheet has {len(sheet.deals)} deals, but a game has {DEAL_COUNT}.",
                params={"deals": len(sheet.deals), "max": DEAL_COUNT},
            )
        )
    first_open: int | None = None
    for deal, entry in enumerate(sheet.deals[:DEAL_COUNT], start=1):
        problems.extend(check_deal(deal, entry.bids, entry.tricks, n_seats, sheet.first_dealer))
        if first_open is not None and not entry.is_empty:
            problems.append(
                Problem(
                    ErrorCode.DEAL_ORDER,
                    f"{DEALS[deal - 1].title} has entries, but deal {first_open} is not "
                    "finished yet.",
                    deal,
                    params={"deal": deal, "open_deal": first_open},
                )
            )
        if first_open is None and not entry.is_complete:
            first_open = deal
    current = first_open or min(len(sheet.deals) + 1, DEAL_COUNT)
    problems.extend(_check_penalties(sheet.penalties, n_seats, current))
    return problems


def _check_penalties(penalties: Iterable[Penalty], n_seats: int, current: int) -> list[Problem]:
    problems = []
    for penalty in penalties:
        seat, deal = penalty.seat, penalty.deal
        seat_ok = isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < n_seats
        who = f"seat {seat + 1}" if seat_ok else "a seat"
        placed = {"seat_number": seat + 1} if seat_ok else {}
        if not seat_ok:
            problems.append(
                Problem(
                    ErrorCode.PENALTY_SEAT,
                    f"A revoke penalty in deal {deal} is for seat {_seat_text(seat)}, but the "
                    f"table has seats 1 to {n_seats}.",
                    deal if is_deal_number(deal) else None,
                    None,
                    {"deal": _param(deal), "seat_number": _seat_text(seat), "seats": n_seats},
                )
            )
        if not is_deal_number(deal):
            problems.append(
                Problem(
                    ErrorCode.PENALTY_DEAL,
                    f"A revoke penalty for {who} is in deal {deal}, but a game has deals 1 to "
                    f"{DEAL_COUNT}.",
                    None,
                    seat if seat_ok else None,
                    {"deal": _param(deal), "current_deal": current, **placed},
                )
            )
        elif deal > current:
            problems.append(
                Problem(
                    ErrorCode.PENALTY_DEAL,
                    f"{DEALS[deal - 1].title}: {who} has a revoke penalty, but the game has "
                    f"only reached deal {current}.",
                    deal,
                    seat if seat_ok else None,
                    {"deal": deal, "current_deal": current, **placed},
                )
            )
    return problems


def _seat_text(seat: object) -> int | str:
    return seat + 1 if isinstance(seat, int) and not isinstance(seat, bool) else str(seat)
