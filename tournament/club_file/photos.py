"""The photos of paper score sheets in a club's backup (``docs/club-file.md``): for every
tournament with photos, ``photos/<slug>/photos.json`` (what each photo is: its round and
table, who sent it how and when, what was read, the version it ended up in) and each photo's
two JPEGs beside it (``<n>.jpg``, as uploaded; ``<n>-page.jpg``, straightened). The manifest
lists those tournaments under ``photos``. A photo is restored onto its table of the restored
tournament, with the version of the same number, and the account of the same username that
the restore gives the tournament's records."""

from __future__ import annotations

import datetime
import json
import re
import zipfile
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.utils.translation import gettext as _

from tournament.club_file.unpacking import Problems, UnpackedZip
from tournament.models import Club, SheetPhoto, SheetVersion, Table, Tournament
from tournament.sheets.photo_input import photo_reading_valid
from tournament.tournament_file.site import parse_time

PHOTOS = "photos"
PHOTOS_FORMAT = "bollen-sheet-photos"
VERSION = 1
SHA256 = re.compile(r"[0-9a-f]{64}")
JPEG_MAX_BYTES = 20 * 1024 * 1024
LIST_MAX_BYTES = 20 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class KeptPhoto:
    """One photo as the backup holds it, checked."""

    round: int
    table: int
    uploaded_by: str
    via: str
    created_at: datetime.datetime
    set_aside_at: datetime.datetime | None
    version: int | None
    px_per_mm: float
    reading: dict[str, Any]
    photo: bytes
    page: bytes
    sha256: str


def _list_name(slug: str) -> str:
    return f"{PHOTOS}/{slug}/photos.json"


def photo_slugs(tournaments: list[Tournament]) -> list[str]:
    """The tournaments (of ``tournaments``, in their order) that have photos."""
    having = set(
        SheetPhoto.objects.filter(table__round__tournament__in=tournaments)
        .values_list("table__round__tournament_id", flat=True)
        .distinct()
    )
    return [t.slug for t in tournaments if t.pk in having]


def photos_write(archive: zipfile.ZipFile, tournament: Tournament) -> None:
    """Write ``tournament``'s photos into ``archive`` (one photo's bytes in memory at a time)."""
    items = []
    photos = (
        SheetPhoto.objects.filter(table__round__tournament=tournament)
        .select_related("table__round", "uploaded_by", "version")
        .order_by("created_at", "pk")
    )
    for n, photo in enumerate(photos.iterator(chunk_size=20), start=1):
        archive.writestr(f"{PHOTOS}/{tournament.slug}/{n}.jpg", bytes(photo.photo))
        archive.writestr(f"{PHOTOS}/{tournament.slug}/{n}-page.jpg", bytes(photo.page))
        items.append(
            {
                "photo": f"{n}.jpg",
                "page": f"{n}-page.jpg",
                "round": photo.table.round.number,
                "table": photo.table.number,
                "uploaded_by": photo.uploaded_by.get_username() if photo.uploaded_by else "",
                "via": photo.via,
                "created_at": photo.created_at.isoformat(),
                "set_aside_at": photo.set_aside_at.isoformat() if photo.set_aside_at else None,
                "version": photo.version.number if photo.version else None,
                "px_per_mm": photo.px_per_mm,
                "reading": photo.reading,
                "sha256": photo.sha256,
            }
        )
    document = {"format": PHOTOS_FORMAT, "version": VERSION, "photos": items}
    archive.writestr(_list_name(tournament.slug), json.dumps(document, ensure_ascii=False))


def _tables(document: dict[str, Any]) -> set[tuple[object, object]]:
    return {
        (r.get("number"), t.get("number"))
        for r in document.get("rounds", [])
        if isinstance(r, dict)
        for t in r.get("tables", [])
        if isinstance(t, dict)
    }


def _item(
    archive: UnpackedZip,
    slug: str,
    item: Any,
    tables: set[tuple[object, object]],
    problems: Problems,
) -> KeptPhoto | None:
    where = _list_name(slug)
    fields: dict[str, type | tuple[type, ...]] = {
        "round": int,
        "table": int,
        "uploaded_by": str,
        "via": str,
        "created_at": str,
        "px_per_mm": (int, float),
        "reading": dict,
        "photo": str,
        "page": str,
    }
    if not isinstance(item, dict) or not all(isinstance(item.get(k), t) for k, t in fields.items()):
        problems.add(where, _("Each photo needs its round, table, time, reading and files."))
        return None
    place = _("round %(round)s, table %(table)s") % {"round": item["round"], "table": item["table"]}
    if (item["round"], item["table"]) not in tables:
        problems.add(where, _("%(place)s: the tournament has no such table.") % {"place": place})
        return None
    created, set_aside = parse_time(item["created_at"]), item.get("set_aside_at")
    aside = parse_time(set_aside) if isinstance(set_aside, str) else None
    version, sha256 = item.get("version"), item.get("sha256", "")
    if (
        created is None
        or item["via"] not in SheetPhoto.Via.values
        or (set_aside is not None and aside is None)
        or not (version is None or isinstance(version, int))
        or not (sha256 == "" or (isinstance(sha256, str) and SHA256.fullmatch(sha256)))
        or not _resolution_valid(item["px_per_mm"])
    ):
        problems.add(where, _("%(place)s: a photo's details are not valid.") % {"place": place})
        return None
    if not photo_reading_valid(item["reading"]):
        # The sheet pages show it: what they cannot read must not come in.
        problems.add(
            where,
            _("%(place)s, photo %(photo)s: what was read from it is not valid.")
            % {"place": place, "photo": item["photo"]},
        )
        return None
    images = []
    for key in ("photo", "page"):
        name = f"{PHOTOS}/{slug}/{item[key]}"
        data = archive.read(name, JPEG_MAX_BYTES, problems)
        if data is not None and not data.startswith(b"\xff\xd8"):
            problems.add(name, _("The file is not a JPEG photo."))
            data = None
        images.append(data)
    if images[0] is None or images[1] is None:
        return None
    return KeptPhoto(
        round=item["round"],
        table=item["table"],
        uploaded_by=item["uploaded_by"],
        via=item["via"],
        created_at=created,
        set_aside_at=aside,
        version=version,
        px_per_mm=float(item["px_per_mm"]),
        reading=item["reading"],
        photo=images[0],
        page=images[1],
        sha256=sha256,
    )


