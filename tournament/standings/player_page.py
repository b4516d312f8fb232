"""A player's own public page: their tables, opponents and points per published round."""

from __future__ import annotations

from dataclasses import dataclass

from tournament.adapter import load_table_sheets
from tournament.models import Player, Seat, Tournament
from tournament.standings.selectors import StandingsState, tournament_standings


@dataclass(frozen=True, slots=True)
class PlayerRound:
    """One published round of a player: where they sat, against whom, and what it gave.

    The scores are ``None`` while the sheet has no entries, or while it does not count yet
    (``waiting``: the tournament counts confirmed sheets only and nobody confirmed it)."""

    number: int
    table: int
    seat: int  # counted from 1, in the order of the sheet (seat 1 deals the first deal)
    opponents: tuple[str, ...]
    # (player id, name) of each opponent: the public page names them as the club shows names.
    opponent_names: tuple[tuple[int, str], ...]
    complete: bool
    deals_played: int
    provisional: bool
    waiting: bool
    tournament_points: int | None = None
    bollen: int | None = None
    correct: int | None = None
    points: int | None = None


@dataclass(frozen=True, slots=True)
class PlayerPage:
    player: Player
    rounds: list[PlayerRound]
    rank: int | None  # None: nothing counts yet
    players_ranked: int
    tournament_points: int
    bollen: int
    correct: int
    provisional: bool
    state: StandingsState | None = None  # how final the place is


def public_player_page(tournament: Tournament, player_id: int) -> PlayerPage | None:
    """A player's page as the public standings would show it, computed afresh (``None``: no
    such player in this tournament). Draft rounds stay hidden. A fixed number of queries,
    however many rounds were played."""
    standings = tournament_standings(tournament)
    player = standings.players.get(player_id)
    if player is None:
        return None
    row = next((r for r in standings.rows if r.player == player_id), None)
    table_ids = list(
        Seat.objects.filter(player_id=player_id)
        .filter(round__published=True)
        .values_list("table_id", flat=True)
    )
    names = {pk: p.name for pk, p in standings.players.items()}
    counted = row.per_round if row is not None else {}
    rounds = []
    for sheet in load_table_sheets(tournament=tournament, table_ids=table_ids):
        index = sheet.player_ids.index(player_id)
        scores = {}
        result = sheet.result() if sheet.has_entries else None
        if result is not None and sheet.round_number in counted:
            totals = result.totals[index]
            scores = {
                "tournament_points": totals.tournament_points,
                "bollen": totals.bollen,
                "correct": totals.correct,
                "points": totals.points,
            }
        rounds.append(
            PlayerRound(
                number=sheet.round_number,
                table=sheet.table_number,
                seat=index + 1,
                opponents=tuple(names[pk] for pk in sheet.player_ids if pk != player_id),
                opponent_names=tuple((pk, names[pk]) for pk in sheet.player_ids if pk != player_id),
                complete=result is not None and result.complete,
                deals_played=result.totals[index].deals_played if result is not None else 0,
                provisional=standings.is_provisional(player_id, sheet.round_number),
                waiting=result is not None and sheet.round_number not in counted,
                **scores,
            )
        )
    scored = row is not None and row.rounds_played > 0
    return PlayerPage(
        player=player,
        rounds=rounds,
        rank=row.rank if scored and row is not None else None,
        players_ranked=len(standings.rows),
        tournament_points=row.tournament_points if row is not None else 0,
        bollen=row.bollen if row is not None else 0,
        correct=row.correct if row is not None else 0,
        provisional=standings.is_provisional(player_id),
        state=standings.state,
    )
