"""Writing a club's backup (``docs/club-file.md``): one zip holding everything the club has.

- ``manifest.json``: what the zip holds: the club's tournaments (by short name, oldest first)
  and competitions, and which tournament each evening of a competition is;
- ``club.json``: the club's settings, its people's roles by username, its member register and
  its log (erasures, consent changes);
- ``tournaments/<slug>.json``: every tournament of the club as its backup writes it
  (``tournament_export``, with the site's records in ``settings["x-site"]``);
- ``competitions/<slug>.json``: every competition as its competition file
  (``competition_export``);
- ``photos/<slug>/``: the photos of the tournament's paper score sheets (``photos``).

A tournament that is an evening of a competition is written once, in ``tournaments/``; the
competition file holds it too (it is a whole competition file, importable on its own), and the
manifest says which tournament each evening is, so a restore makes it once.

The club's settings and the register's members are written field by field from the models
(``CLUB_SKIPPED``, ``MEMBER_SKIPPED`` name what is not): a field added to ``Club`` or
``Member`` later travels in the backup without a change here.
"""

from __future__ import annotations

import datetime
import io
import json
import zipfile
from typing import Any

from django.db import connection, models, transaction
from django.utils import timezone

from tournament.club_file.photos import photo_slugs, photos_write
from tournament.models import (
    Club,
    ClubLogEntry,
    ClubRole,
    Competition,
    CompetitionEvening,
    Member,
    Tournament,
)
from tournament.season.file_export import competition_export
from tournament.tournament_file.exporting import tournament_export

MANIFEST_FORMAT = "bollen-club-backup"
CLUB_FORMAT = "bollen-club"
VERSION = 1
MANIFEST = "manifest.json"
CLUB_JSON = "club.json"
TOURNAMENTS = "tournaments"
COMPETITIONS = "competitions"

# Not written: the row's own keys and times (a restore makes new ones), and what belongs to
# the site rather than to the club (the slug: the restoring club keeps its own).
CLUB_SKIPPED = frozenset({"id", "slug", "created_at"})
# Written apart: ``pk`` and ``created_at`` name the record the tournaments' ``x-site`` members
# point at (``tournament_file.site_members``).
MEMBER_SKIPPED = frozenset({"id", "register", "created_at"})
# The club's log keeps who by their name (``by_name``): the account is this site's.
LOG_SKIPPED = frozenset({"id", "club", "by"})


def model_values(instance: models.Model, skipped: frozenset[str]) -> dict[str, Any]:
    """The instance's own (not relational) fields as JSON values, by field name."""
    values: dict[str, Any] = {}
    for field in instance._meta.concrete_fields:
        if field.name in skipped or field.is_relation:
            continue
        value = getattr(instance, field.attname)
        if isinstance(value, datetime.date | datetime.datetime):
            value = value.isoformat()
        values[field.name] = value
    return values


def member_file_ids(club: Club) -> tuple[list[Member], dict[int, str]]:
    """The register in the competition file's order, with the ids a competition file gives its
    members (``m1``, ``m2`` …: ``season.file_export``), so ``club.json`` and every competition
    file of one backup name a member alike."""
    members = list(Member.objects.filter(register=club).order_by("name", "pk"))
    return members, {m.pk: f"m{n}" for n, m in enumerate(members, 1)}


def club_document(club: Club) -> dict[str, Any]:
    """``club.json``: the club's settings, its people, its register and its log."""
    members, file_id = member_file_ids(club)
    people = (
        ClubRole.objects.filter(club=club)
        .order_by("role", "user__username")
        .values_list("user__username", "role")
    )
    return {
        "format": CLUB_FORMAT,
        "version": VERSION,
        "slug": club.slug,
        "settings": model_values(club, CLUB_SKIPPED),
        "people": [{"username": name, "role": role} for name, role in people],
        "members": [
            {
                "id": file_id[m.pk],
                "pk": m.pk,
                "created_at": m.created_at.isoformat(),
                **model_values(m, MEMBER_SKIPPED),
            }
            for m in members
        ],
        "log": [
            model_values(entry, LOG_SKIPPED)
            for entry in ClubLogEntry.objects.filter(club=club).order_by("at", "pk")
        ],
    }


def _json(document: Any) -> bytes:
    return json.dumps(document, ensure_ascii=False, indent=1).encode("utf-8")


def _consistent_read() -> None:
    """On PostgreSQL, read the whole club as one moment (its register and every tournament
    agree) while evenings go on; SQLite reads one moment anyway. Called as the first statement
    of the backup's own transaction (inside a caller's transaction, the tests', it is not)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")


def club_backup_zip(club: Club) -> bytes:
    """The club's backup as the bytes of a zip (see the module)."""
    outer = connection.in_atomic_block
    with transaction.atomic():
        if not outer:
            _consistent_read()
        return _zip(club)


def _zip(club: Club) -> bytes:
    club_doc = club_document(club)
    tournaments = list(
        Tournament.objects.filter(club=club).select_related("club").order_by("created_at", "pk")
    )
    competitions = list(Competition.objects.filter(club=club).order_by("created_at", "pk"))
    evenings: dict[int, list[dict[str, Any]]] = {}
    for competition_id, number, slug in (
        CompetitionEvening.objects.filter(competition__club=club)
        .order_by("competition_id", "number")
        .values_list("competition_id", "number", "tournament__slug")
    ):
        evenings.setdefault(competition_id, []).append({"number": number, "tournament": slug})
    with_photos = photo_slugs(tournaments)
    manifest = {
        "format": MANIFEST_FORMAT,
        "version": VERSION,
        "written_at": timezone.now().isoformat(),
        "club": {"slug": club.slug, "name": club.name},
        "tournaments": [t.slug for t in tournaments],
        "competitions": [
            {"slug": c.slug, "evenings": evenings.get(c.pk, [])} for c in competitions
        ],
        "photos": with_photos,
    }
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(MANIFEST, _json(manifest))
        archive.writestr(CLUB_JSON, _json(club_doc))
        for tournament in tournaments:
            document = tournament_export(tournament=tournament)
            archive.writestr(f"{TOURNAMENTS}/{tournament.slug}.json", _json(document))
            if tournament.slug in with_photos:
                photos_write(archive, tournament)
        for competition in competitions:
            document = competition_export(competition=competition)
            archive.writestr(f"{COMPETITIONS}/{competition.slug}.json", _json(document))
    return buffer.getvalue()


def club_backup_filename(club: Club) -> str:
    return f"{club.slug}-backup-{timezone.localdate().isoformat()}.zip"
