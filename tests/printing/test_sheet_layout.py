"""The layout ``print_sheets --layout`` writes is where the PDF draws it: every box between its
lines, the alignment marks found where they should be, the QR code inside its square."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest
import zxingcpp
from django.core.management import call_command

from tests.factories import played_tournament
from tests.printing.reading import pdf_page_scans
from tournament.models import Club, Tournament
from tournament.printing.sheet_layout import MARK_SIZE, MARKS, QR_RECT

pytestmark = pytest.mark.django_db

PX_PER_MM = 8
DPI = PX_PER_MM * 25.4


@pytest.fixture(scope="module", params=list(Tournament.FirstDealerRule))
def printed(request, django_db_setup, django_db_blocker, tmp_path_factory):
    """Round 2 of a tournament at tables of 5 and 4, printed once for the module: with the
    dealers' boxes marked, and with a line for the dealers that the table draws."""
    with django_db_blocker.unblock():
        clubs = set(Club.objects.values_list("pk", flat=True))
        tournament = played_tournament(9, rounds=2, last_round=[5, 4])
        tournament.first_dealer_rule = request.param
        tournament.save(update_fields=["first_dealer_rule"])
        folder = tmp_path_factory.mktemp("sheets")
        pdf_file, json_file = folder / "s.pdf", folder / "s.json"
        call_command(
            "print_sheets", tournament.slug, "--round=2", f"-o{pdf_file}", f"--layout={json_file}"
        )
        layout = json.loads(json_file.read_text())
        scans = [np.asarray(p.convert("L")) for p in pdf_page_scans(pdf_file.read_bytes(), DPI)]
        # Committed outside any test's transaction: gone again, the club it made too.
        tournament.delete()
        Club.objects.exclude(pk__in=clubs).delete()
    return layout, scans


def px(mm: float) -> int:
    return round(mm * PX_PER_MM)


def test_one_page_per_table_with_every_box(printed):
    layout, scans = printed
    assert len(layout["pages"]) == len(scans) == 2
    for page, seats in zip(layout["pages"], (5, 4), strict=True):
        assert page["round"] == 2 and page["size_mm"] == [297.0, 210.0]
        keys = {(box["deal"], box["row"], box["kind"]) for box in page["boxes"]}
        assert len(page["boxes"]) == len(keys) == 11 * seats * 2
        assert {row for _, row, _ in keys} == set(range(1, seats + 1))
    assert [page["table"] for page in layout["pages"]] == [1, 2]


def test_every_box_is_between_its_lines_in_the_pdf(printed):
    layout, scans = printed
    for page, scan in zip(layout["pages"], scans, strict=True):
        for box in page["boxes"]:
            x, y, w, h = box["rect_mm"]
            middle = slice(px(y + h * 0.3), px(y + h * 0.7))
            # A line on the box's left edge (thick between deals, the divider inside a deal)
            # and on its top edge; paper (or the dealer's shade) inside.
            assert scan[middle, px(x) - 1 : px(x) + 2].min() < 128, box
            assert scan[px(y) - 1 : px(y) + 2, px(x + w * 0.3) : px(x + w * 0.7)].min() < 160, box
            # (below the dealer's "D", which is in the top left corner of the bid box)
            inside = scan[px(y + 5) : px(y + h - 1), px(x + 1) : px(x + w - 1)]
            assert inside.min() > 180, box


def test_the_marks_and_the_qr_code_are_where_the_layout_says(printed):
    _, scans = printed
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50))
    for scan in scans:
        corners, ids, _ = detector.detectMarkers(scan)
        found = {
            int(i): c.reshape(4, 2) / PX_PER_MM for i, c in zip(ids.ravel(), corners, strict=True)
        }
        assert sorted(found) == [0, 1, 2, 3]
        for mark in MARKS:
            assert np.abs(found[mark.id] - np.array(mark.corners)).max() < 0.3, mark
            assert mark.corners[2][0] - mark.corners[0][0] == MARK_SIZE
        x, y, w, h = QR_RECT
        qr = scan[px(y) : px(y + h), px(x) : px(x + w)]
        assert next(r.text for r in zxingcpp.read_barcodes(qr)).startswith("http")
