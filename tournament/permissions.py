"""Who may do what: directors change their tournaments; the public sees what is switched on."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404

from tournament.models import Tournament


def is_director(user, tournament: Tournament) -> bool:
    """Superusers direct every tournament; other accounts the ones they are listed on."""
    if not user.is_authenticated or not user.is_active:
        return False
    if user.is_superuser:
        return True
    return tournament.directors.filter(pk=user.pk).exists()


def director_required(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Give the view ``tournament`` (from the URL's ``slug``) if the user directs it.

    Anonymous visitors are sent to sign in; signed-in users who are not directors of this
    tournament get 403.
    """

    @wraps(view)
    def wrapper(request: HttpRequest, slug: str, *args, **kwargs) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        tournament = get_object_or_404(Tournament, slug=slug)
        if not is_director(request.user, tournament):
            raise PermissionDenied
        return view(request, tournament, *args, **kwargs)

    wrapper.director_only = True  # read by the URL access test
    return wrapper


def public_tournament(slug: str) -> Tournament:
    """A tournament whose public pages are switched on (404 otherwise, so nothing leaks)."""
    tournament = get_object_or_404(Tournament, slug=slug)
    if not tournament.public:
        raise Http404
    return tournament
