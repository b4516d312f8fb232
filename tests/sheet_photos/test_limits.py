"""What an uploaded photo may cost the site: its header is checked before anything is decoded,
every photo that gets to be decoded is counted (refused or not) and read under the photos' own
lock, a table link's photos count against the link whoever sends them, the same file is not
stored twice, a table keeps a bounded number of photos, and a refused photo costs nothing."""

from __future__ import annotations

import hashlib
import io
import struct
import zlib

import pytest
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone
from PIL import Image

from tests.sheet_photos.fake_reader import jpeg, legal_deals, photo_waiting
from tests.sheet_photos.test_upload import photo, text, upload
from tournament.clubs.services import club_create
from tournament.models import CostlyWork, Round, SheetPhoto
from tournament.sheet_photos import services
from tournament.sheet_photos.images import photo_max_bytes
from tournament.sheets.services import sheet_record
from tournament.sheets.submission import SheetSubmission
from tournament.sheets.table_links import table_link_issue
from tournament.venue import costly

pytestmark = pytest.mark.django_db


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png(width: int, height: int, pixels: bytes | None = None) -> bytes:
    """A grey PNG of ``width`` x ``height`` zero pixels (7000 x 7000: some 50 kB that decode
    into 49 MB), or with ``pixels`` as its compressed pixels."""
    if pixels is None:
        packer = zlib.compressobj(9)
        row = b"\0" * (width + 1)  # each row: its filter byte, then its pixels
        pixels = b"".join(packer.compress(row) for _ in range(height)) + packer.flush()
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", pixels)
        + _chunk(b"IEND", b"")
    )


@pytest.fixture
def decoded(monkeypatch) -> list[bytes]:
    """The photos decoded (``images.photo_checked``), in order."""
    calls: list[bytes] = []
    checked = services.photo_checked

    def counting(data: bytes) -> Image.Image:
        calls.append(data)
        return checked(data)

    monkeypatch.setattr(services, "photo_checked", counting)
    return calls


def _photos_counted() -> int:
    return CostlyWork.objects.filter(kind=CostlyWork.Kind.PHOTO).count()


def test_a_decompression_bomb_is_refused_by_its_header_and_never_decoded(
    director_client, tournament, reader, decoded
):
    bomb = png(7000, 7000)
    assert len(bomb) < 200_000
    response = upload(director_client, tournament, photo("bom.png", bomb))
    assert "bom.png: De foto heeft te veel pixels" in text(response)
    assert decoded == [] and reader.calls == 0 and _photos_counted() == 0


def test_a_photo_broken_past_its_header_is_counted_and_refused(
    director_client, tournament, reader, decoded
):
    response = upload(
        director_client, tournament, photo("kapot.png", png(600, 400, b"not compressed pixels"))
    )
    assert "kapot.png: Dit is geen foto die de site kan lezen" in text(response)
    assert len(decoded) == 1 and reader.calls == 0
    assert _photos_counted() == 1  # it got to the costly part: it counts


@override_settings(COSTLY_PHOTOS_PER_ACCOUNT=1)
def test_a_photo_refused_as_too_many_is_never_decoded(
    director_client, tournament, table_1, reader, decoded
):
    reader.reads(table_1)
    response = upload(director_client, tournament, photo("1.jpg"), photo("2.jpg"))
    assert "2.jpg: Er zijn de laatste minuten veel foto's" in text(response)
    assert len(decoded) == 1 and reader.calls == 1


def test_only_jpeg_png_and_webp_are_taken(director_client, tournament, table_1, reader):
    out = io.BytesIO()
    Image.new("RGB", (600, 424), "white").save(out, format="GIF")
    response = upload(director_client, tournament, photo("scan.gif", out.getvalue()))
    assert "scan.gif: Dit is geen foto die de site kan lezen: stuur een JPEG-, PNG- of WebP" in (
        text(response)
    )
    assert reader.calls == 0 and _photos_counted() == 0
    out = io.BytesIO()
    Image.new("RGB", (600, 424), "white").save(out, format="WEBP")
    reader.reads(table_1)
    response = upload(director_client, tournament, photo("tafel.webp", out.getvalue()))
    assert response.status_code == 200 and reader.calls == 1


@override_settings(COSTLY_PHOTO_WAIT_SECONDS=0)
def test_photos_and_files_do_not_wait_for_each_others_lock(
    director, director_client, tournament, table_1, reader
):
    with costly._slot(director, counted=False):  # an import is being read
        reader.reads(table_1)
        response = upload(director_client, tournament, photo("t1.jpg"))
        assert "t1.jpg: tafel 1 ingevuld van de foto" in text(response)
    # Another club's photo is being read.
    with costly._slot(director, counted=False, kind=CostlyWork.Kind.PHOTO):
        assert costly.costly(director, lambda: "imported", club=tournament.club) == "imported"
        response = upload(director_client, tournament, photo("t2.jpg"))
        assert "t2.jpg: De site leest nu andere foto's" in text(response)
    # The one that found the machine busy took its turn all the same: sending faster than the
    # photos are read does not keep their lock for free.
    assert CostlyWork.objects.filter(kind=CostlyWork.Kind.PHOTO, user=director).count() == 2


