"""Creating, importing, showing and exporting tournaments."""

from __future__ import annotations

import json

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from tournament import selectors
from tournament.forms import TournamentFileForm, TournamentForm
from tournament.models import Tournament
from tournament.permissions import director_required, team_required
from tournament.problems import ProblemsError
from tournament.services import tournaments as services
from tournament.services.portable import tournament_restore
from tournament.services.portable_check import tournament_file_parse
from tournament.services.portable_export import tournament_export


@login_required
def tournament_create(request: HttpRequest) -> HttpResponse:
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        tournament = services.tournament_create(director=request.user, **form.tournament_fields())
        messages.success(request, _("Tournament created. Now register the players."))
        return redirect("player_list", slug=tournament.slug)
    return render(request, "tournament/tournament_create.html", {"form": form})


@login_required
def tournament_upload(request: HttpRequest) -> HttpResponse:
    form = TournamentFileForm(request.POST or None, request.FILES or None)
    problems: list[str] = []
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        if upload.size > settings.IMPORT_MAX_BYTES:
            form.add_error(
                "file",
                _("The file is %(size)s MB; at most %(max)s MB can be imported.")
                % {
                    "size": round(upload.size / 1_000_000, 1),
                    "max": settings.IMPORT_MAX_BYTES // 1_000_000,
                },
            )
        else:
            try:
                document = tournament_file_parse(upload.read())
                outcome = tournament_restore(document=document, director=request.user)
            except ProblemsError as exc:
                problems = exc.lines()
            else:
                tournament = outcome.tournament
                messages.success(request, _("Tournament “%s” imported.") % tournament.name)
                for note in outcome.notes:
                    messages.warning(request, note)
                return redirect("tournament_detail", slug=tournament.slug)
    return render(
        request, "tournament/tournament_upload.html", {"form": form, "problems": problems}
    )


@team_required
def tournament_detail(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    context = selectors.tournament_overview(tournament)
    return render(
        request,
        "tournament/tournament_detail.html",
        {"tournament": tournament, "tab": "overview", **context},
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
    )


@director_required
def tournament_download(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """The whole tournament as a v1 file with the site's records (history, confirmations,
    table links, team): the backup a director can take home."""
    document = tournament_export(tournament=tournament)
    response = HttpResponse(
        json.dumps(document, ensure_ascii=False, indent=2), content_type="application/json"
    )
    response["Content-Disposition"] = f'attachment; filename="{tournament.slug}.json"'
    return response
