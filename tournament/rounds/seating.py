"""Seating rounds: plan with the seating engine, adjust by hand, publish, lock once play starts.

A round's seating is a *draft* until the director publishes it (then players can look up their
table); swaps and moves are possible in both states, until the first deal of the round is
entered. Seating a round plans all remaining rounds together (that gives better schedules) but
stores only the round at hand: the next round is planned again from what was really played.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import replace

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Count, F, Q
from django.utils.translation import gettext as _

from scoring.deals import deals_dealt
from scoring.errors import ScoringError
from scoring.seating import Balance, SeatingError
from scoring.seating.dealing import seat_orders
from scoring.tables import table_split
from tournament.adapter import sheet_scores_refresh, started_table_ids
from tournament.errors import PlacedProblem, Refused, refuse_when_finished
from tournament.models import (
    SEATING_EDITABLE_STATES,
    Player,
    Round,
    Seat,
    Table,
    Tournament,
)
from tournament.rounds.season_seating import season_history
from tournament.rounds.seating_options import (
    SeatingRequest,
    club_pairs,
    is_apart_refusal,
    options_load,
    options_store,
    plan_options,
)
from tournament.rounds.selectors import next_round_number, players_for_round
from tournament.sheets.table_links import table_links_ensure

EDITABLE_STATES = SEATING_EDITABLE_STATES


def seating_history(tournament: Tournament, *, before: int) -> list[list[list[int]]]:
    """Every earlier round's tables as lists of player ids (withdrawn players included)."""
    tables: dict[tuple[int, int], list[tuple[int, int]]] = defaultdict(list)
    seats = Seat.objects.filter(round__tournament=tournament, round__number__lt=before)
    for round_no, table_id, position, player_id in seats.values_list(
        "round__number", "table_id", "position", "player_id"
    ):
        tables[round_no, table_id].append((position, player_id))
    history: dict[int, list[list[int]]] = defaultdict(list)
    for (round_no, _table), members in sorted(tables.items()):
        history[round_no].append([player for _pos, player in sorted(members)])
    return [history[number] for number in sorted(history)]


def _refuse(
    code: str, message: str, *, round: int | None = None, table: int | None = None
) -> Refused:
    return Refused([PlacedProblem(code=code, message=message, round=round, table=table)])


@transaction.atomic
def round_seat(*, tournament: Tournament, seed: int | None = None) -> tuple[Round, str]:
    """Seat the next round with the seating engine; returns the round and a note for the
    director (e.g. that a table of 3 or 6 was needed)."""
    locked = Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
    refuse_when_finished(locked or tournament)
    last = tournament.rounds.order_by("-number").first()
    if last is not None and not last.published:
        raise _refuse(
            "previous_draft",
            _("Round %(round)s is still a draft: publish or remove its seating first.")
            % {"round": last.number},
            round=last.number,
        )
    number = next_round_number(tournament)
    # In registration order, not by name: the planner maps players onto a design's positions
    # in the order given, and a renamed player must not change the rest of the plan.
    players = list(
        players_for_round(tournament, number).order_by("pk").values_list("pk", flat=True)
    )
    if len(players) < 3:
        raise _refuse(
            "player_count",
            _("Round %(round)s needs at least 3 players; %(count)s can play.")
            % {"round": number, "count": len(players)},
        )
    remaining = max(1, tournament.rounds_planned - number + 1)
    history = seating_history(tournament, before=number)
    split = table_split(len(players), sizes=tournament.table_sizes, prefer=tournament.prefer_size)
    clubs_apart: tuple[tuple[int, int], ...] = ()
    if not history and tournament.clubs_apart_first_round:
        clubs = dict(
            Player.objects.filter(pk__in=players).exclude(club="").values_list("pk", "club")
        )
        clubs_apart = club_pairs(clubs, len(split.sizes))
    request = SeatingRequest(
        players=tuple(players),
        rounds=remaining,
        # Round 1 of a season's evening: the season's meetings stand in for the history.
        history=history or season_history(tournament, players),
        table_sizes=tuple(tournament.table_sizes),
        prefer=tournament.prefer_size,
        seed=number if seed is None else seed,
        apart=tuple(tournament.apart_pairs.values_list("player_a_id", "player_b_id")),
        apart_first_round=clubs_apart,
    )
    notes = []
    chosen = Balance(tournament.seating_balance)
    try:
        try:
            plan, options = plan_options(
                request, chosen=chosen, time_limit=settings.SEATING_TIME_LIMIT
            )
        except SeatingError as exc:
            if not (clubs_apart and is_apart_refusal(exc)):
                raise
            # Too many players of too few clubs to keep them all apart: seat without.
            request = replace(request, apart_first_round=())
            plan, options = plan_options(
                request, chosen=chosen, time_limit=settings.SEATING_TIME_LIMIT
            )
            notes.append(_("The clubs' players could not all sit at different tables."))
    except (SeatingError, ScoringError) as exc:
        raise _refuse("seating", str(exc)) from exc
    round_ = Round.objects.create(
        tournament=tournament,
        number=number,
        seating_options=options_store(options),
    )
    dealt = deals_dealt_so_far(tournament)
    _store_tables(round_, seat_orders(plan.rounds[0], dealt, seed=request.seed))
    split = table_split(len(players), sizes=tournament.table_sizes, prefer=tournament.prefer_size)
    if split.fallback:
        notes.append(
            _(
                "%(count)s players cannot all sit at tables of %(sizes)s; this round uses tables "
                "of %(split)s."
            )
            % {
                "count": len(players),
                "sizes": " / ".join(map(str, sorted(tournament.table_sizes))),
                "split": " + ".join(map(str, split.sizes)),
            }
        )
    return round_, " ".join(notes)


