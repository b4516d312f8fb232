"""Who may do what in a tournament, and on the pages of a club as a whole.

- Co-directors (``Tournament.directors``), the admins of the tournament's club and superusers
  direct it: everything.
- Scorers (``Tournament.scorers``) keep score: they enter and confirm sheets, look at a table's
  link and follow the rounds, but do not seat, change players, import, export the whole
  tournament, delete, change settings or manage the team.
- The public sees the public pages, when the director has switched them on.
- A club's pages (``club_required``) work in the request's current club
  (``tournament.clubs.current``): for its directors and admins, or its admins only. The roles
  are ``tournament.clubs.roles``'s.

The tournament decorators give the view the ``tournament`` of the URL's ``slug`` and set
``request.can_direct`` so that templates show a scorer only the buttons they may press. The
decorators also mark the view (``director_only`` / ``team_only`` / ``club_only``) for the URL
access test.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, Protocol, TypeGuard, cast

from django.contrib import messages
from django.contrib.auth.models import AnonymousUser, User
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _

from tournament.clubs.current import current_club, posted_for_other_club
from tournament.clubs.roles import directs_in_club, is_club_admin
from tournament.errors import FinishedRefusal, refusal_message
from tournament.models import Club, Tournament

# What ``request.user`` is: the signed-in account or the anonymous visitor.
AnyUser = User | AnonymousUser


class SignedInRequest(HttpRequest):
    """The request a view behind one of this module's decorators gets: the decorator has sent
    anonymous visitors to sign in."""

    user: User


class TournamentRequest(HttpRequest):
    """The request a decorated view gets: the decorator has set ``can_direct``."""

    can_direct: bool
    club_admin: bool


class ClubRequest(HttpRequest):
    """The request a club page gets: the decorator has set ``club`` (the current club)."""

    club: Club


class MarkedView(Protocol):
    """A decorated view, marked for the URL access test."""

    director_only: bool
    team_only: bool
    club_only: str

    def __call__(self, request: HttpRequest, /, *args: Any, **kwargs: Any) -> HttpResponse: ...


def _active(user: AnyUser) -> TypeGuard[User]:
    """A signed-in, active account (never the anonymous visitor)."""
    return user.is_authenticated and user.is_active


def is_director(user: AnyUser, tournament: Tournament) -> bool:
    """Superusers direct every tournament, a club's admins every one of their club; other
    accounts the ones they are listed on."""
    if not _active(user):
        return False
    if user.is_superuser:
        return True
    if is_club_admin(user, tournament.club):
        return True
    return tournament.directors.filter(pk=user.pk).exists()


def is_scorer(user: AnyUser, tournament: Tournament) -> bool:
    """Listed as a scorer of the tournament (a director who is also listed is a director)."""
    return _active(user) and tournament.scorers.filter(pk=user.pk).exists()


def is_on_team(user: AnyUser, tournament: Tournament) -> bool:
    """A director (co-director or superuser) or a scorer of the tournament."""
    return is_director(user, tournament) or is_scorer(user, tournament)


def _tournament_refusal(user: AnyUser, tournament: Tournament) -> str:
    """Why a signed-in account may not open a tournament's page: a scorer's page is not a
    director's; anyone else is not on the tournament's team (another club's people included)."""
    if is_scorer(user, tournament):
        return _(
            "A scorer enters and confirms score sheets and follows the rounds and the "
            "standings; this page is for the tournament's directors."
        )
    # (Neither the tournament's name nor its club: the account may belong to another club.)
    return _(
        "This page is for the team of this tournament (its directors and scorers), and your "
        "account is not on it. To help, ask one of its directors for an invitation link."
    )


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
        tournament = get_object_or_404(Tournament.objects.select_related("club"), slug=slug)
        if not allowed(request.user, tournament):
            raise PermissionDenied(_tournament_refusal(request.user, tournament))
        request.can_direct = is_director(request.user, tournament)
        # The club's settings (the address for phones) are its admins' only.
        request.club_admin = is_club_admin(request.user, tournament.club)
        if (
            tournament.finished_at is not None
            and request.method == "POST"
            and not getattr(view, "when_finished", False)
        ):
            return _finished_refusal(request, tournament)
        return view(request, tournament, *args, **kwargs)

    # A plain function carries the marks; the Protocol tells the type checker they are there.
    marked = cast(MarkedView, wrapper)
    marked.director_only = director_only  # read by the URL access test
    marked.team_only = not director_only
    marked.club_only = ""
    return marked


def when_finished(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Mark a tournament view whose posts still work once the tournament is finished (reopening
    it, its settings and prizes, what it refuses itself): put it under the ``*_required``
    decorator. Every other post to a finished tournament is refused before the view runs."""
    view.when_finished = True  # type: ignore[attr-defined]
    return view


def _finished_refusal(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """A post to a finished tournament: nothing is stored; back to the page it came from with
    the reason (a script's post gets the reason as JSON)."""
    message = refusal_message(FinishedRefusal.FINISHED)
    if request.headers.get("X-Requested-With") == "XMLHttpRequest" or "application/json" in (
        request.headers.get("Accept", "")
    ):
        return JsonResponse({"outcome": "refused", "message": message}, status=409)
    messages.error(request, message)
    back = request.META.get("HTTP_REFERER", "")
    if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
        back = reverse("tournament_detail", args=[tournament.slug])
    return redirect(back)


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


ADMIN = "admin"
DIRECTOR = "director"


def club_required(role: str) -> Callable[[Callable[..., HttpResponse]], MarkedView]:
    """A page of the current club as a whole, for its admins (``ADMIN``) or its directors and
    admins (``DIRECTOR``). The view gets the club; anonymous visitors are sent to sign in,
    accounts without that role in a club get 403. A form sent for another club than the
    current one (switched in another tab) goes back to the page with a message."""
    allowed = is_club_admin if role == ADMIN else directs_in_club

    def decorate(view: Callable[..., HttpResponse]) -> MarkedView:
        @wraps(view)
        def wrapper(request: ClubRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            club = current_club(request)
            if club is None:
                raise PermissionDenied(
                    _(
                        "This page is for the people of a club, and your account has no role in "
                        "one. Ask the club admin for an invitation link."
                    )
                )
            if not allowed(request.user, club):
                raise PermissionDenied(
                    _("This page is for the club admins of %(club)s.") % {"club": club}
                    if role == ADMIN
                    else _("This page is for the directors and club admins of %(club)s.")
                    % {"club": club}
                )
            if request.method == "POST" and posted_for_other_club(request, club):
                messages.error(
                    request,
                    _(
                        "This form was for another club than the one you work in now "
                        "(%(club)s, chosen in another window). Nothing was saved; check the "
                        "page and send it again."
                    )
                    % {"club": club},
                )
                # Back to the page the form was on (a form's own address may take posts only).
                back = request.META.get("HTTP_REFERER", "")
                if not url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
                    back = reverse("tournament_list")
                return redirect(back)
            request.club = club
            return view(request, club, *args, **kwargs)

        marked = cast(MarkedView, wrapper)
        marked.director_only = False
        marked.team_only = False
        marked.club_only = role  # read by the URL access test
        return marked

    return decorate


class PublicPageMissing(Http404):
    """A public page that is not there: no such tournament, its public pages are off, or no
    such player. One answer for all three, so nothing leaks; its page tells a player in the
    room what to do (``handler404``)."""


def public_tournament(slug: str) -> Tournament:
    """A tournament whose public pages are switched on (:class:`PublicPageMissing` otherwise)."""
    tournament = Tournament.objects.select_related("club").filter(slug=slug, public=True).first()
    if tournament is None:
        raise PublicPageMissing
    return tournament
