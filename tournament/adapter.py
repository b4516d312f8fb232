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
from django.db.models import Exists, OuterRef, Subquery
from django.utils.translation import gettext_lazy as _

from scoring.deals import DEAL_COUNT
from scoring.errors import Problem
from scoring.sheet import DealEntry, Penalty, Sheet, SheetResult, check_sheet, score_sheet
from scoring.standings import RoundScore, StandingRow, round_scores, standings
from tournament.models import (
    Entry,
    Player,
    Seat,
    SheetConfirmation,
    SheetVersion,
    Table,
    Tournament,
)
from tournament.models import Penalty as PenaltyRow
from tournament.names import name_sort_key


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
) -> Sheet:
    """Build a sheet from ``{(deal, seat_index): (bid, tricks)}``; trailing empty deals dropped."""
    rows: list[DealEntry] = []
    for deal in range(1, DEAL_COUNT + 1):
        pairs = [cells.get((deal, seat), (None, None)) for seat in range(n_seats)]
        rows.append(DealEntry(bids=tuple(p[0] for p in pairs), tricks=tuple(p[1] for p in pairs)))
    while rows and all(v is None for v in (*rows[-1].bids, *rows[-1].tricks)):
        rows.pop()
    return Sheet(
        n_seats=n_seats,
        deals=tuple(rows),
        penalties=tuple(Penalty(seat=seat, deal=deal) for seat, deal in penalties),
    )


def load_table_sheets(
    *,
    tournament: Tournament,
    round_number: int | None = None,
    table_ids: Sequence[int] | None = None,
) -> list[TableSheet]:
    """Load the sheets of a tournament (or one round, or some tables) in three queries."""
    seats = Seat.objects.filter(round__tournament=tournament)
    entries = Entry.objects.filter(seat__round__tournament=tournament)
    penalties = PenaltyRow.objects.filter(seat__round__tournament=tournament)
    if round_number is not None:
        seats = seats.filter(round__number=round_number)
        entries = entries.filter(seat__round__number=round_number)
        penalties = penalties.filter(seat__round__number=round_number)
    if table_ids is not None:
        seats = seats.filter(table_id__in=table_ids)
        entries = entries.filter(seat__table_id__in=table_ids)
        penalties = penalties.filter(seat__table_id__in=table_ids)

    by_table: dict[int, list[tuple[int, int, int]]] = defaultdict(list)
    table_place: dict[int, tuple[int, int]] = {}
    seat_place: dict[int, tuple[int, int]] = {}
    for seat_id, table_id, table_no, round_no, player_id, position in seats.values_list(
        "id", "table_id", "table__number", "round__number", "player_id", "position"
    ):
        by_table[table_id].append((position, seat_id, player_id))
        table_place[table_id] = (round_no, table_no)
    for table_id, seats_of_table in by_table.items():
        seats_of_table.sort()
        for index, (_position, seat_id, _player) in enumerate(seats_of_table):
            seat_place[seat_id] = (table_id, index)

    cells: dict[int, dict[tuple[int, int], tuple[int | None, int | None]]] = defaultdict(dict)
    for seat_id, deal, bid, tricks in entries.values_list("seat_id", "deal", "bid", "tricks"):
        table_id, index = seat_place[seat_id]
        cells[table_id][(deal, index)] = (bid, tricks)
    table_penalties: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for seat_id, deal in penalties.values_list("seat_id", "deal"):
        table_id, index = seat_place[seat_id]
        table_penalties[table_id].append((index, deal))

    sheets = []
    for table_id, seats_of_table in by_table.items():
        round_no, table_no = table_place[table_id]
        sheets.append(
            TableSheet(
                table_id=table_id,
                round_number=round_no,
                table_number=table_no,
                seat_ids=tuple(s[1] for s in seats_of_table),
                player_ids=tuple(s[2] for s in seats_of_table),
                sheet=sheet_from_cells(
                    len(seats_of_table), cells[table_id], sorted(table_penalties[table_id])
                ),
            )
        )
    sheets.sort(key=lambda s: (s.round_number, s.table_number))
    return sheets


