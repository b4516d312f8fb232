"""The whole way with the real reader: a round's sheet printed, filled in by hand and
photographed, uploaded on the round page, read into its table's sheet; every box is read right
or pointed out on the sheet page, and nothing counts before a person saves."""

from __future__ import annotations

import io

import lxml.html
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from PIL import Image

from tests.photos.paper import photographed_sheet
from tournament.models import SheetPhoto, SheetVersion

pytestmark = pytest.mark.django_db


def test_a_printed_and_filled_in_sheet_is_read_into_its_table(director_client, tournament, table_1):
    data, game = photographed_sheet(tournament, 1, 1, kind="scanner")
    url = reverse("round_photos", args=[tournament.slug, 1])
    photo = SimpleUploadedFile("tafel1.jpg", data, content_type="image/jpeg")
    response = director_client.post(url, {"photos": [photo]})
    assert "tafel1.jpg: tafel 1 ingevuld van de foto" in response.content.decode()
    kept = SheetPhoto.objects.get(table=table_1)
    assert kept.is_waiting and not SheetVersion.objects.filter(table=table_1).exists()
    doubtful = {(deal, seat + 1, kind) for deal, seat, kind in kept.reading["uncertain"]}
    for entry in kept.reading["deals"]:
        for kind, name in (("bid", "bids"), ("tricks", "tricks")):
            for row, value in enumerate(entry[name], start=1):
                key = (entry["deal"], row, kind)
                assert value == game[key] or key in doubtful, key
    assert Image.open(io.BytesIO(bytes(kept.page))).format == "JPEG"

    page = director_client.get(reverse("sheet_edit", args=[tournament.slug, 1, 1]))
    boxes = lxml.html.fromstring(page.content).xpath('//input[@data-photo="doubt"]')
    marked = {
        (int(b.get("data-deal")), int(b.get("data-seat")) + 1, b.get("data-kind")) for b in boxes
    }
    assert marked == doubtful
