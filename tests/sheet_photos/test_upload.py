"""Photos of score sheets uploaded on the round page and a table's link: each fills its
table's sheet as input waiting to be checked, nothing counts until a person saves, and a photo
that is not the page's sheet is refused with its reason, nothing stored."""

from __future__ import annotations

import html
import json
import re
import zlib

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import override_settings
from django.urls import reverse

from tests.factories import played_tournament
from tests.sheet_photos.fake_reader import jpeg, legal_deals
from tournament.models import CostlyWork, SheetPhoto, SheetVersion, Table
from tournament.sheets.forms import sheet_form_data
from tournament.sheets.services import sheet_record
from tournament.sheets.submission import SheetSubmission
from tournament.sheets.table_links import table_link_issue

pytestmark = pytest.mark.django_db


def photo(name: str = "IMG_0001.jpg", data: bytes | None = None) -> SimpleUploadedFile:
    """A photo named ``name``; photos of other names are other files (the same file sent
    again is not read again)."""
    if data is None:
        data = jpeg(colour=f"#{zlib.crc32(name.encode()) & 0xFFFFFF:06x}")
    return SimpleUploadedFile(name, data, content_type="image/jpeg")


def upload(client, tournament, *files, number: int = 1):
    url = reverse("round_photos", args=[tournament.slug, number])
    return client.post(url, {"photos": list(files)})


def text(response) -> str:
    return re.sub(r"\s+", " ", html.unescape(response.content.decode()))


def test_a_photo_on_the_round_page_fills_its_sheet_and_nothing_counts(
    director_client, tournament, table_1, reader
):
    reader.reads(table_1, uncertain=[(2, 1, "bid"), (5, 3, "tricks")])
    response = upload(director_client, tournament, photo("tafel1.jpg"))
    assert response.status_code == 200
    assert "tafel1.jpg: tafel 1 ingevuld van de foto, 2 vakjes om na te kijken." in text(response)
    waiting = SheetPhoto.objects.get(table=table_1)
    assert waiting.is_waiting and waiting.uploaded_by.username == "director"
    assert not SheetVersion.objects.filter(table=table_1).exists()  # nothing counts

    page = text(director_client.get(reverse("sheet_edit", args=[tournament.slug, 1, 1])))
    assert "2 vakjes om na te kijken" in page
    assert f'name="photo" value="{waiting.pk}"' in page
    # The reading is in the boxes; the doubtful ones are marked, with their reason as text.
    assert page.count('data-photo="doubt"') == 2
    assert "Spel 2 (2), " in page and "bod: niet zeker van het cijfer op de foto" in page
    assert reverse("sheet_photo_page", args=[tournament.slug, waiting.pk]) in page


def test_saving_the_checked_sheet_keeps_the_photo_with_the_new_version(
    director_client, director, tournament, table_1, reader
):
    reader.reads(table_1)
    upload(director_client, tournament, photo())
    waiting = SheetPhoto.objects.get(table=table_1)
    deals = legal_deals(4)
    cells = {
        (d["deal"], seat): (d["bids"][seat], d["tricks"][seat]) for d in deals for seat in range(4)
    }
    saved = sheet_record(
        table=table_1,
        submission=SheetSubmission(
            base_version=0, cells=cells, by_user=director, hold=True, photo_id=waiting.pk
        ),
    )
    waiting.refresh_from_db()
    assert waiting.version is not None and waiting.version.number == saved.version == 1
    history = text(director_client.get(reverse("sheet_history", args=[tournament.slug, 1, 1])))
    assert "bewaard bij versie 1" in history
    original = director_client.get(
        reverse("sheet_photo_original", args=[tournament.slug, waiting.pk])
    )
    assert original["Content-Type"] == "image/jpeg" and original.content[:2] == b"\xff\xd8"


def test_a_save_from_a_page_without_the_photo_leaves_it_waiting(
    director_client, director, tournament, table_1, reader
):
    reader.reads(table_1)
    upload(director_client, tournament, photo())
    sheet_record(
        table=table_1,
        submission=SheetSubmission(
            base_version=0,
            cells={(1, s): (0, 1 if s == 0 else 0) for s in range(4)},
            by_user=director,
        ),
    )
    assert SheetPhoto.objects.get(table=table_1).is_waiting


def test_the_sheet_page_sends_the_photo_with_its_save(director_client, tournament, table_1, reader):
    reader.reads(table_1)
    upload(director_client, tournament, photo())
    waiting = SheetPhoto.objects.get(table=table_1)
    url = reverse("sheet_edit", args=[tournament.slug, 1, 1])
    deals = legal_deals(4)
    cells = {(d["deal"], s): (d["bids"][s], d["tricks"][s]) for d in deals for s in range(4)}
    data = sheet_form_data(4, cells)
    data["photo"] = str(waiting.pk)
    response = director_client.post(url, data)
    assert response.status_code == 302
    waiting.refresh_from_db()
    assert waiting.version.number == 1


