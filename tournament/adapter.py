"""The one place where the database meets ``scoring/``.

Views, exports and services never compute points, bollen or standings themselves: they load the
stored sheets through this module, which turns rows into ``scoring`` values and hands back
``scoring``'s answers. Every loader reads a fixed number of queries, however many players.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from django.db import models
from django.db.models import F, OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.utils.translation import gettext_lazy as _

from scoring.deals import DEAL_COUNT
from scoring.errors import Problem
from scoring.sheet import (
    DealEntry,
    Penalty,
    SeatTotals,
    Sheet,
    SheetResult,
    check_and_score,
    check_sheet,
    score_sheet,
)
from scoring.standings import RoundScore, seat_round_scores
from scoring.statistics import Boxes
from tournament.models import (
    Seat,
    SheetScore,
    SheetVersion,
    Table,
    Tournament,
)


@dataclass(frozen=True, slots=True)
class TableSheet:
    """A table's score sheet as ``scoring`` sees it, with the database ids around it."""

    table_id: int
    round_number: int
    table_number: int
    seat_ids: tuple[int, ...]
    player_ids: tuple[int, ...]
    sheet: Sheet

    @property
    def has_entries(self) -> bool:
        return self.sheet.started

    def result(self) -> SheetResult:
        return score_sheet(self.sheet)

    def checked(self) -> tuple[list[Problem], SheetResult | None]:
        """What breaks a rule on the sheet, and its scores when nothing does: checked once."""
        return check_and_score(self.sheet)

    @property
    def status(self) -> SheetStatus:
        """How far the table is: empty, in progress, complete, or in error."""
        return self.status_given(check_sheet(self.sheet))

    def status_given(
        self, problems: Sequence[Problem], result: SheetResult | None = None
    ) -> SheetStatus:
        """The status when the sheet's rule problems (and its scores) are known already, so
        that a page checks and scores a sheet once."""
        if problems:
            return SheetStatus.ERROR
        if not self.has_entries:
            return SheetStatus.EMPTY
        result = result if result is not None else self.result()
        return SheetStatus.COMPLETE if result.complete else SheetStatus.PROGRESS


class SheetStatus(models.TextChoices):
    EMPTY = "empty", _("not started")
    PROGRESS = "progress", _("in progress")
    COMPLETE = "complete", _("complete")
    ERROR = "error", _("in error")


def sheet_from_cells(
    n_seats: int,
    cells: Mapping[tuple[int, int], tuple[int | None, int | None]],
    penalties: Iterable[tuple[int, int]] = (),
    *,
    first_dealer: int = 0,
) -> Sheet:
    """Build a sheet from ``{(deal, seat_index): (bid, tricks)}`` and ``(deal, seat_index)``
    penalties (the cells' key order); trailing empty deals dropped. ``first_dealer``: the seat
    index that deals deal 1 (``Table.first_dealer``)."""
    rows: list[DealEntry] = []
    for deal in range(1, DEAL_COUNT + 1):
        pairs = [cells.get((deal, seat), (None, None)) for seat in range(n_seats)]
        rows.append(DealEntry(bids=tuple(p[0] for p in pairs), tricks=tuple(p[1] for p in pairs)))
    while rows and all(v is None for v in (*rows[-1].bids, *rows[-1].tricks)):
        rows.pop()
    return Sheet(
        n_seats=n_seats,
        deals=tuple(rows),
        penalties=tuple(Penalty(seat=seat, deal=deal) for deal, seat in penalties),
        first_dealer=first_dealer,
    )


