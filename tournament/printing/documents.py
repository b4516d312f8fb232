"""What each printout shows, as plain values that the templates only lay out.

Who deals which deal, the seating and the standings come from ``scoring`` through
``tournament.adapter``; nothing here counts points or bollen.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import groupby

from django.db.models import Count, QuerySet

from scoring.deals import MAX_SEATS, MIN_SEATS
from tournament.adapter import load_table_sheets
from tournament.models import Player, Round, Tournament
from tournament.names import name_initial, name_sort_key
from tournament.printing.form import DEALER_MARK, FormGeometry, grid_image
from tournament.printing.sheet_layout import MARKS, Mark
from tournament.sheets.confirmations import tournament_counts_every_sheet
from tournament.standings.prizes import standings_prizes
from tournament.standings.selectors import StandingsState, tournament_standings
from tournament.venue.qr import qr_data_uri

ROUND_FIELD = 4
"""Characters per round in the standings' points per round, and one after them for the "*" of
a provisional score (the print CSS sizes the headers to match)."""

NOT_PLAYED = "\N{EN DASH}"

BLANK_SEAT_COUNTS: tuple[int, ...] = tuple(range(MIN_SEATS, MAX_SEATS + 1))
"""The table sizes a blank score sheet can be printed for: 3 to 6 players."""


@dataclass(frozen=True, slots=True)
class FormRow:
    """One player's line on a score sheet (``seat`` counts from 1, the top row)."""

    seat: int
    name: str = ""
    club: str = ""


@dataclass(frozen=True, slots=True)
class PrintedSheet:
    """One printed score sheet: a seated table's, or a blank one (no round, table or names).

    ``entry_url`` is where the table enters its scores online and ``qr`` the QR code of it as a
    data URI; both are empty on blank sheets. ``first_dealer``: the row (0-based) that deals
    deal 1 when the site sets it; ``None`` when the table draws it (and on blank sheets): then
    the sheet has a line for the dealer of each deal and a box for the drawn first dealer.
    """

    n_seats: int
    rows: tuple[FormRow, ...]
    round: int | None = None
    table: int | None = None
    entry_url: str = ""
    qr: str = ""
    first_dealer: int | None = None

    @property
    def dealers_known(self) -> bool:
        """Whether the sheet marks the dealer's boxes: a seated table whose first dealer the
        site sets does; a table that draws it, and a blank sheet, do not."""
        return self.table is not None and self.first_dealer is not None

    @property
    def dealer_drawn(self) -> bool:
        """Whether the table writes the first dealer it drew in the sheet's box."""
        return self.table is not None and self.first_dealer is None

    @property
    def geometry(self) -> FormGeometry:
        return FormGeometry(self.n_seats, self.dealers_known, self.first_dealer or 0)

    @property
    def grid(self) -> str:
        """The form's lines and dealer marks, as one image (see ``form``)."""
        return grid_image(
            self.n_seats, dealers=self.dealers_known, first_dealer=self.first_dealer or 0
        )

    @property
    def marks(self) -> tuple[Mark, ...]:
        """The alignment marks of a sheet a photo can be read from: a seated table's, whose QR
        code tells which table it is (a blank sheet has none)."""
        return MARKS if self.qr else ()

    @property
    def dealer_mark(self) -> str:
        """The dealer's mark as the grid draws it, for the legend."""
        return DEALER_MARK


def players_by_id(tournament: Tournament) -> dict[int, Player]:
    return {p.pk: p for p in Player.objects.filter(tournament=tournament).only("name", "club")}


def round_sheet_forms(
    tournament: Tournament, round_number: int, entry_urls: Mapping[int, str]
) -> list[PrintedSheet]:
    """The score sheets of a round's tables, in table order (empty if the round has none), with
    the QR code of each table's entry URL (``entry_urls`` by table id)."""
    players = players_by_id(tournament)
    drawn = tournament.first_dealer_rule == Tournament.FirstDealerRule.DRAWN
    forms = []
    for table in load_table_sheets(tournament=tournament, round_number=round_number):
        n_seats = len(table.player_ids)
        url = entry_urls[table.table_id]
        rows = tuple(
            FormRow(seat=seat, name=players[pid].name, club=players[pid].club)
            for seat, pid in enumerate(table.player_ids, start=1)
        )
        forms.append(
            PrintedSheet(
                n_seats=n_seats,
                rows=rows,
                round=table.round_number,
                table=table.table_number,
                entry_url=url,
                qr=qr_data_uri(url),
                first_dealer=None if drawn else table.sheet.first_dealer,
            )
        )
    return forms


def blank_sheet_form(n_seats: int) -> PrintedSheet:
    """A score sheet without names, for a table of ``n_seats`` (3 to 6) players."""
    if n_seats not in BLANK_SEAT_COUNTS:
        raise ValueError(f"A table has {MIN_SEATS} to {MAX_SEATS} players, not {n_seats}.")
    return PrintedSheet(
        n_seats=n_seats,
        rows=tuple(FormRow(seat=seat) for seat in range(1, n_seats + 1)),
    )


