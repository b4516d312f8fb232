"""The shared result as a one-page A4 PDF for the notice board (``printing/result.html``,
rendered as every printout is) and as a PNG of that page for social media (PDFium draws it).

However many players, the list fits the one page: ``result_layout`` chooses the number of
columns and the type size that give the largest type. Once the tournament is finished its
result never changes; before that, a file is kept only until anything of the standings changes
(the cache key holds ``standings_key``), so a reload renders nothing twice."""

from __future__ import annotations

import hashlib
import io
import math
import threading
from dataclasses import dataclass

import pypdfium2
from django.conf import settings
from django.core.cache import cache
from django.utils import translation
from django.utils.translation import pgettext

from tournament.clubs.public_names import tournament_public_names
from tournament.exports.base import download_name
from tournament.models import Tournament
from tournament.printing.printouts import Printout
from tournament.printing.render import printout_pdf
from tournament.share.result import ResultLine, SharedResult, shared_result
from tournament.standings.tables import standings_key

# The page (A4 portrait, ``result.css``), in millimetres: the width of the list, the gap between
# its columns, and the height left for it by the heading and the legend.
LIST_WIDTH = 186.0
COLUMN_GAP = 6.0
LIST_HEIGHT = 226.0
PRIZE_LINE = 8.5  # each prize line above the list
MAX_COLUMNS = 4
LARGEST, SMALLEST = 14.0, 4.0  # type size of the list, points
MM_PER_PT = 0.3528
LINE_HEIGHT = 1.32  # a row, in ems (the line and its rule)
CHAR_WIDTH = 0.6  # an average character of the list in DejaVu Sans, in ems (bold names)
PNG_DPI = 150  # 1240 x 1754 pixels: sharp on a phone, small enough to send
# Prize lines in large type above the list at most (more prizes: marked in the list only, so
# the page stays one page however many places the director announces).
PRIZE_LINES = 10


@dataclass(frozen=True, slots=True)
class ResultLayout:
    """The list in ``columns`` (each a list of lines) at ``font_pt`` points."""

    columns: list[list[ResultLine]]
    font_pt: float
    # The prize lines above the list: (line, whether it names the last place), winners first.
    prizes: list[tuple[ResultLine, bool]]

    @property
    def font_size(self) -> str:
        """For the stylesheet: never localised ("9.5pt", not "9,5pt")."""
        return f"{self.font_pt:.1f}pt"


def _line_chars(entry: ResultLine) -> float:
    # The club is set smaller (0.8 em) than the rank, the name and the total.
    return len(f"{entry.rank}. {entry.name}  {entry.points}*") + 0.8 * (len(entry.club) + 3)


def result_layout(result: SharedResult) -> ResultLayout:
    """The columns and type size that fit every line on the page with the largest type."""
    lines = result.lines
    losers = [(w, True) for w in result.losers][:PRIZE_LINES]
    prizes = [(w, False) for w in result.winners][: PRIZE_LINES - len(losers)] + losers
    height = LIST_HEIGHT - PRIZE_LINE * len(prizes)
    widest = max((_line_chars(entry) for entry in lines), default=10.0)
    best = (0.0, 1)
    for columns in range(1, MAX_COLUMNS + 1):
        per_column = max(1, math.ceil(len(lines) / columns))
        width = (LIST_WIDTH - COLUMN_GAP * (columns - 1)) / columns
        by_height = height / (per_column * LINE_HEIGHT * MM_PER_PT)
        by_width = width / (widest * CHAR_WIDTH * MM_PER_PT)
        size = min(by_height, by_width, LARGEST)
        if size > best[0] + 0.01:
            best = (size, columns)
    size, columns = best
    per_column = max(1, math.ceil(len(lines) / columns))
    return ResultLayout(
        columns=[lines[i : i + per_column] for i in range(0, len(lines), per_column)] or [[]],
        font_pt=round(max(size, SMALLEST), 1),
        prizes=prizes,
    )


def result_printout(tournament: Tournament) -> Printout:
    """The one-page result as a printout, in the tournament's language."""
    with translation.override(tournament.language):
        result = shared_result(tournament)
        filename = download_name(tournament, pgettext("file name", "result"), "pdf")
    return Printout(
        template="printing/result.html",
        filename=filename,
        context={"result": result, "layout": result_layout(result)},
    )


def _cache_key(tournament: Tournament, kind: str) -> str:
    facts = (
        tournament.name,
        tournament.place,
        tournament.language,
        tournament.prize_places,
        tournament.prize_last_place,
        tournament_public_names(tournament).key,  # the names as the club shows them
    )
    digest = hashlib.blake2b(repr(facts).encode(), digest_size=12).hexdigest()
    return f"shared-result:{kind}:{standings_key(tournament)}:{digest}"


def shared_result_cache_keys(tournament: Tournament) -> list[str]:
    """The keys of the result's kept files (forgotten when a name in them may not be shown)."""
    return [_cache_key(tournament, "pdf"), _cache_key(tournament, "png")]


# One render at a time in this process: requests that ask for the same file meanwhile wait and
# then find it in the cache, instead of each rendering it again.
_RENDERING = threading.Lock()


def result_pdf(tournament: Tournament, *, base_url: str) -> bytes:
    """The one-page PDF, kept under a key of what it shows."""
    key = _cache_key(tournament, "pdf")
    kept: bytes | None = cache.get(key)
    if kept is not None:
        return kept
    with _RENDERING:
        kept = cache.get(key)
        if kept is not None:
            return kept
        pdf = printout_pdf(result_printout(tournament), tournament=tournament, base_url=base_url)
        cache.set(key, pdf, settings.STANDINGS_CACHE_SECONDS)
    return pdf


# PDFium is not thread-safe, and the venue server answers in threads.
_PDFIUM = threading.Lock()


def pdf_page_png(pdf: bytes, *, dpi: int = PNG_DPI) -> bytes:
    """The PDF's first page as a PNG at ``dpi``, in grey (the page is black on white: a fifth
    of the bytes of colour)."""
    with _PDFIUM:
        document = pypdfium2.PdfDocument(pdf)
        try:
            image = document[0].render(scale=dpi / 72, grayscale=True).to_pil()
        finally:
            document.close()
    out = io.BytesIO()
    image.save(out, format="PNG")
    return out.getvalue()


def result_png(tournament: Tournament, *, base_url: str) -> bytes:
    """The one-page result as a PNG; kept as the PDF is."""
    key = _cache_key(tournament, "png")
    kept: bytes | None = cache.get(key)
    if kept is not None:
        return kept
    pdf = result_pdf(tournament, base_url=base_url)
    with _RENDERING:
        kept = cache.get(key)
        if kept is not None:
            return kept
        png = pdf_page_png(pdf)
        cache.set(key, png, settings.STANDINGS_CACHE_SECONDS)
    return png