@transaction.atomic
def round_balance(*, round_: Round, balance: Balance) -> Round:
    """Seat a draft round as the other balance planned it when it was seated (the director
    compared them), and remember that balance for the next rounds. Hand changes are lost."""
    round_ = _editable_round(round_)
    tournament = round_.tournament
    if round_.published:
        # Players have looked up their tables and the lists are printed: reseating a
        # published round goes through "remove this seating", which asks first.
        raise _refuse(
            "round_published",
            _(
                "Round %(round)s is published: its lists may be printed already. Remove this "
                "seating first to seat it again."
            )
            % {"round": round_.number},
            round=round_.number,
        )
    options = {option.balance: option for option in options_load(round_.seating_options)}
    last = tournament.rounds.order_by("-number").first()
    if str(balance) not in options or last is None or last.pk != round_.pk:
        raise _refuse(
            "no_seating_option",
            _("Round %(round)s has no other seating to choose; seat it again instead.")
            % {"round": round_.number},
            round=round_.number,
        )
    round_.tables.all().delete()
    dealt = deals_dealt_so_far(tournament)
    _store_tables(round_, seat_orders(options[str(balance)].tables, dealt, seed=round_.number))
    Tournament.objects.filter(pk=tournament.pk).update(seating_balance=str(balance))
    return round_


def deals_dealt_so_far(tournament: Tournament) -> Counter[int]:
    """How many deals each player has dealt so far, from their seats and their tables' sizes."""
    seats = (
        Seat.objects.filter(round__tournament=tournament)
        .annotate(table_size=Count("table__seats"), first=F("table__first_dealer_seat"))
        .values_list("player_id", "position", "table_size", "first")
    )
    dealt: Counter[int] = Counter()
    for player, position, size, first in seats:
        dealt[player] += deals_dealt(position, size, first or 0)
    return dealt


def _store_tables(round_: Round, tables: Sequence[Sequence[int]]) -> None:
    created = Table.objects.bulk_create(
        [Table(round=round_, number=n) for n in range(1, len(tables) + 1)]
    )
    Seat.objects.bulk_create(
        [
            Seat(round=round_, table=table, player_id=player, position=position)
            for table, members in zip(created, tables, strict=True)
            for position, player in enumerate(members)
        ]
    )
    sheet_scores_refresh(tournament=round_.tournament, table_ids=[t.pk for t in created])


def _refuse_apart_pairs(round_: Round, moves: dict[int, tuple[Player, int]]) -> None:
    """Refuse a hand change that seats a pair the director keeps apart at one table.

    ``moves``: for each player who changes table, (the player, the table's pk they go to).
    """
    if not moves:
        return
    pairs = round_.tournament.apart_pairs.filter(
        Q(player_a__in=list(moves)) | Q(player_b__in=list(moves))
    ).select_related("player_a", "player_b")
    if not pairs:
        return
    table_of = dict(Seat.objects.filter(round=round_).values_list("player_id", "table_id"))
    table_of.update({pk: table for pk, (_player, table) in moves.items()})
    for pair in pairs:
        a, b = pair.player_a, pair.player_b
        if table_of.get(a.pk) is not None and table_of.get(a.pk) == table_of.get(b.pk):
            mover = moves[a.pk] if a.pk in moves else moves[b.pk]  # one of them moves
            table = Table.objects.get(pk=mover[1])
            raise _refuse(
                "apart_pair",
                _(
                    "%(a)s and %(b)s never sit at one table (set on the player's page), so "
                    "%(name)s cannot go to table %(table)s. Choose another player or table, "
                    "or lift that setting first."
                )
                % {"a": a.name, "b": b.name, "name": mover[0].name, "table": table.number},
                round=round_.number,
                table=table.number,
            )


