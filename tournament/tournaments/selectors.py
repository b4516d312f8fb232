"""Reads of the tournaments: who directs which, the public ones, the competitions a tournament is
an evening of (a tournament's overview of its
rounds is ``rounds.overview``)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, F, Q, QuerySet
from django.urls import reverse

from tournament.clubs.roles import runs_competition
from tournament.models import Club, ClubRole, Competition, CompetitionEvening, Tournament
from tournament.permissions import AnyUser

# The front page's lists: newest first, a tournament without a date after the dated ones (on
# every database: PostgreSQL would put NULL first in a descending order).
NEWEST_FIRST = (F("date").desc(nulls_last=True), F("created_at").desc(), F("pk").desc())


def tournaments_directed(user: AnyUser) -> QuerySet[Tournament]:
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


@dataclass(frozen=True, slots=True)
class EveningOf:
    """A tournament as an evening of a competition, with the page to go back to (the
    competition's own for its directors, the public season page for others when it is on)."""

    competition: Competition
    number: int
    url: str | None


def tournament_competitions(user: AnyUser, tournament: Tournament) -> list[EveningOf]:
    """The competitions ``tournament`` is an evening of, as ``user`` may open them."""
    found = []
    for evening in CompetitionEvening.objects.filter(tournament=tournament).select_related(
        "competition"
    ):
        competition = evening.competition
        url = None
        if runs_competition(user, competition):
            url = reverse("competition_detail", args=[competition.slug])
        elif competition.public:
            url = reverse("public_season", args=[competition.slug])
        found.append(EveningOf(competition, evening.number, url))
    return found
