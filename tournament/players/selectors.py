"""Reads of the player pages: the list, one player's rounds, the pairs kept apart."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TypedDict

from django.db.models import Count, Q

from tournament.adapter import SheetStatus, load_table_sheets
from tournament.models import Player, Tournament
from tournament.names import name_sort_key


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


class PlayerHistory(TypedDict):
    history: list[PlayerRound]
    met_again: list[tuple[Player, int]]  # the players met more than once, and how often


def player_history(player: Player) -> PlayerHistory:
    """Where a player sat each round, against whom, and what they scored (fixed queries)."""
    tournament = player.tournament
    sheets = [s for s in load_table_sheets(tournament=tournament) if player.pk in s.player_ids]
    others = {pk for s in sheets for pk in s.player_ids}
    names = Player.objects.in_bulk(others)
    history: list[PlayerRound] = []
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
    met_again = sorted(repeated, key=lambda x: (-x[1], name_sort_key(x[0].name)))
    return {"history": history, "met_again": met_again}


def players_kept_apart(player: Player) -> list[Player]:
    """The players ``player`` never sits at one table with, by name."""
    pairs = player.tournament.apart_pairs.filter(Q(player_a=player) | Q(player_b=player))
    others = [b if a == player.pk else a for a, b in pairs.values_list("player_a", "player_b")]
    return sorted(Player.objects.filter(pk__in=others), key=lambda p: name_sort_key(p.name))
