"""Whether the players' names fit over the columns of the read-only sheet on a phone
(``sheets/_summary.html``), decided here from the names' longest words instead of measured by a
script.

A name over its column wraps between its words only (at a space, or after the hyphen of a
double name), never inside one, so a column is as wide as its name's longest word, and never
narrower than the bid and tricks boxes under it. Five names with a long word each
("Oosterhuis-Schimmelpenninck") do not fit a 360 px phone side by side: then the columns are
numbered, and the names are written out whole in a list above the table.

The widths are those of DejaVu Sans, the widest of the fonts the site's font stack falls back on
(Roboto and San Francisco set the same word narrower), at the size ``static/sheet.css`` gives
the names (``.sheet-summary-table thead th``: 0.76rem); the sizes of the table's parts are those
of the same file. Whatever the estimate misses, the summary's box scrolls rather than cut.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from enum import StrEnum

# DejaVu Sans's advance widths in em: a to z, A to Z, then the few other characters of names.
_WIDTHS = """
    613 635 550 635 615 352 635 634 278 278 579 278 974 634 612 635 635 411 521 392 634 592
    818 592 592 525
    684 686 698 770 632 575 775 752 295 295 656 557 863 748 787 603 787 695 635 611 732 684
    989 685 611 685
    361 275 318 318
"""
_EM = dict(
    zip(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-'\N{RIGHT SINGLE QUOTATION MARK}.",
        (int(width) / 1000 for width in _WIDTHS.split()),
        strict=True,
    )
)
_OTHER_EM = 0.8  # a character not in the table: as wide as a wide letter, to be safe

NAME_PX = 0.76 * 16  # the names' font size
CELL_PX = 4.2  # a column's padding and border
COLUMN_MIN_PX = 45.2  # the bid and tricks boxes under a name
DEAL_COLUMN_PX = 49.2  # the deals' column
SPARE_PX = 6.0  # what the estimate keeps in hand
# The summary's box: a 360 px phone, and a 480 px one (a large phone on its side), less the
# page's margins (0.6rem a side below 640 px).
BOX_360_PX = 360 - 2 * 0.6 * 16
BOX_480_PX = 480 - 2 * 0.6 * 16

# The words of a name as the browser may break it: at spaces, and after a hyphen.
_WORD = re.compile(r"[^\s-]+-?|-")


class SummaryHeads(StrEnum):
    """How the summary heads its players' columns (``data-heads`` on ``.sheet-summary``)."""

    NAMES = "names"
    """Every name over its column, on any phone."""
    NUMBERS_BELOW_480 = "numbers-below-480"
    """Numbered columns and the names above the table below 480 px, the names over the
    columns from there."""
    NUMBERS = "numbers"
    """Numbered columns and the names above the table on every screen the summary is shown on."""


def word_px(word: str) -> float:
    """The width of ``word`` in pixels, in the names' font."""
    em = 0.0
    for char in word:
        base = unicodedata.normalize("NFD", char)[0]  # "é" is as wide as "e"
        em += _EM.get(base, _OTHER_EM)
    return em * NAME_PX


def column_px(name: str) -> float:
    """The narrowest the column under ``name`` can be without breaking one of its words."""
    longest = max((word_px(word) for word in _WORD.findall(name)), default=0.0)
    return max(COLUMN_MIN_PX, longest + CELL_PX)


def summary_heads(players: Sequence[str]) -> SummaryHeads:
    """Names over the columns where they fit the summary's box whole, else numbers."""
    needed = DEAL_COLUMN_PX + sum(column_px(name) for name in players) + SPARE_PX
    if needed <= BOX_360_PX:
        return SummaryHeads.NAMES
    if needed <= BOX_480_PX:
        return SummaryHeads.NUMBERS_BELOW_480
    return SummaryHeads.NUMBERS
