"""From a printable template to what the director gets: a PDF, or the same page in the browser.

Every printout is one HTML template with print CSS (``static/print.css``). WeasyPrint renders it
in the tournament's language, reading the stylesheet straight from the static files and the QR
codes from data URIs; it fetches nothing else, so a printout never reaches the network.
"""

from __future__ import annotations

import mimetypes
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils import translation
from weasyprint import HTML, URLFetcher
from weasyprint.urls import URLFetcherResponse

from tournament.models import Tournament

if TYPE_CHECKING:
    from tournament.printing.printouts import Printout

PDF_TYPE = "application/pdf"


def _static_file(path: str) -> Path | None:
    """The file behind a static URL path (collected or from the finders), if there is one."""
    name = path.removeprefix(settings.STATIC_URL if settings.STATIC_URL.startswith("/") else "/")
    if name == path or ".." in name.split("/"):
        return None
    found = finders.find(name)
    if found:
        return Path(found)
    if staticfiles_storage.exists(name):
        return Path(staticfiles_storage.path(name))
    return None


class StaticFetcher(URLFetcher):  # type: ignore[misc]  # WeasyPrint has no types
    """Hands WeasyPrint the site's static files from disk and data URIs; refuses the rest."""

    def fetch(self, url: str, headers: dict[str, str] | None = None) -> URLFetcherResponse:
        if url.startswith("data:"):
            return super().fetch(url, headers)
        path = _static_file(urlsplit(url).path)
        if path is None:
            raise ValueError(f"Printouts only load the site's static files, not {url}")
        content_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        return URLFetcherResponse(url, path.read_bytes(), {"Content-Type": content_type})


def html_to_pdf(html: str, *, base_url: str) -> bytes:
    """A tagged PDF (headings, tables and reading order marked, for screen readers and reflow)
    in the fonts that come with the site (``print.css``)."""
    document = HTML(string=html, base_url=base_url, url_fetcher=StaticFetcher())
    pdf: bytes = document.write_pdf(pdf_tags=True)
    return pdf


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
