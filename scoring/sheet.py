"""One table's score sheet and the points, bollen and totals it gives.

A :class:`Sheet` holds what the writer puts on the form: per deal the bids and the tricks, by seat,
and the revoke penalties. The rules it must obey live in ``scoring.checks`` (``check_deal`` and
``check_sheet``, importable from here too). A sheet may be unfinished. These in-progress states
are legal:

- trailing deals left out, or given as all-None rows: not played yet;
- some bids of a deal and no tricks: bidding under way (the sum rule waits for the last bid);
- all bids of a deal and no tricks: the deal is being played.

Tricks are entered for all seats at once, and only once every bid is in. A deal is *complete*
when every bid and every trick is in; a deal may only have entries once all earlier deals are
complete. A revoke penalty may be recorded for any deal up to the one being played (the revoke
happens during play and the deal is replayed, so the penalty may come before the replay's
numbers).

A revoke penalty is one extra bol for that seat, on top of the deal's own result: it counts in
``bollen`` (and so for who loses) and costs 2 tournament points, but the deal itself stays kept or
bol as its bid and tricks say, so ``correct`` counts deals whose bid was kept. For every seat,
``tournament_points == points + 2 * correct - 2 * bollen``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from scoring.checks import check_deal, check_sheet
from scoring.deals import DEAL_COUNT
from scoring.errors import Problem, ScoringError

__all__ = [
    "BOL_PENALTY",
    "CORRECT_BONUS",
    "Cell",
    "CellState",
    "DealEntry",
    "Penalty",
    "SeatTotals",
    "Sheet",
    "SheetResult",
    "bol_free",
    "casual_losers",
    "check_and_score",
    "check_deal",
    "check_sheet",
    "deal_box",
    "score_sheet",
]

CORRECT_BONUS = 2
"""Tournament points on top of the bid for a kept bid."""

BOL_PENALTY = -2
"""Tournament points for a bol, and for each revoke penalty."""


@dataclass(frozen=True, slots=True)
class DealEntry:
    """The bids and tricks of one deal, indexed by seat; None where nothing is written yet."""

    bids: tuple[int | None, ...]
    tricks: tuple[int | None, ...]

    def __post_init__(self) -> None:
        # Accept lists from forms and JSON, but keep the entry immutable.
        object.__setattr__(self, "bids", tuple(self.bids))
        object.__setattr__(self, "tricks", tuple(self.tricks))

    @classmethod
    def empty(cls, n_seats: int) -> DealEntry:
        """A deal with nothing written: not started."""
        return cls((None,) * n_seats, (None,) * n_seats)

    @property
    def is_empty(self) -> bool:
        """Whether nothing is written for this deal yet."""
        return all(value is None for value in (*self.bids, *self.tricks))

    @property
    def is_complete(self) -> bool:
        """Whether every bid and every trick of this deal is written."""
        values = (*self.bids, *self.tricks)
        return bool(self.bids) and all(value is not None for value in values)


@dataclass(frozen=True, slots=True)
class Penalty:
    """A revoke ("verzaken"): one extra bol for ``seat`` (0-based) in ``deal`` (1-based)."""

    seat: int
    deal: int


@dataclass(frozen=True, slots=True)
class Sheet:
    """A table's score sheet: deal 1 first, 0 to 11 deals, and the revoke penalties.

    ``first_dealer`` is the seat (0-based row) that deals deal 1, as the table drew it; the deal
    then passes clockwise (``scoring.deals.dealer_seat``). The rows stay as they are written:
    only who deals, and so who bids last, depends on it.
    """

    n_seats: int
    deals: tuple[DealEntry, ...]
    penalties: tuple[Penalty, ...] = ()
    first_dealer: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "deals", tuple(self.deals))
        object.__setattr__(self, "penalties", tuple(self.penalties))

    @property
    def started(self) -> bool:
        """Whether a bid or a trick is written anywhere (penalty bollen alone do not count)."""
        return any(not deal.is_empty for deal in self.deals)

    @property
    def finished(self) -> bool:
        """Whether every bid and trick of all 11 deals is written: the game is over."""
        return len(self.deals) == DEAL_COUNT and all(deal.is_complete for deal in self.deals)

    @classmethod
    def from_rows(
        cls,
        n_seats: int,
        bids_rows: Iterable[Sequence[int | None]],
        tricks_rows: Iterable[Sequence[int | None] | None] = (),
        penalties: Iterable[Penalty] = (),
        first_dealer: int = 0,
    ) -> Sheet:
        """Build a sheet from lists: one bids row per deal, and tricks rows for the deals played.

        Missing tricks rows (fewer rows than bids rows, or None) mean no tricks written yet; a
        tricks row without a bids row gets a row of missing bids, which the checks then report.
        """
        bids_list: list[tuple[int | None, ...]] = [tuple(row) for row in bids_rows]
        tricks_list = [None if row is None else tuple(row) for row in tricks_rows]
        bids_list += [(None,) * n_seats] * (len(tricks_list) - len(bids_list))
        tricks_list += [None] * (len(bids_list) - len(tricks_list))
        deals = tuple(
            DealEntry(bids, (None,) * len(bids) if tricks is None else tricks)
            for bids, tricks in zip(bids_list, tricks_list, strict=True)
        )
        return cls(n_seats, deals, tuple(penalties), first_dealer)


class CellState(StrEnum):
    """What one seat's box of one deal shows."""

    EMPTY = "empty"
    """No bid yet."""
    BID = "bid"
    """Bid made, tricks not yet written."""
    KEPT = "kept"
    """Tricks equal the bid: the bid stays as points."""
    BOL = "bol"
    """Tricks differ from the bid: the bid turns into a bol."""


