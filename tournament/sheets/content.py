"""What is written on a sheet, as the save service, the history and the confirmations compare
it: the cells and the penalty bollen, and the differences between two sheets."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from scoring.deals import DEAL_COUNT
from scoring.errors import ErrorCode, Problem
from scoring.sheet import Sheet, SheetResult, check_and_score
from tournament.adapter import sheet_from_cells
from tournament.models import SheetVersion

Place = tuple[int, int]
"""``(deal, seat index)``: the one key order of a sheet's boxes, for a cell and for a penalty bol
alike (in Python, in ``SheetVersion``/``SheetDraft`` and in the page's JSON)."""

Cells = Mapping[Place, tuple[int | None, int | None]]
"""``{(deal, seat index): (bid, tricks)}``, as ``tournament.adapter.sheet_from_cells`` takes."""

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class SheetContent:
    """What is written on a sheet: the non-empty cells and the penalty bollen, comparable."""

    n_seats: int
    cells: tuple[tuple[Place, tuple[int | None, int | None]], ...]
    penalties: tuple[Place, ...]

    @classmethod
    def build(
        cls, n_seats: int, cells: Cells, penalties: Iterable[Sequence[int]] = ()
    ) -> SheetContent:
        """Normalise cells and ``(deal, seat)`` penalties (tuples, or the stored JSON's lists);
        a cell off the sheet is a bug."""
        kept = {}
        for (deal, seat), (bid, tricks) in cells.items():
            if not (1 <= deal <= DEAL_COUNT and 0 <= seat < n_seats):
                raise ValueError(f"no cell for deal {deal}, seat {seat} on a {n_seats}-seat sheet")
            if bid is not None or tricks is not None:
                kept[deal, seat] = (bid, tricks)
        placed = sorted((deal, seat) for deal, seat in penalties)
        return cls(n_seats, tuple(sorted(kept.items())), tuple(placed))

    @classmethod
    def of_sheet(cls, sheet: Sheet) -> SheetContent:
        cells = {
            (deal, seat): (entry.bids[seat], entry.tricks[seat])
            for deal, entry in enumerate(sheet.deals, start=1)
            for seat in range(sheet.n_seats)
        }
        return cls.build(sheet.n_seats, cells, ((p.deal, p.seat) for p in sheet.penalties))

    @classmethod
    def of_version(cls, version: SheetVersion, n_seats: int) -> SheetContent:
        cells = {
            (deal, seat): (pair[0], pair[1])
            for deal, row in enumerate(version.cells, start=1)
            for seat, pair in enumerate(row)
        }
        return cls.build(n_seats, cells, version.penalties)

    @property
    def cell_map(self) -> dict[Place, tuple[int | None, int | None]]:
        return dict(self.cells)

    def sheet(self, *, first_dealer: int = 0) -> Sheet:
        """The sheet, with ``first_dealer`` (the table's) dealing deal 1."""
        return sheet_from_cells(
            self.n_seats, self.cell_map, self.penalties, first_dealer=first_dealer
        )

    def to_json(self) -> tuple[list[list[list[int | None]]], list[list[int]]]:
        """``(cells, penalties)`` in the form ``SheetVersion`` stores them (``[deal, seat]``
        penalties)."""
        cells = self.cell_map
        last = max((deal for deal, _seat in cells), default=0)
        rows = [
            [list(cells.get((deal, seat), (None, None))) for seat in range(self.n_seats)]
            for deal in range(1, last + 1)
        ]
        return rows, [list(p) for p in self.penalties]


@dataclass(frozen=True, slots=True)
class CellChange:
    """One difference between two sheets: a bid, tricks or the penalty bollen of one cell."""

    deal: int
    seat: int
    what: str  # "bid", "tricks" or "penalties"
    before: int | None
    after: int | None


def sheet_changes(before: SheetContent, after: SheetContent) -> list[CellChange]:
    """Every cell that differs, deal by deal and seat by seat."""
    old, new = before.cell_map, after.cell_map
    old_pen, new_pen = Counter(before.penalties), Counter(after.penalties)
    changes = []
    for deal in range(1, DEAL_COUNT + 1):
        for seat in range(max(before.n_seats, after.n_seats)):
            was, now = old.get((deal, seat), (None, None)), new.get((deal, seat), (None, None))
            for what, index in (("bid", 0), ("tricks", 1)):
                if was[index] != now[index]:
                    changes.append(CellChange(deal, seat, what, was[index], now[index]))
            if old_pen[deal, seat] != new_pen[deal, seat]:
                changes.append(
                    CellChange(deal, seat, "penalties", old_pen[deal, seat], new_pen[deal, seat])
                )
    return changes


def _penalty_counts(content: SheetContent) -> Counter[Place]:
    return Counter(content.penalties)


@dataclass(frozen=True, slots=True)
class BoxConflict:
    """A box two saves changed differently from the version both started from: a bid, the
    tricks or the penalty bollen (a count) of one player in one deal."""

    deal: int
    seat: int
    what: str  # "bid", "tricks" or "penalties"
    base: int | None
    theirs: int | None
    yours: int | None


def _pick(base: T, theirs: T, yours: T) -> tuple[T, bool]:
    """The three-way choice for one box, and whether it is a conflict: the value of the side
    that changed it (the same change on both sides is no conflict); a box both sides changed
    differently keeps ``theirs`` and is a conflict."""
    if yours == base or theirs == yours:
        return theirs, False
    if theirs == base:
        return yours, False
    return theirs, True


def sheet_merge(
    base: SheetContent, theirs: SheetContent, yours: SheetContent
) -> tuple[SheetContent, list[BoxConflict]]:
    """Merge ``yours`` (a save that started from ``base``) into ``theirs`` (the sheet as it
    stands): a box changed on one side only takes that side, the same change on both is fine,
    and a box changed differently on both sides is a conflict (the merge keeps ``theirs``
    there). Penalty bollen are merged per player and deal, by how many there are."""
    b, t, y = base.cell_map, theirs.cell_map, yours.cell_map
    empty = (None, None)
    cells: dict[Place, tuple[int | None, int | None]] = {}
    conflicts = []
    for place in sorted(set(b) | set(t) | set(y)):
        values = []
        for index, what in ((0, "bid"), (1, "tricks")):
            was, their, your = (m.get(place, empty)[index] for m in (b, t, y))
            value, clash = _pick(was, their, your)
            if clash:
                conflicts.append(BoxConflict(place[0], place[1], what, was, their, your))
            values.append(value)
        cells[place] = (values[0], values[1])
    pb, pt, py = _penalty_counts(base), _penalty_counts(theirs), _penalty_counts(yours)
    penalties: list[Place] = []
    for place in sorted(set(pb) | set(pt) | set(py)):
        count, clash = _pick(pb[place], pt[place], py[place])
        if clash:
            deal, seat = place
            conflicts.append(BoxConflict(deal, seat, "penalties", pb[place], pt[place], py[place]))
        penalties.extend([place] * count)
    conflicts.sort(key=lambda c: (c.deal, c.seat, ("bid", "tricks", "penalties").index(c.what)))
    return SheetContent.build(theirs.n_seats, cells, penalties), conflicts


@dataclass(frozen=True, slots=True)
class SheetSplit:
    """A submission split into what is counted and what is held back.

    ``counted``: the sheet to store (it breaks no rule, unless the stored sheet already did
    and nothing of the submission could be counted); ``held_deals``: the deals whose boxes
    differ from ``counted``, as submitted; ``held_penalties``: the submitted penalty bollen
    left out; ``problems``: ``scoring``'s problems of the submission (for the held parts).
    """

    counted: SheetContent
    submitted: SheetContent
    held_deals: tuple[int, ...] = ()
    held_penalties: tuple[Place, ...] = ()
    problems: tuple[Problem, ...] = ()
    # The scores of ``counted`` as the split checked it (``None`` while it breaks a rule).
    result: SheetResult | None = None

    @property
    def held(self) -> bool:
        return bool(self.held_deals or self.held_penalties)


def sheet_split(now: SheetContent, submitted: SheetContent, *, first_dealer: int = 0) -> SheetSplit:
    """Count as much of ``submitted`` as keeps the sheet legal: its deals from the first on, up
    to the last point where the rest of the sheet (as stored, ``now``) still follows in order
    without breaking a rule. A deal with a problem, and the later deals that would break
    "deals in order", keep their stored boxes; the penalty bollen with a problem on that sheet
    are left out. ``first_dealer``: the table's, as the rules need it."""
    # Each sheet tried is judged once (a try equal to an earlier one is not checked again), and
    # the scores come with the check of a legal one: the counted sheet's are in the outcome.
    judged: dict[Sheet, tuple[list[Problem], SheetResult | None]] = {}

    def judge(content: SheetContent) -> tuple[list[Problem], SheetResult | None]:
        sheet = content.sheet(first_dealer=first_dealer)
        if sheet not in judged:
            judged[sheet] = check_and_score(sheet)
        return judged[sheet]

    problems, result = judge(submitted)
    if not problems:
        return SheetSplit(submitted, submitted, result=result)
    n, mine, stored = submitted.n_seats, submitted.cell_map, now.cell_map
    cells = stored
    for last in range(DEAL_COUNT, 0, -1):
        tried = {place: v for place, v in stored.items() if place[0] > last}
        tried.update((place, v) for place, v in mine.items() if place[0] <= last)
        if not judge(SheetContent.build(n, tried))[0]:
            cells = tried
            break
    with_penalties = SheetContent.build(n, cells, submitted.penalties)
    bad = {
        (p.deal, p.seat)
        for p in judge(with_penalties)[0]
        if p.code in (ErrorCode.PENALTY_DEAL, ErrorCode.PENALTY_SEAT)
        and p.deal is not None
        and p.seat is not None
    }
    if judge(SheetContent.build(n, cells))[0]:
        # Nothing could be counted (the stored sheet breaks a rule itself): keep it as it is.
        bad, kept_penalties = set(submitted.penalties) - set(now.penalties), now.penalties
    else:
        kept_penalties = tuple(p for p in submitted.penalties if p not in bad)
    counted = SheetContent.build(n, cells, kept_penalties)
    counted_problems, counted_result = judge(counted)
    held_deals = tuple(
        deal
        for deal in range(1, DEAL_COUNT + 1)
        if any(
            mine.get((deal, seat), (None, None)) != cells.get((deal, seat), (None, None))
            for seat in range(n)
        )
    )
    held_penalties = tuple(p for p in submitted.penalties if p in bad)
    return SheetSplit(
        counted,
        submitted,
        held_deals,
        held_penalties,
        tuple(problems),
        result=None if counted_problems else counted_result,
    )
