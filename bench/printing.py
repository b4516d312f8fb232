"""Benchmark: score sheets for a round of 40 tables, and the final workbook of 500 players over
10 rounds. Targets: sheets under 4 s, workbook under 5 s and 300 MB.

Each case runs in a fresh process, so that its memory is its own. It prints the seconds (best
of ``--repeat`` runs, through the site's own view for the sheets), the peak of Python's
allocations during one run (tracemalloc; C memory of Pango and the XML writer not included),
and the peak resident size of the whole process, which includes Django, the database and the
imported tournament (an upper bound).

    .venv/bin/python bench/printing.py [--tables 40] [--players 500] [--rounds 10]
"""

import argparse
import random
import resource
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path


def tournament(n_players: int, rounds: int, *, played: bool):
    from scoring.simulate import random_seating, simulate_tournament
    from tournament.tournament_file.importing import tournament_import

    rng = random.Random(n_players * 100 + rounds)
    players = [
        (f"p{i}", f"Speler {i} {'van ' * (i % 3)}Achternaam", f"Club {i % 17}")
        for i in range(1, n_players + 1)
    ]
    plan = random_seating([p[0] for p in players], rounds, rng)
    played_deals = None if played else [[0] * len(tables) for tables in plan]
    document = simulate_tournament(
        name=f"Bench {n_players}", players=players, seating=plan, rng=rng, played_deals=played_deals
    )
    return tournament_import(document=document)


def timed(action, repeat: int) -> tuple[float, float]:
    """The best wall-clock and the best CPU seconds of ``repeat`` runs (other work on the
    machine slows the first; the second shows what the code itself costs)."""
    wall, cpu = [], []
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        action()
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return min(wall), min(cpu)


def measure(label: str, action, repeat: int) -> None:
    wall, cpu = timed(action, repeat)
    tracemalloc.start()
    action()
    _current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"{label:<44} {wall:6.2f} s ({cpu:5.2f} s CPU)   Python peak {peak / 2**20:6.1f} MB   "
        f"process peak {rss:6.1f} MB"
    )


def case_sheets(n_tables: int, repeat: int) -> None:
    from django.contrib.auth import get_user_model
    from django.template.loader import render_to_string
    from django.test import Client
    from django.urls import reverse

    from scoring.deals import DEALS
    from tournament.models import Table
    from tournament.printing.documents import round_sheet_forms
    from tournament.printing.render import html_to_pdf

    event = tournament(n_tables * 4, 1, played=False)
    director = get_user_model().objects.create_superuser("bench", password=None)
    client = Client(HTTP_HOST="localhost")
    client.force_login(director)
    url = reverse("print_sheets", args=[event.slug, 1])

    def sheets():
        response = client.get(url)
        assert response.status_code == 200 and response["Content-Type"] == "application/pdf"

    measure(f"score sheets, {n_tables} tables (view, PDF)", sheets, repeat)

    forms = round_sheet_forms(
        event,
        1,
        {
            t.pk: f"http://localhost/{t.number}/"
            for t in Table.objects.filter(round__tournament=event)
        },
    )
    html = render_to_string(
        "printing/score_sheets.html", {"tournament": event, "forms": forms, "deals": DEALS}
    )
    wall, cpu = timed(lambda: html_to_pdf(html, base_url="http://localhost/"), repeat)
    label = "  of which WeasyPrint, per page"
    print(f"{label:<44} {wall / n_tables:6.3f} s ({cpu / n_tables:5.3f} s CPU)")


def case_workbook(n_players: int, rounds: int, repeat: int) -> None:
    from tournament.printing.workbook import FinalWorkbookExporter

    event = tournament(n_players, rounds, played=True)
    size = []

    def workbook():
        size.append(len(FinalWorkbookExporter(event).render().data))

    measure(f"final workbook, {n_players} players x {rounds} rounds", workbook, repeat)
    print(f"{'  size':<44} {size[-1] / 2**20:7.2f} MB")
    raw_baseline(lambda: FinalWorkbookExporter(event).render().data, max(repeat, 5))


