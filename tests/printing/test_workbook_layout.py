"""Where a round sheet's pages break, from plain numbers: what Excel (Calibri, 97 %) and
LibreOffice without Calibri (72 %, measured on its PDF) fit on an A4 landscape page."""

from itertools import accumulate

from tournament.printing.workbook import _round_widths
from tournament.printing.workbook_layout import (
    ROW_POINTS,
    fallback_scale,
    fit_scale,
    round_page_starts,
    rows_per_page,
)

WIDTHS = _round_widths(len("Speler 40"))
TITLE = ROW_POINTS + 66  # the deals' row and the headers on end ("Verzaakt")


def test_a_page_holds_28_rows_in_excel_and_40_in_libreoffice_without_calibri():
    assert round(fit_scale(WIDTHS, "landscape"), 2) == 0.97
    assert round(fallback_scale(WIDTHS), 2) == 0.72
    assert rows_per_page(TITLE, fit_scale(WIDTHS, "landscape")) == 28
    assert rows_per_page(TITLE, fallback_scale(WIDTHS)) == 40


def test_forty_players_print_on_one_page_and_more_break_between_tables_only():
    assert round_page_starts([4] * 10, WIDTHS, TITLE) == []
    assert round_page_starts([5] * 8, WIDTHS, TITLE) == []
    # 80 players: pages of 7 tables (28 rows, full for Excel), never a table cut.
    assert round_page_starts([4] * 20, WIDTHS, TITLE) == [28, 56]
    sizes = [5, 4, 4, 5, 4, 4, 5, 5, 4, 4, 4, 5, 4, 4, 4, 5, 5]
    starts = round_page_starts(sizes, WIDTHS, TITLE)
    edges = [0, *accumulate(sizes)]
    assert set(starts) <= set(edges)
    pages = [b - a for a, b in zip([0, *starts], [*starts, sum(sizes)], strict=True)]
    assert max(pages) <= 28
    # A page ends only where the next table would not fit on it.
    for start, rows in zip(starts, pages, strict=False):
        assert rows + sizes[edges.index(start)] > 28
