"""WeasyPrint at work: the printout's HTML to a PDF, with the site's static files as the only
things it may load (``printing.render`` imports this on the first printout)."""

from __future__ import annotations

import mimetypes
from pathlib import Path
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from weasyprint import HTML, URLFetcher
from weasyprint.urls import URLFetcherResponse


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


def pdf_of(html: str, *, base_url: str) -> bytes:
    """A tagged PDF (headings, tables and reading order marked, for screen readers and reflow)
    in the fonts that come with the site (``print.css``)."""
    document = HTML(string=html, base_url=base_url, url_fetcher=StaticFetcher())
    pdf: bytes = document.write_pdf(pdf_tags=True)
    return pdf
