"""Who may do what in a club's season (the roles are ``tournament.clubs.roles``'s):

- a competition's pages, its evenings and the check-in: the club's directors and admins;
  taking an evening out (removing, deleting) and putting it back: those who direct the
  evening's tournament (``may_change_evening``);
- a competition's settings, its file (with every evening's site records) and a new competition
  from a file: the club's admins;
- the register: its club's directors and admins look and add; renaming and merging a member is
  ``may_edit_member``'s (admins; directors for the members of their own evenings).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, cast

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from tournament.clubs.roles import (
    AnyUser,
    directs_in_club,
    is_club_admin,
    may_edit_member,
    member_refusal,
)
from tournament.models import Competition, EveningRemoval, Member, Tournament
from tournament.permissions import ADMIN, DIRECTOR, MarkedView, is_director


def _marked(wrapper: Callable[..., HttpResponse], role: str) -> MarkedView:
    marked = cast(MarkedView, wrapper)
    marked.director_only = False
    marked.team_only = False
    marked.club_only = role  # read by the URL access test
    return marked


def competition_required(
    role: str = DIRECTOR,
) -> Callable[[Callable[..., HttpResponse]], MarkedView]:
    """Gives the view the competition of the URL's ``slug``: for the directors and admins of its
    club (``DIRECTOR``) or its admins only (``ADMIN``); sign-in first, 403 for others."""
    allowed = is_club_admin if role == ADMIN else directs_in_club

    def decorate(view: Callable[..., HttpResponse]) -> MarkedView:
        @wraps(view)
        def wrapper(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            competition = get_object_or_404(Competition.objects.select_related("club"), slug=slug)
            if not allowed(request.user, competition.club):
                raise PermissionDenied(
                    _("This page is for the club admins of the competition's club.")
                    if role == ADMIN
                    else _(
                        "This page is for the directors and club admins of the competition's club."
                    )
                )
            return view(request, competition, *args, **kwargs)

        return _marked(wrapper, role)

    return decorate


def member_required(view: Callable[..., HttpResponse]) -> MarkedView:
    """Gives the view the member of the URL's ``pk``, for the directors and admins of the
    member's club (whether they may change it is ``may_edit_member``'s); 403 for others."""

    @wraps(view)
    def wrapper(request: HttpRequest, pk: int, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        member = get_object_or_404(Member.objects.select_related("register"), pk=pk)
        if not directs_in_club(request.user, member.register):
            raise PermissionDenied(member_refusal(request.user, member))
        return view(request, member, *args, **kwargs)

    return _marked(wrapper, DIRECTOR)


def member_editable(user: AnyUser, member: Member) -> None:
    """Refuse (403) a change of ``member`` that ``user`` may not make."""
    if not may_edit_member(user, member):
        raise PermissionDenied(member_refusal(user, member))


def public_competition(slug: str) -> Competition:
    competition = get_object_or_404(Competition, slug=slug)
    if not competition.public:
        raise Http404
    return competition


def may_change_evening(user: AnyUser, tournament: Tournament) -> bool:
    """Remove an evening from a competition, delete it or put it back: its tournament's
    directors (its co-directors, the club's admins); another director of the club no."""
    return is_director(user, tournament)


def may_put_back(user: AnyUser, removal: EveningRemoval) -> bool:
    """Put an evening taken out back: as ``may_change_evening`` while its tournament exists;
    a deleted one, the club's admins and whoever deleted it."""
    if removal.tournament is not None:
        return may_change_evening(user, removal.tournament)
    if is_club_admin(user, removal.competition.club):
        return True
    return user.is_authenticated and removal.by_id == user.pk


def evenings_changeable(user: AnyUser, competition: Competition) -> set[int]:
    """The tournaments of the competition's evenings that ``user`` may take out:
    ``may_change_evening`` for every evening at once (one query)."""
    tournaments = Tournament.objects.filter(competition_evenings__competition=competition)
    if not user.is_authenticated:
        return set()
    if not (user.is_superuser or is_club_admin(user, competition.club)):
        tournaments = tournaments.filter(directors=user)
    return set(tournaments.values_list("pk", flat=True))
