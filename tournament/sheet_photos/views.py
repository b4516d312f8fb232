"""Photos of paper score sheets: the round page's upload ("Photos of score sheets") for the
team, the table link's upload for that table's sheet, and the photos themselves (the kept
photo and its straightened page), each only to who may see that table's sheet."""

from __future__ import annotations

from typing import TypedDict

from django.contrib import messages
from django.core.files.uploadedfile import UploadedFile
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from tournament.errors import Refused
from tournament.models import Round, SheetPhoto, TableLink, Tournament
from tournament.permissions import AnyUser, team_required
from tournament.sheet_photos.images import photo_max_bytes, photo_too_large
from tournament.sheet_photos.services import (
    PhotoUpload,
    photo_outcome_text,
    sheet_photo_upload,
)
from tournament.sheets.page import wants_json
from tournament.sheets.photo_rows import round_photo_rows
from tournament.sheets.table_links import table_link_by_token

Photo = UploadedFile[bytes]
"""One uploaded photo file, as ``request.FILES`` holds it."""

MAX_PER_UPLOAD = 40
"""Photos one upload reads at most: a round of 40 tables (more: send them in parts)."""


class PhotoOutcome(TypedDict):
    """What became of one uploaded photo, as the page lists it and the script gets it."""

    file: str
    ok: bool
    message: str
    table: int | None
    url: str


def _outcome(file: Photo, upload: PhotoUpload, sheet_url: str | None = None) -> PhotoOutcome:
    name = file.name or _("photo")
    try:
        if file.size is not None and file.size > photo_max_bytes():
            raise photo_too_large()
        read = sheet_photo_upload(upload=upload)
    except Refused as refused:
        text = " ".join(refused.lines())
        return {"file": name, "ok": False, "message": f"{name}: {text}", "table": None, "url": ""}
    table = read.table
    url = sheet_url or reverse(
        "sheet_edit", args=[upload.tournament.slug, table.round.number, table.number]
    )
    return {
        "file": name,
        "ok": True,
        "message": photo_outcome_text(name, read),
        "table": table.number,
        "url": url,
    }


def _files(request: HttpRequest, field: str) -> list[Photo]:
    return list(request.FILES.getlist(field))


def _upload(file: Photo, tournament: Tournament, user: AnyUser, **where: object) -> PhotoUpload:
    size = file.size or 0
    data = file.read(photo_max_bytes() + 1) if size <= photo_max_bytes() else b""
    return PhotoUpload(
        tournament=tournament,
        name=file.name or _("photo"),
        data=data,
        by_user=user,
        **where,  # type: ignore[arg-type]
    )


@team_required
@require_http_methods(["GET", "POST"])
def round_photos(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    round_ = get_object_or_404(Round, tournament=tournament, number=number)
    results: list[PhotoOutcome] = []
    status = 200
    if request.method == "POST":
        files = _files(request, "photos")
        if not files:
            results = [_nothing()]
        for file in files[:MAX_PER_UPLOAD]:
            upload = _upload(file, tournament, request.user, round_number=number)
            results.append(_outcome(file, upload))
        for file in files[MAX_PER_UPLOAD:]:
            results.append(_too_many(file))
        status = _status(results)
        if wants_json(request):
            return JsonResponse({"results": results}, status=status)
    return render(
        request,
        "sheet_photos/round_photos.html",
        {
            "tournament": tournament,
            "tab": "rounds",
            "round": round_,
            "results": results,
            "photos": round_photo_rows(round_),
            "max_per_upload": MAX_PER_UPLOAD,
        },
        status=status,
    )


def _status(results: list[PhotoOutcome]) -> int:
    """422 when no photo was read (the script reads the outcomes from either reply)."""
    return 200 if any(r["ok"] for r in results) else 422


def _nothing() -> PhotoOutcome:
    message = _("No photo was sent: choose one or more photos first.")
    return {"file": "", "ok": False, "message": message, "table": None, "url": ""}


def _too_many(file: Photo) -> PhotoOutcome:
    message = _("%(file)s: not read: one upload reads at most %(max)s photos; send it again.") % {
        "file": file.name,
        "max": MAX_PER_UPLOAD,
    }
    return {"file": file.name or "", "ok": False, "message": message, "table": None, "url": ""}


def _jpeg(data: bytes | memoryview) -> HttpResponse:
    # Asked again every time it is shown (no-cache): a person removed from the team no longer
    # gets the photo from their browser's cache.
    response = HttpResponse(bytes(data), content_type="image/jpeg")
    response["Cache-Control"] = "private, no-cache"
    response["X-Content-Type-Options"] = "nosniff"
    return response


def _photo_of(tournament: Tournament, pk: int) -> SheetPhoto:
    return get_object_or_404(SheetPhoto, pk=pk, table__round__tournament=tournament)


@team_required
def sheet_photo_page(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    """The photo straightened to the printed page, as the sheet page shows it."""
    return _jpeg(_photo_of(tournament, pk).page)


@team_required
def sheet_photo_original(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    """The photo as it was uploaded (re-encoded at a sane size): for a dispute."""
    return _jpeg(_photo_of(tournament, pk).photo)


def _link_or_404(token: str) -> TableLink:
    link = table_link_by_token(token)
    if link is None:
        raise Http404
    return link


@never_cache
@require_POST
def table_entry_photos(request: HttpRequest, token: str) -> HttpResponse:
    """A photo of the table's own sheet, sent through its link: read into that sheet."""
    link = _link_or_404(token)
    tournament = link.table.round.tournament
    back = reverse("table_entry", args=[token])
    files = _files(request, "photos")[:1]  # one table, one sheet
    result = (
        _outcome(files[0], _upload(files[0], tournament, request.user, link=link), back)
        if files
        else _nothing()
    )
    if wants_json(request):
        return JsonResponse({"results": [result]}, status=_status([result]))
    (messages.success if result["ok"] else messages.error)(request, result["message"])
    response = redirect(back)
    response["Referrer-Policy"] = "same-origin"
    return response


@never_cache
def table_entry_photo_page(request: HttpRequest, token: str, pk: int) -> HttpResponse:
    """The straightened photo of the table's own waiting sheet photo, for its link's page."""
    link = _link_or_404(token)
    photo = get_object_or_404(SheetPhoto, pk=pk, table_id=link.table_id)
    response = _jpeg(photo.page)
    response["Cache-Control"] = "private, no-store"
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response
