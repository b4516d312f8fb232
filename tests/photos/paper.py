"""A real photo of a real printed sheet, for tests: the round's sheets printed as the site prints
them, one table's page filled in with held-out handwriting (``handwriting-sample.npz``, MNIST
test digits) and photographed in software (``bench/photo_synth.py``, which the benchmark uses
too)."""

from __future__ import annotations

import io
import json
import random
import tempfile
from pathlib import Path

import numpy as np
from django.core.management import call_command

from bench.photo_synth import (
    PX_PER_MM,
    DigitBank,
    Game,
    photograph,
    random_game,
    random_shot,
    random_writer,
    write_game,
)
from tests.printing.reading import pdf_page_scans
from tournament.models import Tournament

SAMPLE = Path(__file__).with_name("handwriting-sample.npz")


def printed_page(tournament: Tournament, round_number: int, table: int) -> tuple[dict, np.ndarray]:
    """The layout of ``table``'s printed sheet and the page as an RGB image at PX_PER_MM."""
    with tempfile.TemporaryDirectory() as folder:
        pdf_file, json_file = Path(folder) / "s.pdf", Path(folder) / "s.json"
        call_command(
            "print_sheets",
            tournament.slug,
            f"--round={round_number}",
            f"-o{pdf_file}",
            f"--layout={json_file}",
            stdout=io.StringIO(),
            stderr=io.StringIO(),
        )
        pages = json.loads(json_file.read_text())["pages"]
        index = next(i for i, p in enumerate(pages) if p["table"] == table)
        scan = pdf_page_scans(pdf_file.read_bytes(), dpi=PX_PER_MM * 25.4)[index]
    return pages[index], np.asarray(scan.convert("RGB"))


def photographed_sheet(
    tournament: Tournament,
    round_number: int,
    table: int,
    *,
    seed: int = 4,
    kind: str = "tilt",
    game: Game | None = None,
) -> tuple[bytes, Game]:
    """A JPEG photo of ``table``'s sheet filled in with ``game`` (default: a random game that
    obeys the rules), taken as ``kind`` says (``photo_synth.KINDS``), and what it holds."""
    page, image = printed_page(tournament, round_number, table)
    rng = random.Random(seed)
    n_seats = max(box["row"] for box in page["boxes"])
    game = game if game is not None else random_game(n_seats, rng)
    sample = np.load(SAMPLE)
    bank = DigitBank(sample["images"], sample["labels"])
    written = write_game(image, page["boxes"], game, random_writer(rng), bank, rng)
    return photograph(written, random_shot(kind, rng), rng), game
