"""A photo's stored reading as the sheet pages read it: whatever a crafted backup put there,
the pages open and leave out what is not valid; the restore refuses such a reading whole."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.sheet_photos.fake_reader import box_rects, legal_deals, photo_waiting
from tournament.sheets.content import SheetContent
from tournament.sheets.photo_input import (
    photo_cells,
    photo_marks,
    photo_reading_valid,
    photo_rects,
)
from tournament.sheets.table_links import table_link_issue


def good() -> dict:
    return {
        "deals": legal_deals(4),
        "uncertain": [[2, 1, "bid"]],
        "boxes": {f"{d}:{s}:{k}": rect for (d, s, k), rect in box_rects(4).items()},
    }


BROKEN = [
    "x",
    {"deals": "x", "uncertain": [], "boxes": {}},
    {"deals": [{"deal": 1, "bids": [99, "a"], "tricks": []}], "uncertain": [], "boxes": {}},
    {"deals": [{"deal": "1", "bids": [0], "tricks": [1]}], "uncertain": [], "boxes": {}},
    {"deals": [{"deal": 12, "bids": [0], "tricks": [1]}], "uncertain": [], "boxes": {}},
    {"deals": [{"deal": 1, "bids": [True], "tricks": [2]}], "uncertain": [], "boxes": {}},
    {"deals": [{"deal": 1, "bids": "01", "tricks": [None]}], "uncertain": [], "boxes": {}},
    {"deals": ["deal"], "uncertain": [], "boxes": {}},
    {"deals": [], "uncertain": [[1]], "boxes": {}},
    {"deals": [], "uncertain": [[1, 9, "bid"]], "boxes": {}},
    {"deals": [], "uncertain": "x", "boxes": {}},
    {"deals": [], "uncertain": [], "boxes": {"1:0:bid": "x"}},
    {"deals": [], "uncertain": [], "boxes": {"1:0:bid": [1, 2, 3, float("nan")]}},
    {"deals": [], "uncertain": [], "boxes": {"a:b:c": [1, 2, 3, 4]}},
    {"deals": [], "uncertain": [], "boxes": []},
]


def test_a_reading_as_the_reader_writes_it_is_valid():
    assert photo_reading_valid(good())


@pytest.mark.parametrize("reading", BROKEN)
def test_a_broken_reading_is_not_valid_and_read_without_failing(reading):
    assert not photo_reading_valid(reading)
    counted = SheetContent.build(4, {(1, 0): (0, 0)}, {})
    cells = photo_cells(reading, 4)
    assert all(0 <= bid <= 1 for bid, _tricks in cells.values() if bid is not None)
    marks = photo_marks(reading, counted)
    assert all(m["rect"] is None or len(m["rect"]) == 4 for m in marks)
    assert all(len(r) == 4 for r in photo_rects(reading).values())


def test_a_broken_deal_leaves_out_that_deal_only():
    reading = good()
    reading["deals"][0]["bids"] = [99, "a", 0, 0]
    assert not photo_reading_valid(reading)
    cells = photo_cells(reading, 4)
    assert (1, 0) not in cells and cells[(2, 0)] == [0, 2]


@pytest.mark.django_db
@pytest.mark.parametrize("reading", BROKEN[:4])
def test_the_sheet_pages_open_whatever_a_stored_reading_holds(
    reading, director, director_client, tournament, table_1
):
    waiting = photo_waiting(table_1, by=director)
    waiting.reading = reading
    waiting.save()
    edit = director_client.get(reverse("sheet_edit", args=[tournament.slug, 1, 1]))
    assert edit.status_code == 200
    link = table_link_issue(table=table_1, by_user=None)
    assert director_client.get(reverse("table_entry", args=[link.token])).status_code == 200
