"""The tournaments: the list on the front page, creating one, its page and its settings."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from tournament.clubs.current import current_club
from tournament.clubs.forms import ClubNameForm
from tournament.clubs.roles import directs_in_club, is_club_admin
from tournament.clubs.services import club_update
from tournament.errors import FORM_REFUSED_STATUS, Refused, form_page_status, show_refused
from tournament.models import Club, Round, Tournament
from tournament.permissions import (
    ADMIN,
    DIRECTOR,
    PublicPageMissing,
    SignedInRequest,
    club_required,
    director_required,
    team_required,
    when_finished,
)
from tournament.rounds.overview import tournament_overview
from tournament.team.confirmation_rule import confirmation_rule_explained
from tournament.tournaments import finish, services
from tournament.tournaments.forms import PrizesForm, TournamentForm
from tournament.tournaments.selectors import (
    clubs_public,
    competitions_public,
    tournament_competitions,
    tournaments_directed,
    tournaments_public,
)


@club_required(DIRECTOR)
def tournament_create(request: SignedInRequest, club: Club) -> HttpResponse:
    """A new tournament in the current club."""
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        tournament = services.tournament_create(
            club=club, director=request.user, **form.tournament_fields()
        )
        messages.success(request, _("Tournament created. Now register the players."))
        return redirect("player_list", slug=tournament.slug)
    return render(
        request,
        "tournament/tournament_create.html",
        {"form": form, "club": club},
        status=form_page_status(request),
    )


@team_required
def tournament_detail(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    context = tournament_overview(tournament)
    open_summary = ""
    if context["planned_done"] and not tournament.finished:
        open_summary = finish.open_items_summary(finish.tournament_open_items(tournament))
    return render(
        request,
        "tournament/tournament_detail.html",
        {
            "tournament": tournament,
            "tab": "overview",
            "competitions": tournament_competitions(request.user, tournament),
            "open_summary": open_summary,
            # Which rule confirms sheets, and why: it changes when someone joins the team.
            "confirmation_rule": confirmation_rule_explained(tournament),
            **context,
        },
    )


@director_required
@when_finished
@require_http_methods(["GET", "POST"])
def tournament_finish_page(request: SignedInRequest, tournament: Tournament) -> HttpResponse:
    """The tournament's end: what is still open, the final standings' preview, the button that
    finishes it; once finished, when and by whom, and reopening. The prizes are set here too,
    before and after the end (a post with ``prizes``)."""
    prizes = PrizesForm(request.POST if "prizes" in request.POST else None, tournament=tournament)
    if prizes.is_bound:
        if prizes.is_valid():
            services.tournament_prizes_set(
                tournament=tournament,
                places=prizes.cleaned_data["prize_places"],
                last_place=prizes.cleaned_data["prize_last_place"],
            )
            messages.success(request, _("Prizes saved."))
            return redirect(reverse("tournament_finish", args=[tournament.slug]) + "#prizes")
    elif request.method == "POST":
        if tournament.finished:
            return redirect("tournament_finish", slug=tournament.slug)
        try:
            finish.tournament_finish(tournament=tournament, by_user=request.user)
        except Refused as refused:
            messages.error(
                request,
                ngettext(
                    "Not finished: %(count)s thing is still open (listed below).",
                    "Not finished: %(count)s things are still open (listed below).",
                    refused.total,
                )
                % {"count": refused.total},
            )
        else:
            messages.success(
                request,
                _("The tournament is finished: these are the final standings."),
            )
            return redirect("standings", slug=tournament.slug)
    items = [] if tournament.finished else finish.tournament_open_items(tournament)
    return render(
        request,
        "tournament/tournament_finish.html",
        {
            "tournament": tournament,
            "tab": "overview",
            "open_items": items,
            "open_summary": finish.open_items_summary(items),
            "finishes": finish.tournament_finishes(tournament),
            "rounds_complete": Round.objects.with_state()
            .filter(tournament=tournament, progress=Round.State.COMPLETE)
            .count(),
            "prizes": prizes,
        },
        status=form_page_status(request),
    )


@director_required
@when_finished
@require_POST
def tournament_reopen_view(request: SignedInRequest, tournament: Tournament) -> HttpResponse:
    finish.tournament_reopen(tournament=tournament, by_user=request.user)
    messages.success(
        request,
        _(
            "The tournament is open again: sheets, seating and players can change, and the "
            "standings are provisional until you finish it again."
        ),
    )
    return redirect("tournament_finish", slug=tournament.slug)


@director_required
@when_finished
def tournament_edit(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = TournamentForm(request.POST or None, instance=tournament)
    if request.method == "POST" and form.is_valid():
        fields = form.tournament_fields()
        tournament.refresh_from_db()  # the form wrote its values onto the instance
        try:
            services.tournament_update(tournament=tournament, **fields)
        except Refused as refused:  # finished meanwhile: its ranking no longer changes
            show_refused(request, refused)
            return redirect("tournament_edit", slug=tournament.slug)
        messages.success(request, _("Settings saved."))
        return redirect("tournament_detail", slug=tournament.slug)
    return render(
        request,
        "tournament/tournament_edit.html",
        {"form": form, "tournament": tournament, "tab": "overview"},
        status=form_page_status(request),
    )


def tournament_list(request: HttpRequest) -> HttpResponse:
    """The front page. Signed in: the tournaments the account may open, and the current club's
    buttons. For everyone: the public pages, of the one club of a laptop; a site of many clubs
    lists the clubs that have public pages instead."""
    return front_page(request)


def front_page(
    request: HttpRequest, *, name_form: ClubNameForm | None = None, status: int = 200
) -> HttpResponse:
    """The front page; ``name_form``: the club's name as typed, with what is wrong with it."""
    clubs = list(Club.objects.order_by("pk")[:2])
    single = clubs[0] if len(clubs) == 1 else None
    club = current_club(request)
    directed = tournaments_directed(request.user)
    context: dict[str, object] = {
        "club": club,
        "single_club": single,
        "may_direct": club is not None and directs_in_club(request.user, club),
        "club_admin": club is not None and is_club_admin(request.user, club),
        "directed": directed,
        "clubs_shown": len({t.club_id for t in directed}) > 1,
    }
    if single is not None:
        context["public"] = tournaments_public(single)
        context["public_competitions"] = competitions_public(single)
    else:
        context["public_clubs"] = clubs_public()
    if context["club_admin"] and club is not None and not club.name:
        context["name_form"] = name_form or ClubNameForm()
    return render(request, "tournament/tournament_list.html", context, status=status)


def club_public(request: HttpRequest, slug: str) -> HttpResponse:
    """A club's public page on a site of many clubs: its public tournaments and season pages,
    nothing else (404 when it has none)."""
    club = get_object_or_404(Club, slug=slug)
    public = tournaments_public(club)
    competitions = competitions_public(club)
    if not public and not competitions:
        raise PublicPageMissing
    return render(
        request,
        "tournament/club_public.html",
        {"club": club, "public": public, "public_competitions": competitions},
    )


@club_required(ADMIN)
@require_POST
def club_name(request: HttpRequest, club: Club) -> HttpResponse:
    """Name the club: the front page asks a new club's admin (its page has the rest)."""
    form = ClubNameForm(request.POST)
    if form.is_valid():
        try:
            club_update(
                club=club,
                name=form.cleaned_data["name"],
                directors_edit_register=club.directors_edit_register,
            )
        except Refused as refused:
            form.add_error("name", refused.message)
        else:
            messages.success(request, _("The club is called %(name)s.") % {"name": club.name})
            return redirect("tournament_list")
    # The front page again, with the name as typed and what is wrong with it at the field.
    return front_page(request, name_form=form, status=FORM_REFUSED_STATUS)