def _resolution_valid(value: object) -> bool:
    """The straightened page's pixels per mm: a plain number the site could have written (it
    writes 8), not NaN, infinity, zero or a number too large to be a float."""
    try:
        number = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError, OverflowError):
        return False
    return 1.0 <= number <= 50.0


def photos_read(
    archive: UnpackedZip,
    slugs: Any,
    tournaments: dict[str, dict[str, Any]],
    problems: Problems,
    listed: set[str],
) -> dict[str, list[KeptPhoto]]:
    """The photos of every tournament the manifest lists under ``photos`` (none when it lists
    none: a backup written before photos were kept), checked; the files read are ``listed``."""
    if slugs is None:
        return {}
    if not isinstance(slugs, list) or not all(isinstance(s, str) for s in slugs):
        problems.add("manifest.json", _("photos must be a list of short names."))
        return {}
    kept: dict[str, list[KeptPhoto]] = {}
    for slug in slugs:
        name = _list_name(slug)
        listed.add(name)
        if slug not in tournaments:
            problems.add(name, _("Its tournament is not in the backup."))
            continue
        raw = archive.read(name, LIST_MAX_BYTES, problems)
        try:
            document = json.loads(raw) if raw is not None else None
        except ValueError:
            problems.add(name, _("The file is not valid JSON."))
            continue
        if not isinstance(document, dict) or document.get("format") != PHOTOS_FORMAT:
            if raw is not None:
                problems.add(name, _("format must be %(format)s.") % {"format": PHOTOS_FORMAT})
            continue
        items = document.get("photos")
        if not isinstance(items, list):
            problems.add(name, _("photos must be a list."))
            continue
        tables = _tables(tournaments[slug])
        photos = []
        for item in items:
            if isinstance(item, dict):
                listed.update(f"{PHOTOS}/{slug}/{item.get(k)}" for k in ("photo", "page"))
            photo = _item(archive, slug, item, tables, problems)
            if photo is not None:
                photos.append(photo)
        waiting = [(p.round, p.table) for p in photos if p.version is None and not p.set_aside_at]
        if len(waiting) != len(set(waiting)):
            problems.add(name, _("A table has more than one photo waiting to be checked."))
        kept[slug] = photos
    return kept


def photos_restore(
    club: Club, tournament: Tournament, photos: list[KeptPhoto], notes: list[str]
) -> None:
    """Put ``photos`` back onto the restored ``tournament``'s tables."""
    tables = {
        (t.round.number, t.number): t
        for t in Table.objects.filter(round__tournament=tournament).select_related("round")
    }
    versions = {
        (v.table_id, v.number): v
        for v in SheetVersion.objects.filter(
            table__round__tournament=tournament, number__isnull=False
        )
    }
    names = {p.uploaded_by for p in photos if p.uploaded_by}
    users = _accounts(club, names)
    made = []
    for photo in photos:
        table = tables[photo.round, photo.table]
        version = versions.get((table.pk, photo.version)) if photo.version is not None else None
        made.append(
            SheetPhoto(
                table=table,
                uploaded_by=users.get(photo.uploaded_by),
                via=photo.via,
                photo=photo.photo,
                page=photo.page,
                px_per_mm=photo.px_per_mm,
                reading=photo.reading,
                sha256=photo.sha256,
                version=version,
                # A photo whose version is gone (not in the file) is kept, not waiting again.
                set_aside_at=photo.set_aside_at
                or (photo.created_at if photo.version is not None and version is None else None),
            )
        )
    SheetPhoto.objects.bulk_create(made)
    for row, photo in zip(made, photos, strict=True):
        row.created_at = photo.created_at  # kept: when it was uploaded
    SheetPhoto.objects.bulk_update(made, ["created_at"])
    missing = sorted(names - users.keys())
    if missing:
        notes.append(
            _("%(tournament)s: photos sent by %(names)s are kept without their account.")
            % {"tournament": tournament.name, "names": ", ".join(missing)}
        )


def _accounts(club: Club, names: set[str]) -> dict[str, User]:
    """The accounts of those usernames that the restore may name: the club's people (on a
    site of one club, any account), as the tournaments' records are put back."""
    model = get_user_model()
    found = model.objects.filter(**{f"{model.USERNAME_FIELD}__in": names})
    if Club.objects.exclude(pk=club.pk).exists():
        found = found.filter(club_roles__club=club)
    return {u.get_username(): u for u in found}
