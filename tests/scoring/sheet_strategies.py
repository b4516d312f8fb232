"""Hypothesis strategies for legal score sheets, complete or in progress, with penalties."""

from __future__ import annotations

from hypothesis import strategies as st

from scoring.deals import DEAL_COUNT, MAX_SEATS, MIN_SEATS, deal_spec, dealer_seat, forbidden_bid
from scoring.sheet import DealEntry, Penalty, Sheet


@st.composite
def legal_bids(draw: st.DrawFn, deal: int, n_seats: int) -> tuple[int, ...]:
    """All bids of a deal: the others bid freely, the dealer anything but the forbidden bid."""
    hand_size = deal_spec(deal).hand_size
    dealer = dealer_seat(deal, n_seats)
    bids = [draw(st.integers(0, hand_size)) for _ in range(n_seats)]
    others = [bid for seat, bid in enumerate(bids) if seat != dealer]
    forbidden = forbidden_bid(deal, others)
    bids[dealer] = draw(st.integers(0, hand_size).filter(lambda bid: bid != forbidden))
    return tuple(bids)


@st.composite
def legal_tricks(draw: st.DrawFn, deal: int, n_seats: int) -> tuple[int, ...]:
    """Tricks of a deal: each trick is won by one seat, so they add up to the hand size."""
    winners = draw(
        st.lists(
            st.integers(0, n_seats - 1),
            min_size=deal_spec(deal).hand_size,
            max_size=deal_spec(deal).hand_size,
        )
    )
    return tuple(winners.count(seat) for seat in range(n_seats))


@st.composite
def open_deal(draw: st.DrawFn, deal: int, n_seats: int) -> DealEntry | None:
    """The deal being played: not started, bidding under way, or all bids in; None = no row."""
    stage = draw(st.sampled_from(["absent", "empty", "bidding", "bid"]))
    if stage == "absent":
        return None
    if stage == "empty":
        return DealEntry.empty(n_seats)
    bids = list(draw(legal_bids(deal, n_seats)))
    if stage == "bidding":
        missing = draw(st.sets(st.integers(0, n_seats - 1), min_size=1))
        bids = [None if seat in missing else bid for seat, bid in enumerate(bids)]
    return DealEntry(tuple(bids), (None,) * n_seats)


@st.composite
def legal_sheets(
    draw: st.DrawFn,
    *,
    n_seats: int | None = None,
    complete: bool | None = None,
    max_penalties: int = 4,
) -> Sheet:
    """A sheet that obeys every rule: complete (11 deals) when ``complete``, else any progress."""
    if n_seats is None:
        n_seats = draw(st.integers(MIN_SEATS, MAX_SEATS))
    if complete is None:
        done = draw(st.integers(0, DEAL_COUNT))
    else:
        done = DEAL_COUNT if complete else draw(st.integers(0, DEAL_COUNT - 1))
    deals = [
        DealEntry(draw(legal_bids(deal, n_seats)), draw(legal_tricks(deal, n_seats)))
        for deal in range(1, done + 1)
    ]
    if done < DEAL_COUNT:
        entry = draw(open_deal(done + 1, n_seats))
        if entry is not None:
            deals.append(entry)
            trailing = draw(st.integers(0, DEAL_COUNT - len(deals)))
            deals.extend(DealEntry.empty(n_seats) for _ in range(trailing))
    current = min(done + 1, DEAL_COUNT)
    penalties = draw(
        st.lists(
            st.builds(Penalty, seat=st.integers(0, n_seats - 1), deal=st.integers(1, current)),
            max_size=max_penalties,
        )
    )
    return Sheet(n_seats, tuple(deals), tuple(penalties))


def permuted(sheet: Sheet, order: list[int]) -> Sheet:
    """The same sheet with the players reseated: new seat ``j`` is old seat ``order[j]``."""
    new_seat = {old: new for new, old in enumerate(order)}
    return Sheet(
        sheet.n_seats,
        tuple(
            DealEntry(
                tuple(entry.bids[old] for old in order),
                tuple(entry.tricks[old] for old in order),
            )
            for entry in sheet.deals
        ),
        tuple(Penalty(new_seat[penalty.seat], penalty.deal) for penalty in sheet.penalties),
    )
