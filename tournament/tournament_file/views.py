"""Importing a tournament file as a new tournament, and downloading a tournament's file."""

from __future__ import annotations

import json

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from tournament.errors import Refused, form_page_status
from tournament.models import Club, Tournament
from tournament.permissions import DIRECTOR, SignedInRequest, club_required, director_required
from tournament.tournament_file.exporting import tournament_export
from tournament.tournament_file.forms import TournamentFileForm
from tournament.tournament_file.importing import tournament_restore
from tournament.tournament_file.reading import tournament_file_parse
from tournament.venue.costly import CostlyRefusal, costly


@club_required(DIRECTOR)
def tournament_upload(request: SignedInRequest, club: Club) -> HttpResponse:
    """A tournament file (or a backup) imported as a new tournament of the current club."""
    form = TournamentFileForm(request.POST or None, request.FILES or None)
    problems: list[str] = []
    refusal = ""  # the refusal's code when the site refused to read the file at all
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
                data = upload.read()
                outcome = costly(
                    request.user,
                    lambda: tournament_restore(
                        document=tournament_file_parse(data), club=club, director=request.user
                    ),
                    club=club,
                )
            except Refused as exc:
                problems = exc.lines()
                refusal = str(exc.code) if exc.code in set(CostlyRefusal) else ""
            else:
                tournament = outcome.tournament
                messages.success(request, _("Tournament “%s” imported.") % tournament.name)
                for note in outcome.notes:
                    messages.warning(request, note)
                return redirect("tournament_detail", slug=tournament.slug)
    return render(
        request,
        "tournament/tournament_upload.html",
        {"form": form, "problems": problems, "refusal": refusal, "club": club},
        status=form_page_status(request),
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
