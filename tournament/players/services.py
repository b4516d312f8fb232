"""Registering players, late entries and withdrawals."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.utils.translation import gettext as _

from tournament.adapter import sheet_scores_refresh
from tournament.errors import PlacedProblem, Refused, refuse_bad_lines, refuse_when_finished
from tournament.models import ApartPair, Player, Round, Seat, Tournament
from tournament.models.rounds import round_progress
from tournament.players.importing import PlayerRow, check_rows


def first_open_round(tournament: Tournament) -> int:
    """The first round a new player can still join: the last round if it has not started."""
    last = tournament.rounds.order_by("-number").first()
    if last is None:
        return 1
    if last.state in (Round.State.DRAFT, Round.State.SEATED):
        return last.number
    return last.number + 1


def _next_file_ids(tournament: Tournament, count: int) -> list[str]:
    taken = set(tournament.players.values_list("file_id", flat=True))
    ids: list[str] = []
    n = tournament.players.count()
    while len(ids) < count:
        n += 1
        candidate = f"p{n}"
        if candidate not in taken:
            ids.append(candidate)
    return ids


@transaction.atomic
def players_register(*, tournament: Tournament, rows: Sequence[PlayerRow]) -> list[Player]:
    """Register players (typed, pasted or imported): all of them, or none if any is wrong.

    Players registered after round 1 has started are late entries: they play from the first
    round that has not started yet.
    """
    # Lock the tournament row: two directors adding players at once get distinct file ids.
    locked = Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
    refuse_when_finished(locked or tournament)
    existing = tournament.players.values_list("name", flat=True)
    checked = check_rows(list(rows), existing=existing)
    refuse_bad_lines(checked, code="player_row")
    joined = first_open_round(tournament)
    ids = _next_file_ids(tournament, len(checked))
    return Player.objects.bulk_create(
        [
            Player(
                tournament=tournament,
                file_id=file_id,
                name=row.name,
                club=row.club,
                joined_round=joined,
            )
            for file_id, row in zip(ids, checked, strict=True)
        ]
    )


@transaction.atomic
def player_update(*, player: Player, name: str, club: str) -> Player:
    name, club = name.strip(), club.strip()
    others = player.tournament.players.exclude(pk=player.pk).values_list("name", flat=True)
    (row,) = check_rows([PlayerRow(line=1, name=name, club=club)], existing=others)
    if row.problems:
        raise Refused(
            [PlacedProblem(code="player_row", message="; ".join(row.problems), field="name")]
        )
    player.name, player.club = name, club
    player.save(update_fields=["name", "club"])
    return player


@transaction.atomic
def player_withdraw(*, player: Player, from_round: int) -> list[int]:
    """Withdraw a player from ``from_round`` on; earlier rounds keep counting.

    A seat in a round that has been seated but not started is given up (the round must then
    be reseated); a round already being played cannot lose its player. Returns the numbers
    of the rounds that lost a seat.
    """
    refuse_when_finished(player.tournament)
    if from_round <= player.joined_round:
        raise Refused(
            [
                PlacedProblem(
                    code="withdraw_round",
                    field="from_round",
                    message=_(
                        "%(name)s only plays from round %(round)s; withdraw them from a later "
                        "round. Registered in error and not seated yet? Delete the player instead."
                    )
                    % {"name": player.name, "round": player.joined_round},
                )
            ]
        )
    seats = Seat.objects.filter(player=player, round__number__gte=from_round).select_related(
        "round"
    )
    started = sorted(
        set(
            Round.objects.annotate(progress=round_progress())
            .filter(seats__player=player, number__gte=from_round)
            .exclude(progress__in=(Round.State.DRAFT, Round.State.SEATED))
            .values_list("number", flat=True)
        )
    )
    if started:
        raise Refused(
            [
                PlacedProblem(
                    code="withdraw_round",
                    field="from_round",
                    message=_(
                        "%(name)s is playing in round %(round)s already; withdraw from round "
                        "%(next)s."
                    )
                    % {"name": player.name, "round": max(started), "next": max(started) + 1},
                )
            ]
        )
    lost = sorted({s.round.number for s in seats})
    tables = sorted({s.table_id for s in seats})
    seats.delete()
    sheet_scores_refresh(tournament=player.tournament, table_ids=tables)
    player.withdrawn_round = from_round
    player.save(update_fields=["withdrawn_round"])
    return lost


def player_delete_problem(player: Player) -> str | None:
    """Why ``player`` cannot be deleted, or ``None``: a player who has been seated in a round
    that has started stays in its standings (withdraw them instead); one seated in a round not
    started yet waits for that seating to be removed."""
    seated = list(
        Round.objects.annotate(progress=round_progress())
        .filter(seats__player=player)
        .order_by("number")
        .values_list("number", "progress")
        .distinct()
    )
    waiting = (Round.State.DRAFT, Round.State.SEATED)
    started = [number for number, progress in seated if progress not in waiting]
    if started:
        return _(
            "%(name)s has played in round %(round)s, so stays in the standings and cannot be "
            "deleted. Withdraw them instead."
        ) % {"name": player.name, "round": started[0]}
    if seated:
        return _(
            "%(name)s is seated in round %(round)s, which has not started. Remove that round's "
            "seating first (on the round's page), then delete the player."
        ) % {"name": player.name, "round": seated[0][0]}
    return None


@transaction.atomic
def player_delete(*, player: Player) -> None:
    """Delete a player registered in error, who has not been seated in any round (their pairs
    kept apart go with them); refused once they have been seated."""
    # The tournament's row is the seating's lock too: nobody seats the player meanwhile.
    tournament = Tournament.objects.select_for_update().get(pk=player.tournament_id)
    refuse_when_finished(tournament)
    problem = player_delete_problem(player)
    if problem is not None:
        raise Refused([PlacedProblem(code="player_delete", message=problem)])
    player.delete()


@transaction.atomic
def player_reinstate(*, player: Player) -> Player:
    """Undo a withdrawal: the player is seated again from the next round that is seated."""
    player.withdrawn_round = None
    player.save(update_fields=["withdrawn_round"])
    return player


@transaction.atomic
def apart_pair_add(*, player: Player, other: Player) -> ApartPair:
    """Never seat ``player`` and ``other`` at one table (from the next seating on)."""
    if other.tournament_id != player.tournament_id or other.pk == player.pk:
        raise Refused(
            [
                PlacedProblem(
                    code="apart_pair", message=_("Choose another player of this tournament.")
                )
            ]
        )
    a, b = sorted((player.pk, other.pk))
    pair, _created = ApartPair.objects.get_or_create(
        tournament_id=player.tournament_id, player_a_id=a, player_b_id=b
    )
    return pair


@transaction.atomic
def apart_pair_remove(*, player: Player, other: Player) -> None:
    a, b = sorted((player.pk, other.pk))
    ApartPair.objects.filter(
        tournament_id=player.tournament_id, player_a_id=a, player_b_id=b
    ).delete()
