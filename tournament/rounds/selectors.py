"""Reads of the round pages: the rounds' progress, a round's seating, the public seating."""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass
from itertools import combinations
from typing import TypedDict

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Q, QuerySet

from scoring.confirmation import ConfirmationRule, ConfirmMethod, SheetState, confirm_methods
from scoring.seating import PlanQuality, plan_quality
from scoring.seating.repeats_after import repeats_after
from tournament.adapter import SheetStatus, TableSheet, load_table_sheets
from tournament.models import Player, Round, Tournament
from tournament.names import name_sort_key
from tournament.rounds.seating_options import options_load, repeats_note
from tournament.sheets.confirmations import tournament_confirmation_rule
from tournament.sheets.selectors import SheetReview, round_sheet_reviews


@dataclass(frozen=True, slots=True)
class RoundSummary:
    round: Round
    tables: int
    statuses: dict[str, int]

    @property
    def missing(self) -> int:
        """Tables whose sheet is not complete yet."""
        return self.tables - self.statuses.get(SheetStatus.COMPLETE, 0)


def round_summaries(tournament: Tournament) -> list[RoundSummary]:
    """Every round with its number of tables per sheet status (a fixed number of queries)."""
    by_round: dict[int, list[TableSheet]] = defaultdict(list)
    for sheet in load_table_sheets(tournament=tournament):
        by_round[sheet.round_number].append(sheet)
    summaries = []
    for round_ in tournament.rounds.with_state().order_by("number"):
        sheets = by_round.get(round_.number, [])
        summaries.append(
            RoundSummary(
                round=round_,
                tables=len(sheets),
                statuses=dict(Counter(str(s.status) for s in sheets)),
            )
        )
    return summaries


def next_round_number(tournament: Tournament) -> int:
    last = tournament.rounds.order_by("-number").values_list("number", flat=True).first()
    return (last or 0) + 1


def players_for_round(tournament: Tournament, number: int) -> QuerySet[Player]:
    """The players to seat in round ``number``: joined by then and not withdrawn."""
    return (
        Player.objects.filter(tournament=tournament, joined_round__lte=number)
        .filter(Q(withdrawn_round__isnull=True) | Q(withdrawn_round__gt=number))
        .order_by("name", "pk")
    )


@dataclass(frozen=True, slots=True)
class SeatedTable:
    number: int
    players: list[Player]
    status: SheetStatus
    repeated: list[tuple[Player, Player, int]]
    review: SheetReview = SheetReview()  # noqa: RUF009  (frozen, so one default is safe)
    # How the person looking may confirm it now (empty: they cannot).
    confirm_methods: tuple[ConfirmMethod, ...] = ()
    own: bool = False  # the person looking saved the sheet as it stands
    # The seat that deals deal 1; None while a table that draws has not said who.
    first_dealer: int | None = 0

    @property
    def may_look(self) -> bool:
        return ConfirmMethod.LOOK in self.confirm_methods

    @property
    def may_retype(self) -> bool:
        return ConfirmMethod.RETYPE in self.confirm_methods


class RoundSeating(TypedDict):
    """A round's seating page: its tables, their sheets, and the plan's quality."""

    tables: list[SeatedTable]
    confirmation_rule: ConfirmationRule
    confirms_sheets: bool
    sheets_complete: int
    sheets_at_table: int
    sheets_confirmed: int
    sheets_unconfirmed: int
    quality: PlanQuality[int]
    quality_note: str
    repeats_this_round: int
    unseated: list[Player]
    all_seated: list[Player]