def table_sheet(table: Table) -> TableSheet:
    """The sheet of one table."""
    (sheet,) = load_table_sheets(tournament=table.round.tournament, table_ids=[table.pk])
    return sheet


def sheets_round_scores(sheets: Iterable[TableSheet]) -> list[RoundScore]:
    """Every seated player's score per round, from the sheets that have any entries."""
    scores: list[RoundScore] = []
    for table in sheets:
        if table.has_entries:
            scores.extend(round_scores(table.player_ids, table.result(), round=table.round_number))
    return scores


def unconfirmed_table_ids(tournament: Tournament) -> frozenset[int]:
    """The tables whose sheet's current version no director has confirmed (one query).

    A sheet that was never saved on the site (empty, or as imported from a tournament file)
    has nothing to confirm: it is not in the set. Nor is any sheet of a tournament that
    confirms no sheets (confirmation rule "none"): there every sheet is final.
    """
    if tournament.confirmation_rule == Tournament.ConfirmationRule.NONE:
        return frozenset()
    latest = SheetVersion.objects.filter(table=OuterRef("pk"), number__isnull=False).order_by(
        "-number"
    )
    confirmed = SheetConfirmation.objects.filter(version=OuterRef("latest"))
    return frozenset(
        Table.objects.filter(round__tournament=tournament)
        .annotate(latest=Subquery(latest.values("pk")[:1]))
        .filter(latest__isnull=False)
        .annotate(confirmed=Exists(confirmed))
        .filter(confirmed=False)
        .values_list("pk", flat=True)
    )


@dataclass(frozen=True, slots=True)
class Standings:
    """The standings of a tournament with the players they name.

    ``provisional`` holds ``(player id, round)`` for every round score that comes from a sheet
    no director has confirmed yet (when the tournament lets those count); ``left_out`` counts
    the unconfirmed sheets that do not count (when it does not).
    """

    rows: list[StandingRow]
    players: dict[int, Player]
    rounds_counted: tuple[int, ...]
    provisional: frozenset[tuple[int, int]] = frozenset()
    left_out: int = 0

    def is_provisional(self, player: int, round: int | None = None) -> bool:
        """Whether a player's score in ``round`` (or in any round) is provisional."""
        if round is not None:
            return (player, round) in self.provisional
        return any((player, number) in self.provisional for number in self.rounds_counted)


def tournament_standings(tournament: Tournament) -> Standings:
    """Live standings: every deal entered so far counts, ranked by the tournament's tie-breaks.

    Sheets that nobody has confirmed count as provisional, or not at all when the
    tournament's ``count_unconfirmed`` is off: this is the one place that rule is applied.
    Under the confirmation rule "none" no sheet waits for a confirmation, so all count, final.
    """
    players = {p.pk: p for p in Player.objects.filter(tournament=tournament)}
    for player in players.values():
        player.tournament = tournament  # known already: no query per row when it is used
    unconfirmed = unconfirmed_table_ids(tournament)
    sheets = [s for s in load_table_sheets(tournament=tournament) if s.has_entries]
    counted = [s for s in sheets if tournament.count_unconfirmed or s.table_id not in unconfirmed]
    scores = sheets_round_scores(counted)
    rows = standings(
        scores,
        order=tournament.tiebreak_order,
        players=players.keys(),
        names={pk: p.name for pk, p in players.items()},
        name_keys={pk: name_sort_key(p.name) for pk, p in players.items()},
    )
    return Standings(
        rows=rows,
        players=players,
        rounds_counted=tuple(sorted({score.round for score in scores})),
        provisional=frozenset(
            (player, s.round_number)
            for s in counted
            if s.table_id in unconfirmed
            for player in s.player_ids
        ),
        left_out=len(sheets) - len(counted),
    )