def _editable_round(round_: Round) -> Round:
    round_ = Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)
    refuse_when_finished(round_.tournament)
    started = bool(started_table_ids(Table.objects.filter(round=round_)))
    if started:  # the round is being played (or complete): its sheets say so
        raise _refuse(
            "round_locked",
            _("Round %(round)s has started; its seating is locked.") % {"round": round_.number},
            round=round_.number,
        )
    return round_


@transaction.atomic
def round_swap(*, round_: Round, player_a: Player, player_b: Player) -> None:
    """Swap two players' seats (at one table or two)."""
    round_ = _editable_round(round_)
    seats = {
        s.player_id: s for s in Seat.objects.filter(round=round_, player__in=[player_a, player_b])
    }
    missing = [p.name for p in (player_a, player_b) if p.pk not in seats]
    if missing:
        raise _refuse(
            "not_seated",
            _("%(name)s has no seat in round %(round)s.")
            % {"name": missing[0], "round": round_.number},
        )
    if player_a.pk == player_b.pk:
        raise _refuse("swap_self", _("Choose two different players to swap."))
    a, b = seats[player_a.pk], seats[player_b.pk]
    if a.table_id != b.table_id:
        _refuse_apart_pairs(
            round_, {player_a.pk: (player_a, b.table_id), player_b.pk: (player_b, a.table_id)}
        )
    # Two unique constraints (player per round, position per table): move a out of the way.
    a_table, a_pos, b_table, b_pos = a.table_id, a.position, b.table_id, b.position
    a.delete()
    b.table_id, b.position = a_table, a_pos
    b.save(update_fields=["table", "position"])
    Seat.objects.create(round=round_, table_id=b_table, position=b_pos, player=player_a)
    _first_dealers_forget({a_table, b_table})


@transaction.atomic
def round_move(*, round_: Round, player: Player, table_number: int) -> None:
    """Put a player (a late arrival, or one moved from another table) at a table."""
    round_ = _editable_round(round_)
    tournament = round_.tournament
    if not player.plays_in(round_.number):
        raise _refuse(
            "not_playing",
            _("%(name)s does not play in round %(round)s.")
            % {"name": player.name, "round": round_.number},
        )
    try:
        table = round_.tables.get(number=table_number)
    except Table.DoesNotExist:
        raise _refuse(
            "unknown_table",
            _("Round %(round)s has no table %(table)s.")
            % {"round": round_.number, "table": table_number},
        ) from None
    current = Seat.objects.filter(round=round_, player=player).select_related("table").first()
    sizes = dict(round_.tables.annotate(n=Count("seats")).values_list("pk", "n"))
    if current is not None and current.table_id == table.pk:
        return
    sizes[table.pk] += 1
    if current is not None:
        sizes[current.table_id] -= 1
    allowed = set(tournament.table_sizes)
    wrong = [n for n in sizes.values() if n and n not in allowed]
    if wrong:
        raise _refuse(
            "table_size",
            _(
                "That would make a table of %(size)s; this tournament plays at tables of "
                "%(sizes)s. Swap players instead, or seat the round again."
            )
            % {"size": wrong[0], "sizes": " / ".join(map(str, sorted(allowed)))},
            round=round_.number,
            table=table_number,
        )
    _refuse_apart_pairs(round_, {player.pk: (player, table.pk)})
    if current is not None:
        current.delete()
        _close_gaps(current.table)
    position = table.seats.count()
    Seat.objects.create(round=round_, table=table, player=player, position=position)
    _first_dealers_forget({table.pk} | ({current.table_id} if current is not None else set()))


def _close_gaps(table: Table) -> None:
    for position, seat in enumerate(table.seats.order_by("position")):
        if seat.position != position:
            seat.position = position
            seat.save(update_fields=["position"])


@transaction.atomic
def round_publish(*, round_: Round, by_user: User | None = None) -> Round:
    """Publish a draft seating: players can now look up their table, and every table has its
    private link at once (made in one query; printing the sheets reuses them)."""
    round_ = Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)
    refuse_when_finished(round_.tournament)
    if not round_.published:
        round_.published = True
        round_.save(update_fields=["published"])
    table_links_ensure(table_ids=list(round_.tables.values_list("pk", flat=True)), by_user=by_user)
    return round_


@transaction.atomic
def round_unseat(*, round_: Round) -> None:
    """Throw away a round's seating (before play starts), to seat it again."""
    round_ = _editable_round(round_)
    last = round_.tournament.rounds.order_by("-number").first()
    if last is None or last.pk != round_.pk:
        raise _refuse(
            "not_last_round",
            _("Only the last round can be seated again."),
            round=round_.number,
        )
    round_.delete()


def _first_dealers_forget(table_ids: Iterable[int]) -> None:
    """A table whose players changed draws again: its first dealer is forgotten."""
    Table.objects.filter(pk__in=list(table_ids)).update(first_dealer_seat=None)
