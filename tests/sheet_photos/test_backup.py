"""The photos of paper score sheets travel in the club's backup and come back with the club:
each on its table, with the version it ended up in and who sent it."""

from __future__ import annotations

import io
import json
import re
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.sheet_photos.fake_reader import jpeg, legal_deals
from tournament.club_file.reading import club_backup_read
from tournament.club_file.restoring import club_restore
from tournament.club_file.writing import club_backup_zip
from tournament.clubs.services import club_create
from tournament.errors import Refused
from tournament.models import SheetPhoto
from tournament.sheets.services import sheet_record
from tournament.sheets.submission import SheetSubmission

pytestmark = pytest.mark.django_db


@pytest.fixture
def photographed(director_client, director, tournament, table_1, table_2, reader):
    """Table 1's photo saved (kept with version 1), table 2's waiting to be checked."""
    reader.reads(table_1, uncertain=[(3, 2, "tricks")])
    reader.reads(table_2)
    url = reverse("round_photos", args=[tournament.slug, 1])
    files = [SimpleUploadedFile(f"t{n}.jpg", jpeg(colour=c)) for n, c in ((1, "red"), (2, "blue"))]
    director_client.post(url, {"photos": files})
    first = SheetPhoto.objects.get(table=table_1)
    cells = {
        (d["deal"], s): (d["bids"][s], d["tricks"][s]) for d in legal_deals(4) for s in range(4)
    }
    sheet_record(
        table=table_1,
        submission=SheetSubmission(
            base_version=0, cells=cells, by_user=director, photo_id=first.pk
        ),
    )
    return tournament


def _photos(tournament):
    return [
        (
            p.table.number,
            p.uploaded_by.username if p.uploaded_by else None,
            p.version.number if p.version else None,
            p.is_waiting,
            bytes(p.photo),
            bytes(p.page),
            p.reading,
            p.created_at,
        )
        for p in SheetPhoto.objects.filter(table__round__tournament=tournament).order_by(
            "table__number"
        )
    ]


def test_a_photo_survives_the_club_backup_and_its_restore(photographed, club, director):
    data = club_backup_zip(club)
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    assert f"photos/{photographed.slug}/1.jpg" in names
    new_club = club_create(name="Hersteld", admin=director)
    restored = club_restore(backup=club_backup_read(data), club=new_club)
    copy = next(iter(restored.tournaments.values()))
    assert copy.pk != photographed.pk
    assert _photos(copy) == _photos(photographed)
    assert [p[2:4] for p in _photos(copy)] == [(1, False), (None, True)]


def test_a_backup_whose_photo_is_not_a_jpeg_is_refused_whole(photographed, club, director):
    source = zipfile.ZipFile(io.BytesIO(club_backup_zip(club)))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as broken:
        for name in source.namelist():
            data = source.read(name)
            if name == f"photos/{photographed.slug}/1.jpg":
                data = b"not a photo"
            broken.writestr(name, data)
    with pytest.raises(Refused) as refused:
        club_backup_read(out.getvalue())
    assert (
        f"photos/{photographed.slug}/1.jpg: Het bestand is geen JPEG-foto." in refused.value.lines()
    )
    manifest = json.loads(source.read("manifest.json"))
    assert manifest["photos"] == [photographed.slug]


@pytest.mark.parametrize(
    "reading",
    [
        {"deals": "x", "uncertain": [], "boxes": {}},
        {"deals": [{"deal": 1, "bids": [99, "a"], "tricks": []}], "uncertain": [], "boxes": {}},
        {"deals": [], "uncertain": [[1, 0, "bod"]], "boxes": {}},
        {"deals": [], "uncertain": [], "boxes": {"1:0:bid": ["x", 1, 2, 3]}},
        {"deals": [], "uncertain": [], "boxes": {"1:0:bid": [10**400, 1, 2, 3]}},
    ],
)
def test_a_backup_whose_photo_reading_is_not_valid_is_refused_naming_the_photo(
    photographed, club, reading
):
    source = zipfile.ZipFile(io.BytesIO(club_backup_zip(club)))
    listing = f"photos/{photographed.slug}/photos.json"
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as crafted:
        for name in source.namelist():
            data = source.read(name)
            if name == listing:
                document = json.loads(data)
                document["photos"][0]["reading"] = reading
                data = json.dumps(document).encode()
            crafted.writestr(name, data)
    with pytest.raises(Refused) as refused:
        club_backup_read(out.getvalue())
    assert (
        f"{listing}: ronde 1, tafel 1, foto 1.jpg: wat ervan gelezen is, is niet geldig."
        in refused.value.lines()
    )


@pytest.mark.parametrize("resolution", ["NaN", "Infinity", "0", "1" + "0" * 400])
def test_a_backup_whose_photo_resolution_is_not_a_plain_number_is_refused(
    photographed, club, resolution
):
    source = zipfile.ZipFile(io.BytesIO(club_backup_zip(club)))
    listing = f"photos/{photographed.slug}/photos.json"
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as crafted:
        for name in source.namelist():
            data = source.read(name)
            if name == listing:  # as a hand-edited file may have it (Python's json reads it)
                text = json.dumps(json.loads(data))
                data = re.sub(r'"px_per_mm": [0-9.]+', f'"px_per_mm": {resolution}', text).encode()
            crafted.writestr(name, data)
    with pytest.raises(Refused) as refused:
        club_backup_read(out.getvalue())
    assert f"{listing}: ronde 1, tafel 1: de gegevens van een foto kloppen niet." in (
        refused.value.lines()
    )


def test_the_backup_carries_each_photos_file_hash(photographed, club, director):
    data = club_backup_zip(club)
    new_club = club_create(name="Hersteld", admin=director)
    restored = club_restore(backup=club_backup_read(data), club=new_club)
    copy = next(iter(restored.tournaments.values()))
    hashes = SheetPhoto.objects.filter(table__round__tournament=copy).values_list("sha256")
    assert sorted(hashes) == sorted(
        SheetPhoto.objects.filter(table__round__tournament=photographed).values_list("sha256")
    )
    assert all(len(h) == 64 for (h,) in hashes)
