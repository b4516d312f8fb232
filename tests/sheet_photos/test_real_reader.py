"""The whole way with the real reader: a round's sheet printed, filled in and photographed
(a flat, scan-like image), uploaded on the round page, read into its table's sheet; every box
is read right or pointed out to be checked."""

from __future__ import annotations

import io
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse
from PIL import Image, ImageDraw, ImageFont

from scoring.deals import DEAL_COUNT, deal_spec
from tests.printing.reading import pdf_page_scans
from tournament.models import SheetPhoto, SheetVersion

pytestmark = pytest.mark.django_db

DPI = 200
FONT = "tournament/static/fonts/DejaVuSans.ttf"


def filled_in(n_seats: int) -> dict[tuple[int, int, str], int]:
    """A legal sheet: one row per deal bids one less than the cards and takes them all (rows
    from 1, as printed)."""
    values = {}
    for deal in range(1, DEAL_COUNT + 1):
        hand, taker = deal_spec(deal).hand_size, deal % n_seats + 1
        for row in range(1, n_seats + 1):
            values[deal, row, "bid"] = max(hand - 1, 0) if row == taker else 0
            values[deal, row, "tricks"] = hand if row == taker else 0
    return values


def test_a_printed_and_filled_in_sheet_is_read_into_its_table(
    director_client, tournament, table_1, tmp_path
):
    pdf, layout = tmp_path / "sheets.pdf", tmp_path / "layout.json"
    call_command(
        "print_sheets",
        tournament.slug,
        "--round",
        "1",
        "-o",
        str(pdf),
        "--layout",
        str(layout),
        stdout=io.StringIO(),
    )
    pages = json.loads(layout.read_text())["pages"]
    (index, page) = next((i, p) for i, p in enumerate(pages) if p["table"] == 1)
    scan = pdf_page_scans(pdf.read_bytes(), dpi=DPI)[index].convert("RGB")
    px = DPI / 25.4
    values = filled_in(table_1.seats.count())
    draw, font = ImageDraw.Draw(scan), ImageFont.truetype(FONT, int(6 * px))
    for box in page["boxes"]:
        x, y, w, h = box["rect_mm"]
        key = (box["deal"], box["row"], box["kind"])
        if key in values:
            draw.text(
                ((x + w / 2) * px, (y + h / 2) * px),
                str(values[key]),
                fill="#1a237e",
                font=font,
                anchor="mm",
            )
    out = io.BytesIO()
    scan.save(out, format="JPEG", quality=90)

    url = reverse("round_photos", args=[tournament.slug, 1])
    photo = SimpleUploadedFile("tafel1.jpg", out.getvalue(), content_type="image/jpeg")
    response = director_client.post(url, {"photos": [photo]})
    assert "tafel1.jpg: tafel 1 ingevuld van de foto" in response.content.decode()
    kept = SheetPhoto.objects.get(table=table_1)
    assert kept.is_waiting and not SheetVersion.objects.filter(table=table_1).exists()
    doubtful = {(deal, seat + 1, kind) for deal, seat, kind in kept.reading["uncertain"]}
    for entry in kept.reading["deals"]:
        for kind, name in (("bid", "bids"), ("tricks", "tricks")):
            for row, value in enumerate(entry[name], start=1):
                key = (entry["deal"], row, kind)
                assert value == values[key] or key in doubtful, key
    assert Image.open(io.BytesIO(bytes(kept.page))).format == "JPEG"
