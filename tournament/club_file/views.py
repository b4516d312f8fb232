"""The club's backup on the club's page (its admins only): downloading it, and restoring one
into a new, empty club."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from tournament.club_file.forms import ClubBackupForm
from tournament.club_file.restoring import club_is_empty, club_restore_file
from tournament.club_file.writing import club_backup_filename, club_backup_zip
from tournament.errors import Refused, form_page_status, show_refused
from tournament.models import Club
from tournament.permissions import ADMIN, SignedInRequest, club_required
from tournament.venue.costly import costly


@club_required(ADMIN)
def club_backup_download(request: HttpRequest, club: Club) -> HttpResponse:
    """Everything the club has, as one zip (``docs/club-file.md``)."""
    try:
        data = costly(request.user, lambda: club_backup_zip(club), club=club, counted=False)
    except Refused as refused:
        show_refused(request, refused)
        return redirect("club_page")
    response = HttpResponse(data, content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="{club_backup_filename(club)}"'
    return response


@club_required(ADMIN)
def club_backup_restore(request: SignedInRequest, club: Club) -> HttpResponse:
    """A club backup restored into this club, when it is new and empty."""
    empty = club_is_empty(club)
    form = ClubBackupForm(request.POST or None, request.FILES or None)
    problems: list[str] = []
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        if upload.size > settings.REQUEST_MAX_BYTES:
            form.add_error(
                "file",
                _("The file is %(size)s MB; at most %(max)s MB can be sent to the site.")
                % {
                    "size": round(upload.size / 1_000_000, 1),
                    "max": settings.REQUEST_MAX_BYTES // 1_000_000,
                },
            )
        else:
            try:
                restored = costly(
                    request.user,
                    lambda: club_restore_file(data=upload.read(), club=club, by_user=request.user),
                    club=club,
                )
            except Refused as refused:
                problems = refused.lines()
            else:
                messages.success(
                    request,
                    _(
                        "The backup is restored (tournaments: %(tournaments)s, competitions: "
                        "%(competitions)s)."
                    )
                    % {
                        "tournaments": len(restored.tournaments),
                        "competitions": len(restored.competitions),
                    },
                )
                for note in restored.notes:
                    messages.warning(request, note)
                return redirect("club_page")
    return render(
        request,
        "clubs/club_restore.html",
        {"form": form, "problems": problems, "club": club, "empty": empty},
        status=form_page_status(request),
    )
