"""WeasyPrint at work: the printout's HTML to a PDF, with the site's static files as the only
things it may load (``printing.render`` imports this on the first printout)."""

from __future__ import annotations

import mimetypes
from pathlib import Path
from typing import Any
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


# A printout may offer a tighter layout as an alternate stylesheet (``print_compact.css``;
# browsers offer it under View > Page style, WeasyPrint skips it). The PDF takes it when its
# last page would otherwise hold a few lines only and the tighter layout needs a page fewer.
ALTERNATE = 'rel="alternate stylesheet"'
SPARSE_LAST_PAGE = 0.5  # of the page's height: less than this filled tries the tighter layout
TIGHTEN_UP_TO = 4  # pages; a longer list keeps its layout (a second layout costs seconds)


def _render(html: str, base_url: str) -> Any:
    return HTML(string=html, base_url=base_url, url_fetcher=StaticFetcher()).render(pdf_tags=True)


def _root(page: Any) -> Any:
    """The box of the page's ``<html>`` (WeasyPrint's layout: the root and the margin boxes)."""
    return next(child for child in page._page_box.children if child.element_tag == "html")


def _filled(page: Any) -> float:
    """How much of ``page``'s height its content takes (0 to 1)."""
    return float(_root(page).margin_height() / page._page_box.height)


def _sections(page: Any) -> list[Any]:
    """The elements in ``<body>`` that have a part on ``page``."""
    return [box.element for body in _root(page).children for box in body.children]


def _may_tighten(pages: list[Any]) -> bool:
    """Whether a tighter layout might spare the last page: a short printout whose last page is
    mostly empty and continues what the page before holds (a part that starts on a page of its
    own, like the seating's "where do I sit", keeps that page however tight)."""
    if not 1 < len(pages) <= TIGHTEN_UP_TO or _filled(pages[-1]) >= SPARSE_LAST_PAGE:
        return False
    last, before = _sections(pages[-1]), _sections(pages[-2])
    return bool(last) and last[0] in before


def pdf_of(html: str, *, base_url: str) -> bytes:
    """A tagged PDF (headings, tables and reading order marked, for screen readers and reflow)
    in the fonts that come with the site (``print.css``): in the printout's tighter layout when
    that spares a last page holding a few lines only (the standings of 23 players on one page
    rather than 21 and 2)."""
    document = _render(html, base_url)
    if ALTERNATE in html and _may_tighten(document.pages):
        tighter = _render(html.replace(ALTERNATE, 'rel="stylesheet"'), base_url)
        if len(tighter.pages) < len(document.pages):
            document = tighter
    pdf: bytes = document.write_pdf(pdf_tags=True)
    return pdf