def test_another_tournaments_sheet_is_refused_and_nothing_is_stored(
    director_client, director, tournament, reader
):
    other = played_tournament(8, 1, director=director, seed=2)
    reader.reads(Table.objects.filter(round__tournament=other).first())
    response = upload(director_client, tournament, photo("vreemd.jpg"))
    assert response.status_code == 422
    assert "vreemd.jpg: Dit is een scoreformulier van een ander toernooi." in text(response)
    assert not SheetPhoto.objects.exists()


def test_a_photo_the_reader_cannot_read_is_named_with_its_reason(
    director_client, tournament, reader
):
    reader.fails("Er staat geen QR-code op de foto.")
    response = upload(director_client, tournament, photo("wazig.jpg"))
    assert "wazig.jpg: Er staat geen QR-code op de foto." in text(response)
    assert not SheetPhoto.objects.exists()


def test_a_file_that_is_not_a_photo_is_refused_before_it_is_read(
    director_client, tournament, reader
):
    response = upload(director_client, tournament, photo("uitslag.pdf", b"%PDF-1.4 not an image"))
    assert "uitslag.pdf: Dit is geen foto die de site kan lezen" in text(response)
    assert reader.calls == 0 and not SheetPhoto.objects.exists()


@override_settings(PHOTO_MAX_BYTES=1000)
def test_a_photo_too_large_is_refused(director_client, tournament, reader):
    response = upload(director_client, tournament, photo("groot.jpg"))
    assert "groot.jpg: Het bestand is te groot" in text(response)
    assert reader.calls == 0


def test_a_sheet_of_another_round_is_refused_on_this_rounds_page(director_client, director, reader):
    tournament = played_tournament(8, 2, director=director, last_round=[0, 0])
    reader.reads(Table.objects.get(round__tournament=tournament, round__number=1, number=1))
    response = upload(director_client, tournament, photo("r1.jpg"), number=2)
    assert "r1.jpg: Dit is het formulier van ronde 1, tafel 1" in text(response)
    assert not SheetPhoto.objects.exists()


def test_a_complete_round_reads_no_photos_and_keeps_its_counted_sheet(
    director_client, director, reader
):
    tournament = played_tournament(8, 1, director=director)  # every sheet complete
    table = Table.objects.get(round__tournament=tournament, number=1)
    before = list(SheetVersion.objects.filter(table=table).values_list("number", "cells"))
    response = upload(director_client, tournament, photo("t1.jpg"))
    assert "Ronde 1 is compleet" in text(response)
    assert reader.calls == 0  # refused before anything is read
    assert list(SheetVersion.objects.filter(table=table).values_list("number", "cells")) == before
    assert not SheetPhoto.objects.filter(table=table).exists()


def test_a_photo_equal_to_the_saved_sheet_is_kept_with_its_version(
    director_client, director, tournament, table_2, reader
):
    from tournament.adapter import table_sheet

    sheet = table_sheet(table_2).sheet
    deals = [
        {"deal": d, "bids": list(e.bids), "tricks": list(e.tricks)}
        for d, e in enumerate(sheet.deals, start=1)
    ]
    sheet_record(  # saved on the site once, so that there is a version to keep it with
        table=table_2,
        submission=SheetSubmission(
            base_version=0,
            cells={(1, s): (0, 1 if s == 0 else 0) for s in range(4)},
            by_user=director,
        ),
    )
    sheet = table_sheet(table_2).sheet
    deals = [
        {"deal": d, "bids": list(e.bids), "tricks": list(e.tricks)}
        for d, e in enumerate(sheet.deals, start=1)
    ]
    reader.reads(table_2, deals=deals)
    response = upload(director_client, tournament, photo("t2.jpg"))
    assert "de foto is gelijk aan het opgeslagen formulier" in text(response)
    kept = SheetPhoto.objects.get(table=table_2)
    assert not kept.is_waiting and kept.version.number == 1


