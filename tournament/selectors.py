"""Reads that several views share."""

from __future__ import annotations

import datetime
from collections import Counter, defaultdict
from dataclasses import dataclass
from itertools import combinations

from django.db.models import Count, OuterRef, Q, QuerySet, Subquery

from scoring.confirmation import ConfirmationRule, ConfirmMethod, SheetState, confirm_methods
from scoring.seating import plan_quality
from scoring.tables import table_split
from tournament.adapter import SheetStatus, TableSheet, load_table_sheets
from tournament.models import Player, Round, SheetVersion, Table, TableLink, Tournament
from tournament.names import name_sort_key
from tournament.services.confirmations import tournament_confirmation_rule
from tournament.services.seating_options import options_load


def tournaments_directed(user) -> QuerySet[Tournament]:
    """The tournaments ``user`` directs or keeps score for (a superuser: every one)."""
    if not user.is_authenticated:
        return Tournament.objects.none()
    tournaments = Tournament.objects.all()
    if not user.is_superuser:
        ids = Tournament.objects.filter(Q(directors=user) | Q(scorers=user)).values("pk")
        tournaments = tournaments.filter(pk__in=ids)
    return tournaments.annotate(player_count=Count("players", distinct=True))


def tournaments_public() -> QuerySet[Tournament]:
    return Tournament.objects.filter(public=True)


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
    for round_ in tournament.rounds.order_by("number"):
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


def tournament_overview(tournament: Tournament) -> dict:
    summaries = round_summaries(tournament)
    counts = tournament.players.aggregate(
        total=Count("pk"), withdrawn=Count("pk", filter=Q(withdrawn_round__isnull=False))
    )
    next_number = next_round_number(tournament)
    playing = players_for_round(tournament, next_number)
    tables = 0
    if len(playing) >= 3:  # fewer cannot be seated; seating says so
        split = table_split(
            len(playing), sizes=tournament.table_sizes, prefer=tournament.prefer_size
        )
        tables = len(split.sizes)
    return {
        "summaries": summaries,
        "player_total": counts["total"],
        "player_withdrawn": counts["withdrawn"],
        "next_round": next_number,
        "next_round_players": len(playing),
        "next_round_tables": tables,
        **_club_spread(playing, tables),
        "incomplete_round": next((s for s in summaries if s.missing), None),
    }


def _club_spread(playing: QuerySet[Player], tables: int) -> dict:
    """Whether any clubs are known among the players, and the clubs with more players than
    there are tables ("BC De Bol (9)"): those cannot all sit apart in round 1."""
    clubs = Counter(club.strip().casefold() for club in playing.values_list("club", flat=True))
    clubs.pop("", None)
    if tables < 2:  # one table: nothing to keep apart
        return {"clubs_known": False, "crowded_clubs": []}
    shown = {p.club.strip().casefold(): p.club.strip() for p in playing if p.club.strip()}
    crowded = [f"{shown[club]} ({count})" for club, count in clubs.most_common() if count > tables]
    return {"clubs_known": bool(clubs), "crowded_clubs": crowded}


def player_rows(tournament: Tournament) -> list[Player]:
    """The players of a tournament with the number of rounds they have been seated in, in the
    order of a Dutch list (by surname)."""
    players = Player.objects.filter(tournament=tournament).annotate(rounds_seated=Count("seats"))
    return sorted(players, key=lambda p: (name_sort_key(p.name), p.pk))


@dataclass(frozen=True, slots=True)
class PlayerRound:
    round_number: int
    table_number: int
    seat: int
    opponents: list[Player]
    tournament_points: int | None
    bollen: int | None
    correct: int | None
    status: SheetStatus


def player_history(player: Player) -> dict:
    """Where a player sat each round, against whom, and what they scored (fixed queries)."""
    tournament = player.tournament
    sheets = [s for s in load_table_sheets(tournament=tournament) if player.pk in s.player_ids]
    others = {pk for s in sheets for pk in s.player_ids}
    names = Player.objects.in_bulk(others)
    history = []
    met: Counter[int] = Counter()
    for sheet in sheets:
        seat = sheet.player_ids.index(player.pk)
        totals = sheet.result().totals[seat] if sheet.has_entries else None
        opponents = [names[pk] for pk in sheet.player_ids if pk != player.pk]
        met.update(p.pk for p in opponents)
        history.append(
            PlayerRound(
                round_number=sheet.round_number,
                table_number=sheet.table_number,
                seat=seat,
                opponents=opponents,
                tournament_points=totals.tournament_points if totals else None,
                bollen=totals.bollen if totals else None,
                correct=totals.correct if totals else None,
                status=sheet.status,
            )
        )
    repeated = [(names[pk], count) for pk, count in met.items() if count > 1]
    return {"history": history, "met_again": sorted(repeated, key=lambda x: (-x[1], x[0].name))}