@override_settings(COSTLY_PHOTOS_PER_LINK=1)
def test_another_clubs_account_sending_through_a_link_counts_against_the_link(
    client, django_user_model, tournament, table_1, reader
):
    stranger = django_user_model.objects.create_user(username="buur", password="x-y-z-w")
    club_create(name="Andere club", admin=stranger)
    client.force_login(stranger)
    link = table_link_issue(table=table_1, by_user=None)
    url = reverse("table_entry_photos", args=[link.token])
    reader.reads(table_1)
    client.post(url, {"photos": [photo("een.jpg")]})
    response = client.post(url, {"photos": [photo("twee.jpg")]}, follow=True)
    assert "twee.jpg: Er zijn de laatste minuten veel foto's" in text(response)
    assert reader.calls == 1
    (work,) = CostlyWork.objects.all()
    assert work.link == link and work.club == tournament.club


def test_the_same_file_again_is_neither_read_nor_stored(
    director_client, tournament, table_1, reader
):
    reader.reads(table_1)
    same = jpeg(colour="green")
    upload(director_client, tournament, photo("a.jpg", same))
    response = upload(director_client, tournament, photo("b.jpg", same))
    assert "b.jpg: Deze foto is al eerder gelezen, als het formulier van tafel 1 (ronde 1)" in text(
        response
    )
    assert response.status_code == 422
    assert reader.calls == 1 and SheetPhoto.objects.count() == 1
    assert _photos_counted() == 1


def test_a_table_drops_its_oldest_photo_set_aside_unsaved_to_make_room(
    director_client, tournament, table_1, reader, monkeypatch
):
    monkeypatch.setattr(services, "MAX_PHOTOS_PER_TABLE", 3)
    for _ in range(4):
        reader.reads(table_1)
    for n in range(4):
        upload(director_client, tournament, photo(f"{n}.jpg"))
    kept = SheetPhoto.objects.filter(table=table_1).order_by("created_at", "pk")
    assert len(kept) == 3 and kept[2].is_waiting
    first = hashlib.sha256(photo("0.jpg").read()).hexdigest()
    assert not SheetPhoto.objects.filter(sha256=first).exists()


def test_a_table_whose_photos_are_all_saved_takes_no_more(
    director, director_client, tournament, table_1, reader, monkeypatch
):
    monkeypatch.setattr(services, "MAX_PHOTOS_PER_TABLE", 2)
    saved = photo_waiting(table_1, by=director)
    cells = {
        (d["deal"], s): (d["bids"][s], d["tricks"][s]) for d in legal_deals(4) for s in range(4)
    }
    sheet_record(
        table=table_1,
        submission=SheetSubmission(
            base_version=0, cells=cells, by_user=director, photo_id=saved.pk
        ),
    )
    photo_waiting(table_1, by=director)
    reader.reads(table_1)
    response = upload(director_client, tournament, photo("derde.jpg"))
    assert "derde.jpg: Tafel 1 heeft al 2 foto's" in text(response)
    assert SheetPhoto.objects.filter(table=table_1).count() == 2


def test_a_closed_round_refuses_a_link_photo_before_reading_it(client, tournament, table_1, reader):
    link = table_link_issue(table=table_1, by_user=None)
    Round.objects.filter(pk=table_1.round_id).update(closed_at=timezone.now())
    response = client.post(
        reverse("table_entry_photos", args=[link.token]),
        {"photos": [photo("laat.jpg")]},
        HTTP_X_REQUESTED_WITH="XMLHttpRequest",
    )
    assert response.status_code == 422 and not response.json()["results"][0]["ok"]
    assert reader.calls == 0 and _photos_counted() == 0


def test_a_photo_is_at_most_what_a_request_may_carry(settings, director_client, tournament):
    settings.PHOTO_MAX_BYTES = 50 * 1024 * 1024
    assert photo_max_bytes() == settings.REQUEST_MAX_BYTES
    settings.PHOTO_MAX_BYTES = 5 * 1024 * 1024
    big = photo("groot.jpg", b"\xff\xd8" + b"\0" * photo_max_bytes())
    response = upload(director_client, tournament, big)
    assert "groot.jpg: Het bestand is te groot: een foto mag hoogstens 5 MB zijn" in text(response)


def test_a_form_too_large_for_any_request_gets_a_page_that_says_so(settings, director_client):
    settings.REQUEST_MAX_BYTES = 1_000_000
    response = director_client.post(
        "/login/",
        data=b"x" * 1_000_001,
        content_type="multipart/form-data",
        HTTP_ACCEPT="text/html",
    )
    assert response.status_code == 413 and response["Content-Type"].startswith("text/html")
    assert "De site neemt hoogstens 1 MB tegelijk aan" in text(response)


def test_the_photos_are_asked_again_each_time_they_are_shown(
    director, director_client, tournament, table_1
):
    waiting = photo_waiting(table_1, by=director)
    for name in ("sheet_photo_page", "sheet_photo_original"):
        response = director_client.get(reverse(name, args=[tournament.slug, waiting.pk]))
        assert response["Cache-Control"] == "private, no-cache"