def workbook_cells(data: bytes) -> list[tuple[str, list[list[tuple]]]]:
    """Every sheet's cells of a workbook as (value, bold, centred, number format)."""
    import io

    from openpyxl import load_workbook

    book = load_workbook(io.BytesIO(data), read_only=True)
    sheets = []
    for sheet in book.worksheets:
        rows = [
            [
                (
                    c.value,
                    bool(getattr(c, "font", None) and c.font.b),
                    getattr(getattr(c, "alignment", None), "horizontal", None),
                    getattr(c, "number_format", None) or "General",
                )
                for c in row
            ]
            for row in sheet.iter_rows()
        ]
        sheets.append((sheet.title, rows))
    return sheets


def raw_workbook(sheets) -> bytes:
    """openpyxl write_only writing the same cells, with the same fonts, alignments and number
    formats, and nothing else (no widths, print set-up, merges or filters)."""
    import io

    from openpyxl import Workbook
    from openpyxl.cell import WriteOnlyCell
    from openpyxl.styles import Alignment, Font

    bold, plain = Font(bold=True), Font()
    alignments: dict = {}
    book = Workbook(write_only=True)
    for title, rows in sheets:
        sheet = book.create_sheet(title)
        for row in rows:
            out = []
            for value, is_bold, horizontal, number_format in row:
                if not is_bold and horizontal is None and number_format == "General":
                    out.append(value)
                    continue
                cell = WriteOnlyCell(sheet, value=value)
                cell.font = bold if is_bold else plain
                if horizontal is not None:
                    cell.alignment = alignments.setdefault(
                        horizontal, Alignment(horizontal=horizontal)
                    )
                cell.number_format = number_format
                out.append(cell)
            sheet.append(out)
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def raw_baseline(project, repeat: int) -> None:
    """The project's workbook against openpyxl write_only writing its cells, interleaved,
    median of ``repeat``; the cells are read from the project's file beforehand."""
    import statistics

    import lxml
    from openpyxl.xml import LXML

    sheets = workbook_cells(project())
    cells = sum(len(row) for _title, rows in sheets for row in rows)
    # CPU seconds: on a machine other people use, wall-clock seconds measure them too.
    mine, raw = [], []
    for _ in range(repeat):
        start = time.process_time()
        project()
        mine.append(time.process_time() - start)
        start = time.process_time()
        raw_workbook(sheets)
        raw.append(time.process_time() - start)
    p, r = statistics.median(mine), statistics.median(raw)
    label = f"  vs openpyxl write_only, {cells} cells"
    print(f"{label:<44} {p:6.2f} s  raw {r:5.2f} s CPU  ratio {p / r:4.2f}x (median of {repeat})")
    print(f"{'  openpyxl writes with lxml':<44} {LXML} (lxml {lxml.__version__})")


def child(args: argparse.Namespace) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import _django

    _django.setup()
    from django.test.utils import override_settings

    # Plain static files: the benchmark has not run collectstatic.
    override_settings(
        STORAGES={
            "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
            "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
        }
    ).enable()
    if args.case == "sheets":
        case_sheets(args.tables, args.repeat)
    else:
        case_workbook(args.players, args.rounds, args.repeat)


def machine_reference() -> None:
    """How fast this machine runs plain Python right now, to compare figures between machines."""

    def count():
        total = 0
        for number in range(10**7):
            total += number

    wall, cpu = timed(count, 3)
    print(f"{'reference: a 10^7-step Python loop':<44} {wall:6.2f} s ({cpu:5.2f} s CPU)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--case", choices=["sheets", "workbook"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.case:
        child(args)
        return
    machine_reference()
    for case in ("sheets", "workbook"):
        subprocess.run([sys.executable, __file__, "--case", case, *sys.argv[1:]], check=True)


if __name__ == "__main__":
    main()
