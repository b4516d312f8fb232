"""Who may do what in a tournament.

- Co-directors (``Tournament.directors``) and superusers direct it: everything.
- Scorers (``Tournament.scorers``) keep score: they enter and confirm sheets, look at a table's
  link and follow the rounds, but do not seat, change players, import, export the whole
  tournament, delete, change settings or manage the team.
- The public sees the public pages, when the director has switched them on.

The view decorators give the view the ``tournament`` of the URL's ``slug`` and set
``request.can_direct`` so that templates show a scorer only the buttons they may press. They
also mark the view (``director_only`` / ``team_only``) for the URL access test.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, Protocol, TypeGuard, cast

from django.contrib.auth.models import AnonymousUser, User
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404

from tournament.models import Tournament

# What ``request.user`` is: the signed-in account or the anonymous visitor.
AnyUser = User | AnonymousUser


class TournamentRequest(HttpRequest):
    """The request a decorated view gets: the decorator has set ``can_direct``."""

    can_direct: bool


class MarkedView(Protocol):
    """A decorated view, marked for the URL access test."""

    director_only: bool
    team_only: bool

    def __call__(self, request: HttpRequest, /, *args: Any, **kwargs: Any) -> HttpResponse: ...


def _active(user: AnyUser) -> TypeGuard[User]:
    """A signed-in, active account (never the anonymous visitor)."""
    return user.is_authenticated and user.is_active


def is_director(user: AnyUser, tournament: Tournament) -> bool:
    """Superusers direct every tournament; other accounts the ones they are listed on."""
    if not _active(user):
        return False
    if user.is_superuser:
        return True
    return tournament.directors.filter(pk=user.pk).exists()


def is_scorer(user: AnyUser, tournament: Tournament) -> bool:
    """Listed as a scorer of the tournament (a director who is also listed is a director)."""
    return _active(user) and tournament.scorers.filter(pk=user.pk).exists()


def is_on_team(user: AnyUser, tournament: Tournament) -> bool:
    """A director (co-director or superuser) or a scorer of the tournament."""
    return is_director(user, tournament) or is_scorer(user, tournament)


def _tournament_view(
    view: Callable[..., HttpResponse],
    *,
    allowed: Callable[[AnyUser, Tournament], bool],
    director_only: bool,
) -> MarkedView:
    @wraps(view)
    def wrapper(request: TournamentRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        tournament = get_object_or_404(Tournament, slug=slug)
        if not allowed(request.user, tournament):
            raise PermissionDenied
        request.can_direct = is_director(request.user, tournament)
        return view(request, tournament, *args, **kwargs)

    # A plain function carries the marks; the Protocol tells the type checker they are there.
    marked = cast(MarkedView, wrapper)
    marked.director_only = director_only  # read by the URL access test
    marked.team_only = not director_only
    return marked


def director_required(view: Callable[..., HttpResponse]) -> MarkedView:
    """For co-directors and superusers only.

    Anonymous visitors are sent to sign in; signed-in users who do not direct this tournament
    (scorers included) get 403.
    """
    return _tournament_view(view, allowed=is_director, director_only=True)


def team_required(view: Callable[..., HttpResponse]) -> MarkedView:
    """For the whole team: directors and scorers. Anonymous visitors are sent to sign in;
    other accounts get 403."""
    return _tournament_view(view, allowed=is_on_team, director_only=False)


class PublicPageMissing(Http404):
    """A public page that is not there: no such tournament, its public pages are off, or no
    such player. One answer for all three, so nothing leaks; its page tells a player in the
    room what to do (``handler404``)."""


def public_tournament(slug: str) -> Tournament:
    """A tournament whose public pages are switched on (:class:`PublicPageMissing` otherwise)."""
    tournament = Tournament.objects.filter(slug=slug, public=True).first()
    if tournament is None:
        raise PublicPageMissing
    return tournament
