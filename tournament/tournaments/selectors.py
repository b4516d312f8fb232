"""Reads of the tournaments: who directs which, the public ones, a tournament's overview."""

from __future__ import annotations

from collections import Counter
from typing import TypedDict

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Count, F, Q, QuerySet

from scoring.tables import table_split
from tournament.models import Club, ClubRole, Competition, Player, Tournament
from tournament.rounds.selectors import (
    RoundSummary,
    next_round_number,
    players_for_round,
    round_summaries,
)

# The front page's lists: newest first, a tournament without a date after the dated ones (on
# every database: PostgreSQL would put NULL first in a descending order).
NEWEST_FIRST = (F("date").desc(nulls_last=True), F("created_at").desc(), F("pk").desc())


def tournaments_directed(user: User | AnonymousUser) -> QuerySet[Tournament]:
    """The tournaments ``user`` may open: those they direct or keep score for, and every one
    of the clubs they are admin of (a superuser: every one)."""
    if not (user.is_authenticated and user.is_active):
        return Tournament.objects.none()
    tournaments = Tournament.objects.select_related("club")
    if not user.is_superuser:
        admin_of = ClubRole.objects.filter(user=user, role=ClubRole.Role.ADMIN).values("club")
        ids = Tournament.objects.filter(
            Q(directors=user) | Q(scorers=user) | Q(club__in=admin_of)
        ).values("pk")
        tournaments = tournaments.filter(pk__in=ids)
    return tournaments.annotate(player_count=Count("players", distinct=True)).order_by(
        *NEWEST_FIRST
    )


def tournaments_public(club: Club) -> QuerySet[Tournament]:
    """The club's tournaments whose public pages are on, the newest first."""
    return Tournament.objects.filter(club=club, public=True).order_by(*NEWEST_FIRST)


def competitions_public(club: Club) -> QuerySet[Competition]:
    """The club's competitions whose public season page is on, the newest first."""
    return Competition.objects.filter(club=club, public=True).order_by("-created_at", "-pk")


def clubs_public() -> QuerySet[Club]:
    """The clubs with a public tournament or season page, by name (a hosted site's front
    page)."""
    public = Q(tournaments__public=True) | Q(competitions__public=True)
    return Club.objects.filter(pk__in=Club.objects.filter(public).values("pk")).order_by(
        "name", "pk"
    )


class ClubSpread(TypedDict):
    clubs_known: bool
    crowded_clubs: list[str]


class TournamentOverview(ClubSpread):
    """What the overview and the rounds' page show of a tournament."""

    summaries: list[RoundSummary]
    player_total: int
    player_withdrawn: int
    next_round: int
    next_round_players: int
    next_round_tables: int
    next_round_mixed_sizes: bool
    incomplete_round: RoundSummary | None


def tournament_overview(tournament: Tournament) -> TournamentOverview:
    summaries = round_summaries(tournament)
    counts = tournament.players.aggregate(
        total=Count("pk"), withdrawn=Count("pk", filter=Q(withdrawn_round__isnull=False))
    )
    next_number = next_round_number(tournament)
    playing = players_for_round(tournament, next_number)
    tables = 0
    mixed_sizes = False  # tables of two sizes: only then does the balance matter
    if len(playing) >= 3:  # fewer cannot be seated; seating says so
        split = table_split(
            len(playing), sizes=tournament.table_sizes, prefer=tournament.prefer_size
        )
        tables = len(split.sizes)
        mixed_sizes = len(set(split.sizes)) > 1
    return {
        "summaries": summaries,
        "player_total": counts["total"],
        "player_withdrawn": counts["withdrawn"],
        "next_round": next_number,
        "next_round_players": len(playing),
        "next_round_tables": tables,
        "next_round_mixed_sizes": mixed_sizes,
        **_club_spread(playing, tables),
        "incomplete_round": next((s for s in summaries if s.missing), None),
    }


def _club_spread(playing: QuerySet[Player], tables: int) -> ClubSpread:
    """Whether any clubs are known among the players, and the clubs with more players than
    there are tables ("BC De Bol (9)"): those cannot all sit apart in round 1."""
    clubs = Counter(club.strip().casefold() for club in playing.values_list("club", flat=True))
    clubs.pop("", None)
    if tables < 2:  # one table: nothing to keep apart
        return {"clubs_known": False, "crowded_clubs": []}
    shown = {p.club.strip().casefold(): p.club.strip() for p in playing if p.club.strip()}
    crowded = [f"{shown[club]} ({count})" for club, count in clubs.most_common() if count > tables]
    return {"clubs_known": bool(clubs), "crowded_clubs": crowded}
