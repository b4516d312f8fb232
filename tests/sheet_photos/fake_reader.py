"""A stand-in for the photo reader (``tournament.photos.reading.read_sheet_photo``) in the
site's tests of who may upload, what is refused and what a reading does to a sheet: each call
answers what the test planned (a ``SheetPhotoReading`` of the reader's own kind, with the
printed sheet's box places, or a ``PhotoProblem``), so those tests need no photo. How well a
photo is read, and the whole way from a real photo to a sheet, is for
``tests/photos`` and ``test_real_reader``."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

from scoring.deals import DEAL_COUNT, deal_spec
from tournament.models import Table, Tournament
from tournament.photos import reading
from tournament.photos.reading import PhotoProblem, SheetPhotoReading
from tournament.printing.form import FormGeometry
from tournament.printing.sheet_layout import layout_boxes


def jpeg(width: int = 600, height: int = 424, colour: str = "white") -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), colour).save(out, format="JPEG")
    return out.getvalue()


def legal_deals(n_seats: int, upto: int = DEAL_COUNT) -> list[dict[str, Any]]:
    """A legal sheet's deals: everyone bids 0, the first row takes every trick."""
    deals = []
    for deal in range(1, DEAL_COUNT + 1):
        hand = deal_spec(deal).hand_size
        played = deal <= upto
        deals.append(
            {
                "deal": deal,
                "bids": [0 if played else None] * n_seats,
                "tricks": [
                    (hand if seat == 0 else 0) if played else None for seat in range(n_seats)
                ],
            }
        )
    return deals


def box_rects(n_seats: int) -> dict[tuple[int, int, str], list[float]]:
    """Where the printed sheet has each box (mm), by ``(deal, seat index, kind)`` as the site
    keeps them (``sheet_layout`` counts the printed rows from 1)."""
    geometry = FormGeometry(n_seats, dealers=True)
    return {(b["deal"], b["row"] - 1, b["kind"]): b["rect_mm"] for b in layout_boxes(geometry)}


class FakeReader:
    """Answers the planned readings in turn; ``calls`` counts the photos it was asked to read."""

    def __init__(self, problem_type: type) -> None:
        self.problem_type = problem_type
        self.planned: list[Any] = []
        self.calls = 0

    def reads(
        self,
        table: Table,
        deals: list[dict[str, Any]] | None = None,
        uncertain: list[tuple[int, int, str]] = (),  # type: ignore[assignment]
    ) -> None:
        """Plan a reading of ``table``'s sheet; ``uncertain`` by seat index as the site keeps
        them, handed to the site as the reader gives them (printed rows, from 1)."""
        n = table.seats.count()
        self.planned.append(
            SheetPhotoReading(
                table=table,
                deals=deals if deals is not None else legal_deals(n),  # type: ignore[arg-type]
                uncertain=[(d, seat + 1, kind) for d, seat, kind in uncertain],  # type: ignore[misc]
                raw={},
                page_jpeg=jpeg(1188, 840, "lightyellow"),
                px_per_mm=4.0,
                boxes={(d, seat + 1, k): r for (d, seat, k), r in box_rects(n).items()},  # type: ignore[misc]
            )
        )

    def fails(self, message: str) -> None:
        self.planned.append(self.problem_type(message))

    def __call__(self, tournament: Tournament, data: bytes) -> Any:
        self.calls += 1
        return self.planned.pop(0)


def reader_installed(monkeypatch: pytest.MonkeyPatch) -> FakeReader:
    """The stand-in, in the reader's place for the test's duration (the ``reader`` fixtures)."""
    fake = FakeReader(PhotoProblem)
    monkeypatch.setattr(reading, "read_sheet_photo", fake)
    return fake


def photo_waiting(table: Table, *, uncertain: list[tuple[int, int, str]] = (), by=None):  # type: ignore[assignment]
    """Store a photo of ``table``'s sheet waiting to be checked, as an upload would have (a
    legal sheet read, ``uncertain`` boxes pointed out), without reading anything."""
    from tournament.models import SheetPhoto

    n = table.seats.count()
    return SheetPhoto.objects.create(
        table=table,
        uploaded_by=by,
        via=SheetPhoto.Via.ROUND_PAGE if by else SheetPhoto.Via.TABLE_LINK,
        photo=jpeg(),
        page=page_jpeg(n),
        px_per_mm=4.0,
        reading={
            "deals": legal_deals(n),
            "uncertain": [list(b) for b in uncertain],
            "boxes": {f"{d}:{s}:{k}": rect for (d, s, k), rect in box_rects(n).items()},
        },
    )


def page_jpeg(n_seats: int) -> bytes:
    """A straightened page (A4 landscape at 4 px/mm) with the made-up boxes drawn on it, and
    the legal sheet's digits in them: something to zoom onto."""
    from PIL import ImageDraw

    image = Image.new("RGB", (1188, 840), "white")
    draw = ImageDraw.Draw(image)
    deals = legal_deals(n_seats)
    for (deal, seat, kind), (x, y, w, h) in box_rects(n_seats).items():
        draw.rectangle([x * 4, y * 4, (x + w) * 4, (y + h) * 4], outline="black", width=2)
        value = deals[deal - 1]["bids" if kind == "bid" else "tricks"][seat]
        draw.text((x * 4 + 10, y * 4 + 12), str(value), fill="navy", font_size=28)
    out = io.BytesIO()
    image.save(out, format="JPEG", quality=85)
    return out.getvalue()