def load_table_sheets(
    *,
    tournament: Tournament,
    round_number: int | None = None,
    table_ids: Sequence[int] | None = None,
) -> list[TableSheet]:
    """Load the sheets of a tournament (or one round, or some tables) in two queries: the
    seats, and each table's current version (the one copy of its sheet). Neither is ordered
    by the models' default order, which would join every club's rounds and tournaments: the
    sheets are put in order here."""
    seats = Seat.objects.filter(round__tournament=tournament).order_by()
    versions = current_versions(
        SheetVersion.objects.filter(table__round__tournament=tournament).order_by()
    )
    if round_number is not None:
        seats = seats.filter(round__number=round_number)
        versions = versions.filter(table__round__number=round_number)
    if table_ids is not None:
        seats = seats.filter(table_id__in=table_ids)
        versions = versions.filter(table_id__in=table_ids)

    by_table, table_place, first_dealers = _seats_by_table(seats)
    stored = {
        table_id: (cells, penalties)
        for table_id, cells, penalties in versions.values_list("table_id", "cells", "penalties")
    }
    sheets = []
    for table_id, seats_of_table in by_table.items():
        round_no, table_no = table_place[table_id]
        n_seats = len(seats_of_table)
        cells, penalties = version_cells(*stored.get(table_id, ([], [])), n_seats=n_seats)
        sheets.append(
            TableSheet(
                table_id=table_id,
                round_number=round_no,
                table_number=table_no,
                seat_ids=tuple(s[1] for s in seats_of_table),
                player_ids=tuple(s[2] for s in seats_of_table),
                sheet=sheet_from_cells(
                    n_seats, cells, sorted(penalties), first_dealer=first_dealers[table_id]
                ),
            )
        )
    sheets.sort(key=lambda s: (s.round_number, s.table_number))
    return sheets


def current_versions(versions: QuerySet[SheetVersion]) -> QuerySet[SheetVersion]:
    """Of ``versions``, each table's current one: the highest number (conflict records, which
    have none, never are). A table's current version is the only copy of its sheet now."""
    return versions.alias(now=_current_version("table_id")).filter(number=F("now"))


def version_cells(
    cells: Sequence[Sequence[Sequence[int | None]]],
    penalties: Sequence[Sequence[int]],
    *,
    n_seats: int,
) -> tuple[dict[tuple[int, int], tuple[int | None, int | None]], list[tuple[int, int]]]:
    """A version's JSON (``SheetVersion.cells``, ``.penalties``) as ``{(deal, seat index):
    (bid, tricks)}`` and ``(deal, seat)`` pairs, the boxes that hold something. Seats beyond
    ``n_seats`` cannot hold anything (the seating is locked once a sheet has entries)."""
    placed = {
        (deal, seat): (pair[0], pair[1])
        for deal, row in enumerate(cells, start=1)
        for seat, pair in enumerate(row)
        if seat < n_seats and (pair[0] is not None or pair[1] is not None)
    }
    return placed, [(deal, seat) for deal, seat in penalties if seat < n_seats]


def table_boxes(tournament: Tournament, seats: dict[int, int]) -> dict[int, Boxes]:
    """Every table's boxes as its current version stores them (one query, the cells only):
    ``{table id: boxes[deal - 1][seat index] = (bid, tricks)}`` for the tables of ``seats``
    (``{table id: its number of seats}``), each deal row as wide as the table (seats beyond it
    never hold anything, as ``version_cells`` reads them), deals not written left out."""
    versions = current_versions(SheetVersion.objects.filter(table__round__tournament=tournament))
    stored = dict(versions.values_list("table_id", "cells"))
    empty = [None, None]
    boxes: dict[int, Boxes] = {}
    for table_id, n_seats in seats.items():
        boxes[table_id] = [
            row if len(row) == n_seats else (row + [empty] * n_seats)[:n_seats]
            for row in stored.get(table_id, ())
        ]
    return boxes


def started_table_ids(tables: QuerySet[Table]) -> frozenset[int]:
    """Which of ``tables`` have a bid or tricks written on their sheet now (one query): what
    locks a round's seating and a table's first dealer."""
    versions = current_versions(SheetVersion.objects.filter(table__in=tables))
    return frozenset(
        table_id
        for table_id, cells in versions.values_list("table_id", "cells")
        if any(v is not None for row in cells for pair in row for v in pair)
    )


SeatsOfTables = dict[int, list[tuple[int, int, int]]]


