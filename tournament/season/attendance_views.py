"""A competition's attendance: the overview page, its download and the sign-in list for the
next evening (for the club's directors and admins, as the competition's other pages)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.text import slugify
from django.utils.translation import pgettext

from tournament.models import Competition
from tournament.permissions import DIRECTOR
from tournament.printing.render import PDF_TYPE, html_to_pdf
from tournament.season.attendance import AttendanceExporter, attendance_of, sign_in_list
from tournament.season.permissions import competition_required


@competition_required(DIRECTOR)
def competition_attendance(request: HttpRequest, competition: Competition) -> HttpResponse:
    return render(
        request,
        "season/attendance.html",
        {"competition": competition, "attendance": attendance_of(competition)},
    )


@competition_required(DIRECTOR)
def competition_attendance_download(
    request: HttpRequest, competition: Competition, fmt: str
) -> HttpResponse:
    if fmt not in AttendanceExporter.formats:
        raise Http404
    return AttendanceExporter(attendance_of(competition), format=fmt).render().response()


@competition_required(DIRECTOR)
def competition_sign_in(request: HttpRequest, competition: Competition) -> HttpResponse:
    """The sign-in list of the next evening: a PDF, or its page with ``?format=html``."""
    html = render_to_string(
        "season/sign_in_print.html",
        {"competition": competition, "sign_in": sign_in_list(competition)},
        request=request,
    )
    if request.GET.get("format") == "html":
        return HttpResponse(html)
    pdf = html_to_pdf(html, base_url=request.build_absolute_uri("/"))
    response = HttpResponse(pdf, content_type=PDF_TYPE)
    name = slugify(pgettext("file name", "sign-in list"))
    response["Content-Disposition"] = f'inline; filename="{competition.slug}-{name}.pdf"'
    return response