@dataclass(frozen=True, slots=True)
class Cell:
    """One seat in one deal: what was written and what it scores.

    ``points`` is the bid when kept, else 0. ``tournament_points`` is bid + 2 when kept, -2 for a
    bol, 0 while unfinished, and -2 more for each revoke penalty in ``penalty_bollen``.
    """

    bid: int | None
    tricks: int | None
    state: CellState
    penalty_bollen: int
    points: int
    tournament_points: int


@dataclass(frozen=True, slots=True)
class SeatTotals:
    """One seat's totals over the sheet so far, as in the three total columns of the form.

    ``bollen`` counts bol deals plus penalty bollen; ``correct`` counts complete deals whose bid
    was kept; ``deals_played`` is the number of complete deals.
    """

    bollen: int
    penalty_bollen: int
    points: int
    correct: int
    tournament_points: int
    deals_played: int


@dataclass(frozen=True, slots=True)
class SheetResult:
    """The scored sheet.

    ``cells`` always has 11 rows (deal 1 first), each indexed by seat, so a form can be drawn
    from it whatever the progress. ``losers`` and ``bol_free`` stay empty until the game is
    complete; call :func:`casual_losers` on ``totals`` for who would lose if it ended now.
    """

    cells: tuple[tuple[Cell, ...], ...]
    totals: tuple[SeatTotals, ...]
    deals_complete: int
    complete: bool
    losers: tuple[int, ...]
    bol_free: tuple[int, ...]


def deal_box(bid: int | None, tricks: int | None) -> tuple[CellState, int]:
    """What one seat's box of one deal shows, and its points (the bid when kept, else 0),
    from what is written in it: the rule :func:`score_sheet` applies to every box, for readers
    that have the boxes of a checked sheet and its kept totals and need no :class:`SheetResult`."""
    if bid is None:
        return CellState.EMPTY, 0
    if tricks is None:
        return CellState.BID, 0
    if tricks == bid:
        return CellState.KEPT, bid
    return CellState.BOL, 0


def _cell(bid: int | None, tricks: int | None, penalty_bollen: int) -> Cell:
    state, points = deal_box(bid, tricks)
    if state is CellState.KEPT:
        score = points + CORRECT_BONUS
    else:
        score = BOL_PENALTY if state is CellState.BOL else 0
    score += BOL_PENALTY * penalty_bollen
    return Cell(bid, tricks, state, penalty_bollen, points, score)


def _totals(cells: Sequence[Cell], deals_played: int) -> SeatTotals:
    penalty_bollen = sum(cell.penalty_bollen for cell in cells)
    return SeatTotals(
        bollen=sum(cell.state is CellState.BOL for cell in cells) + penalty_bollen,
        penalty_bollen=penalty_bollen,
        points=sum(cell.points for cell in cells),
        correct=sum(cell.state is CellState.KEPT for cell in cells),
        tournament_points=sum(cell.tournament_points for cell in cells),
        deals_played=deals_played,
    )


def score_sheet(sheet: Sheet) -> SheetResult:
    """Score a legal sheet; ScoringError with every problem of :func:`check_sheet` otherwise."""
    problems = check_sheet(sheet)
    if problems:
        raise ScoringError(problems)
    return _scored(sheet)


def check_and_score(sheet: Sheet) -> tuple[list[Problem], SheetResult | None]:
    """What breaks a rule on the sheet, and its scores when nothing does (``None`` otherwise):
    for a caller that needs both (a sheet page, a save), so that the rules are checked once."""
    problems = check_sheet(sheet)
    return problems, None if problems else _scored(sheet)


def _scored(sheet: Sheet) -> SheetResult:
    """The scores of a sheet :func:`check_sheet` found legal."""
    n_seats = sheet.n_seats
    penalties = Counter((penalty.deal, penalty.seat) for penalty in sheet.penalties)
    entries = sheet.deals + (DealEntry.empty(n_seats),) * (DEAL_COUNT - len(sheet.deals))
    cells = tuple(
        tuple(
            _cell(entry.bids[seat], entry.tricks[seat], penalties[deal, seat])
            for seat in range(n_seats)
        )
        for deal, entry in enumerate(entries, start=1)
    )
    deals_complete = sum(entry.is_complete for entry in entries)
    totals = tuple(_totals([row[seat] for row in cells], deals_complete) for seat in range(n_seats))
    complete = deals_complete == DEAL_COUNT
    return SheetResult(
        cells=cells,
        totals=totals,
        deals_complete=deals_complete,
        complete=complete,
        losers=casual_losers(totals) if complete else (),
        bol_free=bol_free(totals, complete=complete),
    )


def casual_losers(totals: Sequence[SeatTotals]) -> tuple[int, ...]:
    """The seats that lose: most bollen, then fewest points; all still tied lose.

    More than one loser is "dubbel zuipen".
    """
    if not totals:
        return ()
    most = max(seat.bollen for seat in totals)
    worst = [index for index, seat in enumerate(totals) if seat.bollen == most]
    fewest = min(totals[index].points for index in worst)
    return tuple(index for index in worst if totals[index].points == fewest)


def bol_free(totals: Sequence[SeatTotals], *, complete: bool) -> tuple[int, ...]:
    """The seats that finished a complete game without a single bol ("bolloos")."""
    if not complete:
        return ()
    return tuple(index for index, seat in enumerate(totals) if seat.bollen == 0)