def _seats_by_table(
    seats: QuerySet[Seat],
) -> tuple[SeatsOfTables, dict[int, tuple[int, int]], dict[int, int]]:
    """``{table id: [(position, seat id, player id)...]}`` in seat order, each table's
    ``(round, table number)`` and the seat index that deals its deal 1, from a queryset of seats
    (one query). A table whose first dealer was not drawn (or sits beyond its seats, should the
    seating have changed under it) has its top row deal first."""
    by_table: SeatsOfTables = defaultdict(list)
    table_place: dict[int, tuple[int, int]] = {}
    drawn: dict[int, int | None] = {}
    for seat_id, table_id, table_no, round_no, player_id, position, first in seats.values_list(
        "id",
        "table_id",
        "table__number",
        "round__number",
        "player_id",
        "position",
        "table__first_dealer_seat",
    ):
        by_table[table_id].append((position, seat_id, player_id))
        table_place[table_id] = (round_no, table_no)
        drawn[table_id] = first
    for seats_of_table in by_table.values():
        seats_of_table.sort()
    first_dealers = {
        table_id: first if first is not None and first < len(by_table[table_id]) else 0
        for table_id, first in drawn.items()
    }
    return by_table, table_place, first_dealers


def table_sheet(table: Table) -> TableSheet:
    """The sheet of one table."""
    (sheet,) = load_table_sheets(tournament=table.round.tournament, table_ids=[table.pk])
    return sheet


@dataclass(frozen=True, slots=True)
class TableScore:
    """What a table's sheet scores (per seat, in seat order), without its cells: what the
    standings and the public pages need, read from ``SheetScore`` while it is current."""

    table_id: int
    round_number: int
    table_number: int
    seat_ids: tuple[int, ...]
    player_ids: tuple[int, ...]
    started: bool
    complete: bool
    totals: tuple[SeatTotals, ...]

    @property
    def has_entries(self) -> bool:
        return self.started

    @classmethod
    def of_sheet(cls, table: TableSheet, result: SheetResult | None = None) -> TableScore:
        result = result if result is not None else table.result()
        return cls(
            table_id=table.table_id,
            round_number=table.round_number,
            table_number=table.table_number,
            seat_ids=table.seat_ids,
            player_ids=table.player_ids,
            started=table.sheet.started,
            complete=result.complete,
            totals=result.totals,
        )


_TOTALS_FIELDS = SeatTotals.__dataclass_fields__.keys()


def sheet_scores_store(scores: Mapping[int, TableScore], *, versions: Mapping[int, int]) -> None:
    """Keep what each table's sheet scores as computed from its version ``versions[table]``
    (one query per 500 tables). Only the services that store a sheet call this."""
    SheetScore.objects.bulk_create(
        [
            SheetScore(
                table_id=table_id,
                version=versions.get(table_id, 0),
                seat_ids=list(score.seat_ids),
                started=score.started,
                complete=score.complete,
                totals=[[getattr(t, name) for name in _TOTALS_FIELDS] for t in score.totals],
            )
            for table_id, score in scores.items()
        ],
        update_conflicts=True,
        unique_fields=["table"],
        update_fields=["version", "seat_ids", "started", "complete", "totals"],
        batch_size=500,
    )


def sheet_scores_refresh(*, tournament: Tournament, table_ids: Sequence[int] | None = None) -> None:
    """Score the sheets of a tournament (or some of its tables) afresh and keep the scores
    with the version each was computed from: after an import, or a change of seats."""
    sheets = load_table_sheets(tournament=tournament, table_ids=table_ids)
    sheet_scores_store(
        {s.table_id: TableScore.of_sheet(s) for s in sheets},
        versions=_current_versions([s.table_id for s in sheets]),
    )


def _current_versions(table_ids: Sequence[int]) -> dict[int, int]:
    """The current sheet version of each table (0 with nothing stored)."""
    return dict(
        Table.objects.filter(pk__in=table_ids)
        .annotate(version=_current_version("pk"))
        .values_list("pk", "version")
    )