def test_a_box_where_the_photo_differs_from_the_saved_sheet_names_the_saved_digit(
    director_client, director, tournament, table_2, reader
):
    sheet_record(  # deal 1 saved: the first row took the trick
        table=table_2,
        submission=SheetSubmission(
            base_version=0,
            cells={(1, s): (0, 1 if s == 0 else 0) for s in range(4)},
            by_user=director,
        ),
    )
    deals = legal_deals(4, upto=1)
    deals[0]["tricks"] = [0, 1, 0, 0]  # the photo: the second row took it
    reader.reads(table_2, deals=deals)
    upload(director_client, tournament, photo("t2.jpg"))
    page = text(director_client.get(reverse("sheet_edit", args=[tournament.slug, 1, 2])))
    assert page.count('data-photo="differs"') == 2
    assert "de foto wijkt af van het opgeslagen formulier (opgeslagen: 1)" in page
    assert "de foto wijkt af van het opgeslagen formulier (opgeslagen: 0)" in page
    config = re.search(r'id="sheet-config"[^>]*>(.*?)</script>', page).group(1)
    marks = json.loads(config)["photo"]["marks"]
    assert [(m["seat"], m["why"], m["saved"]) for m in marks] == [
        (0, "differs", 1),
        (1, "differs", 0),
    ]
    assert json.loads(config)["photo"]["messages"]["box_differs"] == (
        "foto wijkt af, opgeslagen: %(saved)s"
    )


def test_a_newer_photo_of_a_table_takes_the_waiting_ones_place(
    director_client, tournament, table_1, reader
):
    reader.reads(table_1)
    reader.reads(table_1)
    response = upload(director_client, tournament, photo("a.jpg"), photo("b.jpg"))
    assert "b.jpg: tafel 1" in text(response) and "eerdere foto van deze tafel" in text(response)
    assert SheetPhoto.objects.filter(table=table_1).count() == 2
    assert SheetPhoto.objects.filter(table=table_1, set_aside_at__isnull=True).count() == 1


def test_the_table_link_takes_a_photo_of_its_own_sheet_only(
    client, tournament, table_1, table_2, reader
):
    link = table_link_issue(table=table_1, by_user=None)
    url = reverse("table_entry_photos", args=[link.token])
    reader.reads(table_2)
    response = client.post(url, {"photos": [photo("buren.jpg")]}, follow=True)
    assert "buren.jpg: Dit is het formulier van tafel 2 (ronde 1), niet van deze tafel" in text(
        response
    )
    assert not SheetPhoto.objects.exists()

    reader.reads(table_1, uncertain=[(1, 0, "bid")])
    response = client.post(url, {"photos": [photo("eigen.jpg")]}, follow=True)
    page = text(response)
    assert "eigen.jpg: tafel 1 ingevuld van de foto, 1 vakje om na te kijken." in page
    waiting = SheetPhoto.objects.get()
    assert waiting.uploaded_by is None and waiting.via == SheetPhoto.Via.TABLE_LINK
    assert reverse("table_entry_photo_page", args=[link.token, waiting.pk]) in page
    assert (
        client.get(reverse("table_entry_photo_page", args=[link.token, waiting.pk])).status_code
        == 200
    )
    other = table_link_issue(table=table_2, by_user=None)
    assert (
        client.get(reverse("table_entry_photo_page", args=[other.token, waiting.pk])).status_code
        == 404
    )


@override_settings(COSTLY_PHOTOS_PER_ACCOUNT=2)
def test_one_account_reads_a_bounded_number_of_photos(director_client, tournament, table_1, reader):
    for _ in range(3):
        reader.reads(table_1)
    response = upload(director_client, tournament, photo("1.jpg"), photo("2.jpg"), photo("3.jpg"))
    assert reader.calls == 2
    assert "3.jpg: Er zijn de laatste minuten veel foto's" in text(response)
    assert CostlyWork.objects.filter(kind=CostlyWork.Kind.PHOTO).count() == 2


@override_settings(COSTLY_PHOTOS_PER_LINK=1)
def test_a_table_link_reads_a_bounded_number_of_photos(client, tournament, table_1, reader):
    link = table_link_issue(table=table_1, by_user=None)
    url = reverse("table_entry_photos", args=[link.token])
    reader.reads(table_1)
    client.post(url, {"photos": [photo()]})
    response = client.post(url, {"photos": [photo("weer.jpg")]}, follow=True)
    assert "weer.jpg: Er zijn de laatste minuten veel foto's" in text(response)
    assert reader.calls == 1


def test_the_script_gets_each_photos_outcome_as_json(director_client, tournament, table_1, reader):
    reader.reads(table_1)
    response = director_client.post(
        reverse("round_photos", args=[tournament.slug, 1]),
        {"photos": [photo("x.jpg")]},
        HTTP_X_REQUESTED_WITH="XMLHttpRequest",
    )
    (result,) = response.json()["results"]
    assert result["ok"] and result["table"] == 1
    assert result["url"] == reverse("sheet_edit", args=[tournament.slug, 1, 1])