@dataclass(frozen=True, slots=True)
class SheetReview:
    """Where a table's sheet stands for the director: who saved it last (at the table, through
    its link, or on the sheet page), which version, whether a director has confirmed it, and
    whether the table has a working link."""

    version: int | None = None  # None: never saved on the site (empty, or imported)
    via: str | None = None
    saved_by: str | None = None
    saved_by_id: int | None = None
    saved_at: datetime.datetime | None = None
    confirmed_by: str | None = None
    confirmed_how: str | None = None
    confirmed_at: datetime.datetime | None = None
    link_active: bool = False

    @property
    def at_table(self) -> bool:
        return self.via == SheetVersion.Via.TABLE_LINK

    @property
    def confirmed(self) -> bool:
        return self.confirmed_at is not None


def round_sheet_reviews(round_: Round) -> dict[int, SheetReview]:
    """The review state of every table of a round, by table number (three queries)."""
    latest = SheetVersion.objects.filter(table=OuterRef("pk"), number__isnull=False).order_by(
        "-number"
    )
    tables = list(
        Table.objects.filter(round=round_)
        .annotate(latest=Subquery(latest.values("pk")[:1]))
        .values_list("pk", "number", "latest")
    )
    versions = SheetVersion.objects.filter(
        pk__in=[latest for _pk, _number, latest in tables if latest]
    ).select_related("user", "confirmation__user")
    linked = set(
        TableLink.objects.filter(table__round=round_, revoked_at__isnull=True).values_list(
            "table_id", flat=True
        )
    )
    by_table = {v.table_id: v for v in versions}
    reviews = {}
    for table_id, number, _latest in tables:
        version = by_table.get(table_id)
        confirmation = getattr(version, "confirmation", None) if version else None
        reviews[number] = SheetReview(
            version=version.number if version else None,
            via=version.via if version else None,
            saved_by=version.user.get_username() if version and version.user else None,
            saved_by_id=version.user_id if version else None,
            saved_at=version.created_at if version else None,
            confirmed_by=(
                confirmation.user.get_username() if confirmation and confirmation.user else None
            ),
            confirmed_how=confirmation.get_method_display() if confirmation else None,
            confirmed_at=confirmation.created_at if confirmation else None,
            link_active=table_id in linked,
        )
    return reviews


@dataclass(frozen=True, slots=True)
class SeatedTable:
    number: int
    players: list[Player]
    status: SheetStatus
    repeated: list[tuple[Player, Player, int]]
    review: SheetReview = SheetReview()
    # How the person looking may confirm it now (empty: they cannot).
    confirm_methods: tuple[ConfirmMethod, ...] = ()
    own: bool = False  # the person looking saved the sheet as it stands

    @property
    def may_look(self) -> bool:
        return ConfirmMethod.LOOK in self.confirm_methods

    @property
    def may_retype(self) -> bool:
        return ConfirmMethod.RETYPE in self.confirm_methods


def round_seating(round_: Round, user=None) -> dict:
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
    tables = []
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
            )
        )
    seated = {pk for t in tables for pk in (p.pk for p in t.players)}
    unseated = [p for p in players_for_round(tournament, round_.number) if p.pk not in seated]
    return {
        "tables": tables,
        "confirmation_rule": rule,
        "confirms_sheets": rule is not ConfirmationRule.NONE,
        "sheets_complete": sum(t.status == SheetStatus.COMPLETE for t in tables),
        "sheets_at_table": sum(t.review.at_table for t in tables),
        "sheets_confirmed": sum(t.review.confirmed for t in tables),
        "quality": quality,
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


def public_seating(tournament: Tournament) -> dict:
    """The latest published round's seating as (name, table), alphabetically."""
    round_ = tournament.rounds.exclude(state=Round.State.DRAFT).order_by("-number").first()
    if round_ is None:
        return {"round": None, "places": []}
    seats = sorted(
        round_.seats.select_related("player", "table"), key=lambda s: name_sort_key(s.player.name)
    )
    places = [Place(name=s.player.name, club=s.player.club, table=s.table.number) for s in seats]
    return {"round": round_, "places": places}


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
    return [SeatingChoice(o.balance, o.summary(names), o.balance == chosen) for o in options]


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


def players_kept_apart(player: Player) -> list[Player]:
    """The players ``player`` never sits at one table with, by name."""
    pairs = player.tournament.apart_pairs.filter(Q(player_a=player) | Q(player_b=player))
    others = [b if a == player.pk else a for a, b in pairs.values_list("player_a", "player_b")]
    return sorted(Player.objects.filter(pk__in=others), key=lambda p: name_sort_key(p.name))