def round_seating(round_: Round, user: User | AnonymousUser | None = None) -> RoundSeating:
    """A round's tables in seat order with their sheet status, the plan's quality, and who
    meets whom again (counting this round and the ones before); with ``user``, how that
    person may confirm each sheet under the tournament's confirmation rule."""
    tournament = round_.tournament
    rule = tournament_confirmation_rule(tournament)
    user_id = getattr(user, "pk", None)
    sheets = [
        s for s in load_table_sheets(tournament=tournament) if s.round_number <= round_.number
    ]
    players = Player.objects.in_bulk({pk for s in sheets for pk in s.player_ids})
    schedule: dict[int, list[list[int]]] = defaultdict(list)
    for sheet in sheets:
        schedule[sheet.round_number].append(list(sheet.player_ids))
    quality = plan_quality([schedule[n] for n in sorted(schedule)])
    met_before: Counter[frozenset[int]] = Counter()
    for number in sorted(schedule):
        if number >= round_.number:
            break
        for table in schedule[number]:
            met_before.update(frozenset(pair) for pair in combinations(table, 2))
    reviews = round_sheet_reviews(round_)
    drawn = None
    if tournament.first_dealer_rule == Tournament.FirstDealerRule.DRAWN:
        drawn = set(
            round_.tables.filter(first_dealer_seat__isnull=False).values_list("number", flat=True)
        )
    tables: list[SeatedTable] = []
    for sheet in sheets:
        if sheet.round_number != round_.number:
            continue
        repeated = [
            (players[a], players[b], met_before[frozenset((a, b))] + 1)
            for a, b in combinations(sheet.player_ids, 2)
            if met_before[frozenset((a, b))]
        ]
        review = reviews.get(sheet.table_number, SheetReview())
        methods = confirm_methods(
            rule=rule,
            sheet=SheetState(
                saved=review.version is not None,
                complete=sheet.status == SheetStatus.COMPLETE,
                saved_by=review.saved_by_id,
            ),
            user=user_id,
        )
        tables.append(
            SeatedTable(
                number=sheet.table_number,
                players=[players[pk] for pk in sheet.player_ids],
                status=sheet.status,
                repeated=repeated,
                review=review,
                confirm_methods=methods,
                own=review.saved_by_id is not None
                and review.saved_by_id == getattr(user, "pk", None),
                first_dealer=None
                if drawn is not None and sheet.table_number not in drawn and not sheet.has_entries
                else sheet.sheet.first_dealer,
            )
        )
    seated = {pk for t in tables for pk in (p.pk for p in t.players)}
    unseated = sorted(
        (p for p in players_for_round(tournament, round_.number) if p.pk not in seated),
        key=lambda p: name_sort_key(p.name),
    )
    return {
        "tables": tables,
        "confirmation_rule": rule,
        "confirms_sheets": rule is not ConfirmationRule.NONE,
        "sheets_complete": sum(t.status == SheetStatus.COMPLETE for t in tables),
        "sheets_at_table": sum(t.review.at_table for t in tables),
        "sheets_confirmed": sum(t.review.confirmed for t in tables),
        # Saved on the site and waiting for a confirmation (an imported sheet waits for none).
        "sheets_unconfirmed": sum(
            t.review.version is not None and not t.review.confirmed for t in tables
        ),
        "quality": quality,
        # What a seating of this round could reach after the rounds before it (as played).
        "quality_note": repeats_note(
            repeats_after(
                [schedule[n] for n in sorted(schedule)],
                played=sum(1 for number in schedule if number < round_.number),
            )
        ),
        "repeats_this_round": sum(len(t.repeated) for t in tables),
        "unseated": unseated,
        "all_seated": sorted(
            (p for t in tables for p in t.players), key=lambda p: name_sort_key(p.name)
        ),
    }


@dataclass(frozen=True, slots=True)
class Place:
    name: str
    club: str
    table: int
    player: int  # the player's id: the link to their own page


class PublicSeating(TypedDict):
    round: Round | None
    places: list[Place]
    # The round is over (complete) or the tournament finished: nobody asks where they sit.
    over: bool
    finished: bool


def public_seating(tournament: Tournament) -> PublicSeating:
    """The latest published round's seating as (name, table), alphabetically, and whether it
    is over (every sheet complete) or the whole tournament is."""
    round_ = tournament.rounds.with_state().filter(published=True).order_by("-number").first()
    finished = tournament.finished_at is not None
    if round_ is None:
        return {"round": None, "places": [], "over": finished, "finished": finished}
    seats = sorted(
        round_.seats.select_related("player", "table"), key=lambda s: name_sort_key(s.player.name)
    )
    places = [
        Place(name=s.player.name, club=s.player.club, table=s.table.number, player=s.player_id)
        for s in seats
    ]
    over = finished or round_.state == Round.State.COMPLETE
    return {"round": round_, "places": places, "over": over, "finished": finished}


@dataclass(frozen=True, slots=True)
class SeatingChoice:
    """One balance as the director compares it on a draft round's page."""

    balance: str
    summary: str
    chosen: bool


def round_seating_choices(round_: Round) -> list[SeatingChoice]:
    """What each balance gave when the round was seated (none with one table size), the
    tournament's current choice marked."""
    options = options_load(round_.seating_options)
    names = dict(
        Player.objects.filter(pk__in=[o.most_player for o in options]).values_list("pk", "name")
    )
    chosen = round_.tournament.seating_balance
    if len(options) > 1 and len({o.figures for o in options}) == 1:
        # The same figures either way: one sentence, no choice to make.
        kept = next((o for o in options if o.balance == chosen), options[0])
        return [SeatingChoice(kept.balance, kept.summary(names, options, same=True), True)]
    return [
        SeatingChoice(o.balance, o.summary(names, options), o.balance == chosen) for o in options
    ]


def round_changed_by_hand(round_: Round) -> bool:
    """Whether a round's tables differ from the plan it was seated with (a swap or a move):
    then the options compared on its page describe the plan, not the tables as they are."""
    planned = round_.seating_options.get(round_.tournament.seating_balance)
    if not planned:
        return False
    tables: dict[int, set[int]] = defaultdict(set)
    for table, player in round_.seats.values_list("table_id", "player_id"):
        tables[table].add(player)
    now = {frozenset(members) for members in tables.values()}
    return now != {frozenset(members) for members in planned["tables"]}
