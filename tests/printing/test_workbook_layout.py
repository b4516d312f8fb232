"""Where a round sheet's and a list's pages break, from plain numbers: what Excel (Calibri,
97 %) and LibreOffice without Calibri (72 %, measured on its PDF) fit on an A4 landscape page."""

from itertools import accumulate

from openpyxl.worksheet.page import PageMargins

from tournament.exports.paging import (
    ROW_POINTS,
    Paging,
    list_paging,
    printable_inches,
)
from tournament.exports.paging import rows_per_page as page_rows
from tournament.printing.workbook import _round_widths
from tournament.printing.workbook_layout import (
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


# The standings' columns as their own file sizes them (place, name, club, total, four rounds,
# bollen, correct, provisional), in openpyxl's margins on a landscape page, under a title and a
# header: LibreOffice without Calibri prints 30 rows a page, Excel 27.
STANDINGS = [8, 20, 25, 8, 6, 6, 6, 6, 8, 6, 12]
# With long names and clubs LibreOffice prints them at 80 %, 35 rows a page.
WIDE = [8, 24, 40, 8, 6, 6, 6, 6, 8, 6, 12]
HEADED = 18 + ROW_POINTS


def paged(rows: int, widths: list[int]) -> Paging:
    return list_paging(rows, widths, HEADED, "landscape", PageMargins())


def test_a_list_never_ends_on_a_near_empty_page():
    height = printable_inches("landscape", PageMargins())[1]
    assert page_rows(height, HEADED, 0.93) == 30 and page_rows(height, HEADED, 1) == 27
    # As they come: one page, or a last page at least a third full (30 + 10; Excel 27 + 13).
    assert paged(20, STANDINGS) == paged(40, STANDINGS) == Paging()
    # 35 + 5 rows: fitted to one page (at 71 %, 89 % of LibreOffice's 80 %).
    assert paged(40, WIDE) == Paging(tall=1)
    # Excel's 27 + 27 + 4: fitted to two pages, as LibreOffice prints them anyway.
    assert paged(58, STANDINGS) == Paging(tall=2)
    # 30 + 6 would shrink to 78 % on one page: cut in two halves that every program keeps.
    assert paged(36, STANDINGS) == Paging(starts=[18])
