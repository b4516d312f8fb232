"""The workbook and the standings' Excel file as LibreOffice prints them (converted to PDF):
every sheet one page wide, no page of names only, no near-empty last page, a name apart from the
number before it, the bold headers in the sans-serif of the rest. LibreOffice takes a few
seconds, so this is a browser test (``make test``, not ``make check``); test_workbook checks the
page set-up that Excel reads."""

import io
import re
import subprocess
from collections import defaultdict

import pytest
from pypdf import PdfReader

from tests import factories
from tests.printing.reading import pdf_pages
from tournament.adapter import load_table_sheets
from tournament.models import Player
from tournament.printing.workbook import FinalWorkbookExporter
from tournament.standings.exports import StandingsExporter

pytestmark = [pytest.mark.django_db, pytest.mark.browser]

ROUNDS = 4
# The pages each sheet takes for 40 players: a round's 40 rows fit on one page (LibreOffice
# without Calibri prints them at 72 %; they were cut into 24 and 16 rows for Excel's 97 %); the
# standings' too (fitted to one page rather than leave 4 rows on a second).
EXPECTED = {
    "Standings": 1,
    **{f"Round {number}": 1 for number in range(1, ROUNDS + 1)},
    "Statistics": 1,
    "Games": 1,
}
# Each page's header (the tournament) and footer (the sheet's name and the page number).
PAGE_HEADER = re.compile(r"^Testtoernooi (?P<sheet>.+?) Page (?P<page>\d+) of \d+ ")
# Names and clubs long enough to print the standings on their side, about 36 rows a page: they
# printed 36 rows and then 4 on a page of their own, in the workbook and in their own file.
LONG_NAME = "Speler 1 van den Berg"
CLUB = "Kaartvereniging Ons Genoegen Enschede"
# A place or a table number run into the name after it ("1Speler 7").
RUN_IN = re.compile(r"\dSpeler")


@pytest.fixture
def printed(director, tmp_path):
    """The workbook and the standings' Excel file of a 4-round tournament of 40 players (one
    with a long name, every other one of a club with a long name), in English, converted to PDF
    by LibreOffice with a profile of its own (parallel workers each start theirs)."""
    tournament = factories.played_tournament(40, ROUNDS, director=director)
    tournament.language = "en"
    tournament.save(update_fields=["language"])
    players = Player.objects.filter(tournament=tournament)
    players.filter(name="Speler 1").update(name=LONG_NAME)
    players.filter(name__regex=r"[02468]$").update(club=CLUB)
    workbook, standings = tmp_path / "workbook.xlsx", tmp_path / "standings.xlsx"
    workbook.write_bytes(FinalWorkbookExporter(tournament).render().data)
    standings.write_bytes(StandingsExporter(tournament, format="xlsx").render().data)
    subprocess.run(
        [
            "soffice",
            f"-env:UserInstallation={(tmp_path / 'profile').as_uri()}",
            "--headless",
            "--convert-to",
            "pdf",
            "--outdir",
            str(tmp_path),
            str(workbook),
            str(standings),
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )
    pdfs = (tmp_path / "workbook.pdf", tmp_path / "standings.pdf")
    return tournament, *(pdf.read_bytes() for pdf in pdfs)


def test_every_round_sheet_prints_one_page_wide_in_a_sans_serif(printed):
    tournament, pdf, standings_pdf = printed
    texts = pdf_pages(pdf)
    reader = PdfReader(io.BytesIO(pdf))
    pages: dict[str, list[int]] = defaultdict(list)
    for index, text in enumerate(texts):
        header = PAGE_HEADER.match(text)
        assert header, text[:80]
        assert int(header["page"]) == index + 1
        pages[header["sheet"]].append(index)
    assert {sheet: len(found) for sheet, found in pages.items()} == EXPECTED
    # The standings' own file too (fitted to one page, like the workbook's); a place or a
    # table number apart from the name after it.
    standings = pdf_pages(standings_pdf)
    assert [len(re.findall(r"Speler \d+ ", text)) for text in standings] == [40]
    assert not [text for text in [*texts, *standings] if RUN_IN.search(text)]

    names = dict(Player.objects.filter(tournament=tournament).values_list("pk", "name"))
    for number in range(1, ROUNDS + 1):
        on_pages = pages[f"Round {number}"]
        for index in on_pages:
            box = reader.pages[index].mediabox
            assert box.width > box.height  # landscape
            # Every page holds every column: the first deal's and the totals' headers, the
            # labels of the deals; no page of table, seat and name only.
            text = texts[index]
            for word in ("Table", "Seat", "Name", "Bid", "Tricks", "5Z", "5B", "Revokes"):
                assert f" {word} " in text, (number, index, word)
            assert text.rstrip().split()[-1].lstrip("-").isdigit()  # a total ends the page
        # Each player once, and a table's players on one page.
        for table in load_table_sheets(tournament=tournament, round_number=number):
            where = {
                pid: [i for i in on_pages if re.search(rf" {re.escape(names[pid])} ", texts[i])]
                for pid in table.player_ids
            }
            assert len({tuple(found) for found in where.values()}) == 1, where
            assert len(where[table.player_ids[0]]) == 1, where

    fonts = {
        str(font.get_object()["/BaseFont"])
        for page in reader.pages
        for font in page["/Resources"]["/Font"].values()
    }
    assert any("Bold" in font for font in fonts), fonts
    # LibreOffice falls back to a serif for a font without a name.
    assert not [font for font in fonts if re.search("Serif|Times|Roman", font)], fonts
