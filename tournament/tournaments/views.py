"""The tournaments: the list on the front page, creating one, its page and its settings."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from tournament.errors import form_page_status
from tournament.models import Tournament
from tournament.permissions import director_required, team_required
from tournament.season.selectors import tournament_competitions
from tournament.tournaments import services
from tournament.tournaments.forms import TournamentForm
from tournament.tournaments.selectors import (
    competitions_public,
    tournament_overview,
    tournaments_directed,
    tournaments_public,
)


@login_required
def tournament_create(request: HttpRequest) -> HttpResponse:
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        tournament = services.tournament_create(director=request.user, **form.tournament_fields())
        messages.success(request, _("Tournament created. Now register the players."))
        return redirect("player_list", slug=tournament.slug)
    return render(
        request,
        "tournament/tournament_create.html",
        {"form": form},
        status=form_page_status(request),
    )


@team_required
def tournament_detail(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    context = tournament_overview(tournament)
    return render(
        request,
        "tournament/tournament_detail.html",
        {
            "tournament": tournament,
            "tab": "overview",
            "competitions": tournament_competitions(request.user, tournament),
            **context,
        },
    )


@director_required
def tournament_edit(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = TournamentForm(request.POST or None, instance=tournament)
    if request.method == "POST" and form.is_valid():
        fields = form.tournament_fields()
        tournament.refresh_from_db()  # the form wrote its values onto the instance
        services.tournament_update(tournament=tournament, **fields)
        messages.success(request, _("Settings saved."))
        return redirect("tournament_detail", slug=tournament.slug)
    return render(
        request,
        "tournament/tournament_edit.html",
        {"form": form, "tournament": tournament, "tab": "overview"},
        status=form_page_status(request),
    )


def tournament_list(request: HttpRequest) -> HttpResponse:
    """Signed-in directors see their tournaments; visitors see the public ones."""
    return render(
        request,
        "tournament/tournament_list.html",
        {
            "directed": tournaments_directed(request.user),
            "public": tournaments_public(),
            "public_competitions": competitions_public(),
        },
    )
