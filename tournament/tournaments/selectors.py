"""Reads of the tournaments: who directs which, the public ones, a tournament's overview."""

from __future__ import annotations

from django.db.models import Count, Q, QuerySet

from tournament.models import Tournament
from tournament.rounds.selectors import next_round_number, players_for_round, round_summaries


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


def tournament_overview(tournament: Tournament) -> dict:
    summaries = round_summaries(tournament)
    counts = tournament.players.aggregate(
        total=Count("pk"), withdrawn=Count("pk", filter=Q(withdrawn_round__isnull=False))
    )
    next_number = next_round_number(tournament)
    return {
        "summaries": summaries,
        "player_total": counts["total"],
        "player_withdrawn": counts["withdrawn"],
        "next_round": next_number,
        "next_round_players": players_for_round(tournament, next_number).count(),
        "incomplete_round": next((s for s in summaries if s.missing), None),
    }
