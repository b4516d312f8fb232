"""The club switch in the header of an account with roles in several clubs (the club's own
page is ``team/club_views.py``: it hands out the team's invitations)."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournament.clubs.current import club_choose
from tournament.clubs.forms import ClubSwitchForm
from tournament.clubs.roles import clubs_of


@require_POST
def club_switch(request: HttpRequest) -> HttpResponse:
    """Work in another of the account's clubs (the header's club switch)."""
    if not request.user.is_authenticated:
        raise PermissionDenied(_("Sign in first: the club switch is for the people of a club."))
    form = ClubSwitchForm(request.POST)
    club = None
    if form.is_valid():
        club = clubs_of(request.user).filter(slug=form.cleaned_data["club"]).first()
    if club is None:
        raise PermissionDenied(_("Your account has no role in that club."))
    club_choose(request, club)
    messages.success(request, _("You work in %(club)s now.") % {"club": club})
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        target = reverse("tournament_list")
    return redirect(target)