def _current_version(table_ref: str) -> Coalesce:
    """The number of the current version of the table at ``table_ref``, in a query (0 before
    anything is stored, as ``SheetScore.version`` has it)."""
    return Coalesce(Subquery(SheetVersion.objects.current(OuterRef(table_ref)).values("number")), 0)


def load_table_scores(
    *, tournament: Tournament, round_number: int | None = None
) -> list[TableScore]:
    """What every table's sheet scores (or one round's), in round and table order: see
    ``load_tournaments_table_scores``."""
    scores = load_tournaments_table_scores(tournaments=[tournament], round_number=round_number)
    return sorted(scores[tournament.pk], key=lambda s: (s.round_number, s.table_number))


def load_tournaments_table_scores(
    *, tournaments: Sequence[Tournament], round_number: int | None = None
) -> dict[int, list[TableScore]]:
    """What every table's sheet scores (or one round's), by tournament id, in two queries for
    any number of tournaments: the seats, and the kept scores that are current (computed from
    the table's version now, for its seats now). A table without a current score is scored
    afresh from its cells (one more query per tournament that has one); nothing is written."""
    ids = [t.pk for t in tournaments]
    # In round, table and seat order by the rows the filter joins anyway: the seats' default
    # order (by their tournaments' dates) would join every club's rounds and tournaments.
    seats = Seat.objects.filter(round__tournament_id__in=ids).order_by(
        "round__number", "table__number", "position"
    )
    kept = SheetScore.objects.filter(table__round__tournament_id__in=ids).order_by()
    if round_number is not None:
        seats = seats.filter(round__number=round_number)
        kept = kept.filter(table__round__number=round_number)
    by_table: SeatsOfTables = defaultdict(list)
    place: dict[int, tuple[int, int, int]] = {}
    for (
        seat_id,
        table_id,
        table_no,
        round_no,
        tournament_id,
        player_id,
        position,
    ) in seats.values_list(
        "id",
        "table_id",
        "table__number",
        "round__number",
        "round__tournament_id",
        "player_id",
        "position",
    ):
        by_table[table_id].append((position, seat_id, player_id))
        place[table_id] = (tournament_id, round_no, table_no)
    current = {
        table_id: (seat_ids, started, complete, totals)
        for table_id, version, now, seat_ids, started, complete, totals in kept.annotate(
            now=_current_version("table_id")
        ).values_list("table_id", "version", "now", "seat_ids", "started", "complete", "totals")
        if version == now
    }
    scores: dict[int, list[TableScore]] = {t.pk: [] for t in tournaments}
    stale: dict[int, list[int]] = defaultdict(list)
    for table_id, seats_of_table in by_table.items():
        seats_of_table.sort()
        tournament_id, round_no, table_no = place[table_id]
        seat_ids = tuple(s[1] for s in seats_of_table)
        row = current.get(table_id)
        if row is None or tuple(row[0]) != seat_ids:
            stale[tournament_id].append(table_id)
            continue
        scores[tournament_id].append(
            TableScore(
                table_id=table_id,
                round_number=round_no,
                table_number=table_no,
                seat_ids=seat_ids,
                player_ids=tuple(s[2] for s in seats_of_table),
                started=row[1],
                complete=row[2],
                totals=tuple(SeatTotals(*t) for t in row[3]),
            )
        )
    by_pk = {t.pk: t for t in tournaments}
    for tournament_id, table_ids in stale.items():
        fresh = load_table_sheets(tournament=by_pk[tournament_id], table_ids=table_ids)
        scores[tournament_id].extend(TableScore.of_sheet(s) for s in fresh)
    return scores


def sheets_round_scores(sheets: Iterable[TableSheet | TableScore]) -> list[RoundScore[int]]:
    """Every seated player's score per round, from the sheets that have any entries."""
    scores: list[RoundScore[int]] = []
    for table in sheets:
        if table.has_entries:
            totals = table.totals if isinstance(table, TableScore) else table.result().totals
            scores.extend(seat_round_scores(table.player_ids, totals, round=table.round_number))
    return scores
