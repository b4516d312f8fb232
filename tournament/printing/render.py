"""From a printable template to what the director gets: a PDF, or the same page in the browser.

Every printout is one HTML template with print CSS (``static/print.css``). WeasyPrint renders it
in the tournament's language, reading the stylesheet straight from the static files and the QR
codes from data URIs; it fetches nothing else, so a printout never reaches the network.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils import translation

from tournament.models import Tournament

if TYPE_CHECKING:
    from tournament.printing.printouts import Printout

PDF_TYPE = "application/pdf"


def html_to_pdf(html: str, *, base_url: str) -> bytes:
    """A tagged PDF (headings, tables and reading order marked, for screen readers and reflow)
    in the fonts that come with the site (``print.css``)."""
    # WeasyPrint, and the Pango it loads, on the first printout rather than when the site
    # starts: half a second off every manage.py command and every server's start.
    from tournament.printing.pdf import pdf_of

    return pdf_of(html, base_url=base_url)


def printout_html(
    printout: Printout,
    *,
    tournament: Tournament,
    request: HttpRequest | None = None,
    as_html: bool = False,
) -> str:
    """The printout's page in the tournament's language, whatever the director's own."""
    context = {"tournament": tournament, "as_html": as_html, **printout.context}
    with translation.override(tournament.language):
        return render_to_string(printout.template, context, request=request)


def printout_pdf(printout: Printout, *, tournament: Tournament, base_url: str) -> bytes:
    """The printout as a PDF (``base_url`` only places the stylesheet: see ``StaticFetcher``)."""
    return html_to_pdf(printout_html(printout, tournament=tournament), base_url=base_url)


def printable_response(
    request: HttpRequest, *, tournament: Tournament, printout: Printout
) -> HttpResponse:
    """The printout as a PDF, or as the HTML page it is made from with ``?format=html``."""
    as_html = request.GET.get("format") == "html"
    html = printout_html(printout, tournament=tournament, request=request, as_html=as_html)
    if as_html:
        return HttpResponse(html)
    pdf = html_to_pdf(html, base_url=request.build_absolute_uri("/"))
    response = HttpResponse(pdf, content_type=PDF_TYPE)
    response["Content-Disposition"] = f'inline; filename="{printout.filename}"'
    return response
