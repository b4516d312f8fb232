"""The page "Share the result" and its files, for the tournament's directors. It works before
the end too: then every part says the standings are provisional and names no winner."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import pgettext

from tournament.exports.base import download_name
from tournament.models import Tournament
from tournament.permissions import director_required
from tournament.printing.render import PDF_TYPE
from tournament.share.documents import result_pdf, result_png
from tournament.share.result import result_text, shared_result
from tournament.standings.tables import ranked_standings
from tournament.venue.qr import qr_data_uri
from tournament.venue.site_address import (
    AddressSource,
    absolute_url,
    address_warnings,
    site_address,
)


def _file_name(tournament: Tournament, extension: str) -> str:
    with translation.override(tournament.language):
        return download_name(tournament, pgettext("file name", "result"), extension)


@director_required
def result_share(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    with translation.override(tournament.language):  # what the club reads: its language
        result = shared_result(tournament)
        text = result_text(result)
    context: dict[str, object] = {
        "tournament": tournament,
        "tab": "standings",
        "result": result,
        "state": ranked_standings(tournament).state,  # cached: computed for the result
        "text": text,
        "text_name": _file_name(tournament, "txt"),
        "png_name": _file_name(tournament, "png"),
    }
    if tournament.public:
        public_url = absolute_url(
            reverse("public_standings", args=[tournament.slug]), request, club=tournament.club
        )
        address = site_address(request, club=tournament.club)
        context |= {
            "public_url": public_url,
            "public_qr": qr_data_uri(public_url),
            # This laptop's own address: phones reach it on the club's wifi while it runs.
            "laptop_address": address.source in (AddressSource.NETWORK, AddressSource.REQUEST),
            **address_warnings(request, club=tournament.club),
        }
    return render(request, "tournament/share.html", context)


@director_required
def result_text_download(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    with translation.override(tournament.language):
        text = result_text(shared_result(tournament))
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{_file_name(tournament, "txt")}"'
    return response


@director_required
def result_pdf_download(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    pdf = result_pdf(tournament, base_url=request.build_absolute_uri("/"))
    response = HttpResponse(pdf, content_type=PDF_TYPE)
    response["Content-Disposition"] = f'inline; filename="{_file_name(tournament, "pdf")}"'
    return response


@director_required
def result_png_download(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    png = result_png(tournament, base_url=request.build_absolute_uri("/"))
    response = HttpResponse(png, content_type="image/png")
    response["Content-Disposition"] = f'inline; filename="{_file_name(tournament, "png")}"'
    return response
