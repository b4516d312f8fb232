"""Who may run a competition: its directors and superusers; the register: any signed-in
account of the club site."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404

from tournament.models import Competition


def runs_competition(user, competition: Competition) -> bool:
    if not (user.is_authenticated and user.is_active):
        return False
    return user.is_superuser or competition.directors.filter(pk=user.pk).exists()


def competition_required(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Gives the view the competition of the URL's ``slug``; sign-in first, 403 for others."""

    @wraps(view)
    def wrapper(request: HttpRequest, slug: str, *args, **kwargs) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        competition = get_object_or_404(Competition, slug=slug)
        if not runs_competition(request.user, competition):
            raise PermissionDenied
        return view(request, competition, *args, **kwargs)

    return wrapper


def public_competition(slug: str) -> Competition:
    competition = get_object_or_404(Competition, slug=slug)
    if not competition.public:
        raise Http404
    return competition