@dataclass(frozen=True, slots=True)
class SeatingLine:
    name: str
    club: str
    table: int
    seat: int


@dataclass(frozen=True, slots=True)
class SeatingTable:
    number: int
    players: tuple[SeatingLine, ...]


@dataclass(frozen=True, slots=True)
class SeatingList:
    """A round's seating: per table in seat order, and per player by name under its letter."""

    round: int
    tables: tuple[SeatingTable, ...]
    letters: tuple[tuple[str, tuple[SeatingLine, ...]], ...]

    @property
    def player_count(self) -> int:
        return sum(len(table.players) for table in self.tables)


def _initial(line: SeatingLine) -> str:
    return name_initial(line.name)


def round_seating(tournament: Tournament, round_number: int) -> SeatingList:
    """Who sits where in a round (no tables: an empty list)."""
    players = players_by_id(tournament)
    tables = tuple(
        SeatingTable(
            number=table.table_number,
            players=tuple(
                SeatingLine(players[pid].name, players[pid].club, table.table_number, seat + 1)
                for seat, pid in enumerate(table.player_ids)
            ),
        )
        for table in load_table_sheets(tournament=tournament, round_number=round_number)
    )
    by_name = sorted(
        (line for table in tables for line in table.players),
        key=lambda line: (name_sort_key(line.name), line.table),
    )
    letters = tuple((letter, tuple(lines)) for letter, lines in groupby(by_name, key=_initial))
    return SeatingList(round=round_number, tables=tables, letters=letters)


@dataclass(frozen=True, slots=True)
class StandingsLine:
    rank: int
    shared: bool
    name: str
    club: str
    per_round: tuple[int | None, ...]
    total: int
    bollen: int
    correct: int
    provisional: bool = False  # a score from a sheet not complete or not confirmed yet
    # Per round: its score comes from such a sheet (marked as the screen's standings mark it).
    provisional_rounds: tuple[bool, ...] = ()
    withdrawn: bool = False
    # Once finished: the prize this place takes (its rank), or the last place named.
    prize: int | None = None
    loser: bool = False

    @property
    def rounds_text(self) -> str:
        """The points per round as one line of fixed-width fields (a dash: round not played),
        each followed by a "*" where the round's score is provisional, as on the screen.

        One text instead of a cell per round: WeasyPrint lays out each cell, 500 lines a list.
        """
        marks = self.provisional_rounds or (False,) * len(self.per_round)
        return "".join(
            f"{NOT_PLAYED if p is None else p:>{ROUND_FIELD}}{'*' if mark else ' '}"
            for p, mark in zip(self.per_round, marks, strict=True)
        )


@dataclass(frozen=True, slots=True)
class StandingsList:
    """The standings with the points of every round counted so far, headed by their state
    (``state.title()``: "Final standings, <date>" only once the tournament is finished)."""

    rounds: tuple[int, ...]
    lines: tuple[StandingsLine, ...]
    state: StandingsState
    count_unconfirmed: bool = True

    @property
    def has_clubs(self) -> bool:
        return any(line.club for line in self.lines)

    @property
    def any_provisional(self) -> bool:
        return any(line.provisional for line in self.lines)

    @property
    def rounds_width(self) -> str:
        """The width of the points per round: fixed-width digits of 10.5 pt, plus padding."""
        return f"{len(self.rounds) * (ROUND_FIELD + 1) * 2.23 + 4:.1f}mm"


def standings_list(tournament: Tournament) -> StandingsList:
    standings = tournament_standings(tournament)
    ranks = Counter(row.rank for row in standings.rows)
    prizes = standings_prizes(
        tournament,
        [
            {
                "rank": row.rank,
                "player_id": row.player,
                "withdrawn": standings.players[row.player].withdrawn_round is not None,
            }
            for row in standings.rows
        ],
    )
    winners = {row["player_id"] for row in prizes.winners}
    losers = {row["player_id"] for row in prizes.losers}
    lines = tuple(
        StandingsLine(
            rank=row.rank,
            shared=ranks[row.rank] > 1,
            name=standings.players[row.player].name,
            club=standings.players[row.player].club,
            per_round=tuple(row.per_round.get(r) for r in standings.rounds_counted),
            total=row.tournament_points,
            bollen=row.bollen,
            correct=row.correct,
            provisional=standings.is_provisional(row.player),
            provisional_rounds=tuple(
                standings.is_provisional(row.player, r) for r in standings.rounds_counted
            ),
            withdrawn=standings.players[row.player].withdrawn_round is not None,
            prize=row.rank if row.player in winners else None,
            loser=row.player in losers,
        )
        for row in standings.rows
    )
    return StandingsList(
        rounds=standings.rounds_counted,
        lines=lines,
        state=standings.state,
        count_unconfirmed=tournament_counts_every_sheet(tournament),
    )


def printable_rounds(tournament: Tournament) -> QuerySet[Round]:
    """The rounds with their number of tables (``table_count``), first round first."""
    return (
        Round.objects.filter(tournament=tournament)
        .annotate(table_count=Count("tables"))
        .order_by("number")
    )
