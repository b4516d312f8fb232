"""Reading and checking a club's backup (``docs/club-file.md``) before anything is stored.

The whole zip is read and checked: the manifest, ``club.json`` (the club's settings and the
register's members field by field, with the models' own checks), every tournament with the
tournament file's check (schema, every rule of the game, the site's records), every
competition with the competition file's check, and how they point at one another (a player's
member is in the register, an evening is a tournament of the zip). Every problem is named with
the file it is in; one problem refuses the whole backup.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings as django_settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext as _

from tournament.club_file.photos import KeptPhoto, photos_read
from tournament.club_file.unpacking import (
    MAX_FILES,
    SMALL_MAX_BYTES,
    ClubFileRefusal,
    Problems,
    UnpackedZip,
)
from tournament.club_file.writing import (
    CLUB_FORMAT,
    CLUB_JSON,
    CLUB_SKIPPED,
    COMPETITIONS,
    LOG_SKIPPED,
    MANIFEST,
    MANIFEST_FORMAT,
    MEMBER_SKIPPED,
    TOURNAMENTS,
    VERSION,
)
from tournament.errors import Refused
from tournament.models import Club, ClubLogEntry, ClubRole, Member
from tournament.season.file import MAX_EVENINGS, competition_file_check
from tournament.tournament_file.reading import tournament_file_check, tournament_file_parse
from tournament.tournament_file.site import SITE_KEY, parse_time

SLUG = re.compile(r"^[-a-zA-Z0-9_]{1,80}$")
MAX_MEMBERS = 20_000
MAX_PEOPLE = 1_000
MAX_LOG = 100_000


@dataclass(frozen=True)
class ClubBackup:
    """A checked club backup: ``club.json``, the tournaments and competitions by short name
    (in the manifest's order), and each competition's evenings as (number, tournament)."""

    club: dict[str, Any]
    tournaments: dict[str, dict[str, Any]]
    competitions: dict[str, dict[str, Any]]
    evenings: dict[str, list[tuple[int, str]]]
    photos: dict[str, list[KeptPhoto]] = field(default_factory=dict)


def _read_json(archive: UnpackedZip, name: str, limit: int, problems: Problems) -> Any:
    """The JSON document ``name`` of the zip, or ``None`` with a problem."""
    raw = archive.read(name, limit, problems)
    if raw is None:
        return None
    try:
        return tournament_file_parse(raw)
    except Refused as refused:
        problems.refused(name, refused)
        return None


def _header(document: Any, name: str, file_format: str, problems: Problems) -> bool:
    if not isinstance(document, dict) or document.get("format") != file_format:
        problems.add(name, _("format must be %(format)s.") % {"format": file_format})
        return False
    if document.get("version") != VERSION:
        problems.add(
            name,
            _("This site reads version %(version)s of this file, not %(other)s.")
            % {"version": VERSION, "other": str(document.get("version"))[:20]},
        )
        return False
    return True


def _slugs(value: Any, where: str, problems: Problems) -> list[str]:
    if not isinstance(value, list) or len(value) > MAX_FILES:
        problems.add(where, _("At most %(max)s short names.") % {"max": MAX_FILES})
        return []
    if not all(isinstance(s, str) and SLUG.match(s) for s in value):
        problems.add(where, _("Short names are letters, digits, - and _ (at most 80)."))
        return []
    for slug, count in Counter(value).items():
        if count > 1:
            problems.add(where, _("%(slug)s is listed more than once.") % {"slug": slug})
    return list(dict.fromkeys(value))


def _manifest(document: Any, problems: Problems) -> tuple[list[str], dict[str, Any]]:
    """The tournaments and {competition: evenings} the manifest lists."""
    if not _header(document, MANIFEST, MANIFEST_FORMAT, problems):
        return [], {}
    tournaments = _slugs(document.get("tournaments"), MANIFEST, problems)
    items = document.get("competitions")
    if (
        not isinstance(items, list)
        or len(items) > MAX_FILES
        or not all(isinstance(i, dict) for i in items)
    ):
        problems.add(MANIFEST, _("competitions must be a list of objects."))
        return tournaments, {}
    slugs = _slugs([i.get("slug") for i in items], MANIFEST, problems)
    if len(slugs) != len(items):
        return tournaments, {}
    competitions: dict[str, Any] = {}
    for item in items:
        where = f"{MANIFEST}: {item['slug']}"
        evenings = item.get("evenings")
        if (
            not isinstance(evenings, list)
            or len(evenings) > MAX_EVENINGS
            or not all(
                isinstance(e, dict)
                and isinstance(e.get("number"), int)
                and e.get("tournament") in tournaments
                for e in evenings
            )
        ):
            problems.add(
                where,
                _("Each evening needs its number and a tournament the backup holds."),
            )
            continue
        competitions[item["slug"]] = [(e["number"], e["tournament"]) for e in evenings]
    return tournaments, competitions


def _fields_problems(model: type[models.Model], values: Any, skipped: frozenset[str]) -> list[str]:
    """What is wrong with ``values`` as the fields of a ``model``, by the model's own checks."""
    if not isinstance(values, dict):
        return [_("This must be an object.")]
    fields = {
        f.name: f
        for f in model._meta.concrete_fields
        if f.name not in skipped and not f.is_relation
    }
    found = []
    unknown = sorted(str(k) for k in values if k not in fields)
    if unknown:
        found.append(_("Unknown keys: %(keys)s.") % {"keys": ", ".join(unknown)})
    for key, value in values.items():
        if key not in fields:
            continue
        if isinstance(value, dict | list) or (isinstance(value, str) and len(value) > 10_000):
            found.append(_("%(key)s: not a value this field takes.") % {"key": key})
            continue
        try:
            fields[key].clean(value, None)
        except ValidationError as error:
            found.append(f"{key}: {' '.join(error.messages)}")
    return found


def _club(document: Any, problems: Problems) -> dict[str, tuple[int, str]]:
    """Check ``club.json``; the register's members as ``{file id: (pk, created_at)}``."""
    if not _header(document, CLUB_JSON, CLUB_FORMAT, problems):
        return {}
    for message in _fields_problems(Club, document.get("settings", {}), CLUB_SKIPPED):
        problems.add(f"{CLUB_JSON}: {_('settings')}", message)
    people = document.get("people", [])
    where = f"{CLUB_JSON}: {_('people')}"
    if not isinstance(people, list) or len(people) > MAX_PEOPLE:
        problems.add(where, _("people must be a list of usernames with their role."))
    else:
        for person in people:
            if not (
                isinstance(person, dict)
                and isinstance(person.get("username"), str)
                and 0 < len(person["username"]) <= 150
                and person.get("role") in ClubRole.Role.values
            ):
                problems.add(
                    where,
                    _("%(person)s: a person is a username and a role (admin or director).")
                    % {"person": str(person)[:80]},
                )
        names = Counter(p.get("username") for p in people if isinstance(p, dict))
        for name, count in names.items():
            if count > 1:
                problems.add(where, _("%(name)s is listed more than once.") % {"name": name})
    log = document.get("log", [])
    where = f"{CLUB_JSON}: log"
    if not isinstance(log, list) or len(log) > MAX_LOG:
        problems.add(where, _("log must be a list of at most %(max)s entries.") % {"max": MAX_LOG})
    else:
        for index, entry in enumerate(log, 1):
            for message in _fields_problems(ClubLogEntry, entry, LOG_SKIPPED):
                problems.add(f"{where} {index}", message)
            if isinstance(entry, dict) and not {"at", "action", "text"} <= entry.keys():
                problems.add(f"{where} {index}", _("An entry needs at, action and text."))
    return _register(document.get("members", []), problems)


def _register(members: Any, problems: Problems) -> dict[str, tuple[int, str]]:
    where = f"{CLUB_JSON}: {_('members')}"
    if not isinstance(members, list) or len(members) > MAX_MEMBERS:
        problems.add(
            where, _("members must be a list of at most %(max)s members.") % {"max": MAX_MEMBERS}
        )
        return {}
    found: dict[str, tuple[int, str]] = {}
    pks: set[int] = set()
    numbers: Counter[str] = Counter()
    for index, item in enumerate(members, 1):
        label = f"{where} {index}"
        if not isinstance(item, dict):
            problems.add(label, _("A member must be an object."))
            continue
        own = {k: v for k, v in item.items() if k not in ("id", "pk", "created_at")}
        label = f"{label} ({str(own.get('name', ''))[:80]})"
        file_id, pk, created = item.get("id"), item.get("pk"), item.get("created_at")
        if not (isinstance(file_id, str) and 0 < len(file_id) <= 64) or file_id in found:
            problems.add(label, _("id must be a text of 1 to 64 characters, each id once."))
        elif not (isinstance(pk, int) and not isinstance(pk, bool)) or pk in pks:
            problems.add(label, _("pk must be a whole number, each once."))
        elif not isinstance(created, str) or parse_time(created) is None:
            problems.add(
                label, _("%(key)s must be a date and time (ISO 8601).") % {"key": "created_at"}
            )
        else:
            found[file_id] = (pk, created)
            pks.add(pk)
        for message in _fields_problems(Member, own, MEMBER_SKIPPED):
            problems.add(label, message)
        if "name" not in own:
            problems.add(label, _("A member needs a name."))
        if isinstance(own.get("number"), str) and own["number"].strip():
            numbers[own["number"].strip()] += 1
    for number, count in numbers.items():
        if count > 1:
            problems.add(
                where,
                _("The member number %(number)s is given %(count)s times.")
                % {"number": number, "count": count},
            )
    return found


def _tournament(document: Any, name: str, register: dict[int, str], problems: Problems) -> bool:
    try:
        tournament_file_check(document)
    except Refused as refused:
        problems.refused(name, refused)
        return False
    for item in (document["settings"].get(SITE_KEY) or {}).get("members", []):
        if register.get(item["id"]) is None or parse_time(register[item["id"]]) != parse_time(
            item["created_at"]
        ):
            problems.add(
                name,
                _("Player %(player)s is a member club.json does not have (%(id)s).")
                % {"player": item["player"], "id": item["id"]},
            )
    return True


def _competition(
    document: Any, name: str, club_members: dict[str, dict[str, Any]], problems: Problems
) -> bool:
    try:
        competition_file_check(document)
    except Refused as refused:
        problems.refused(name, refused)
        return False
    for item in document.get("members", []):
        same = club_members.get(item["id"])
        if (
            same is None
            or same.get("name") != item["name"]
            or (same.get("number", "") != item.get("number", ""))
        ):
            problems.add(
                name,
                _("Member %(id)s (%(name)s) is not so in club.json.")
                % {"id": item["id"], "name": item["name"]},
            )
    return True


def _evenings(
    document: dict[str, Any],
    name: str,
    listed: list[tuple[int, str]],
    tournaments: dict[str, dict[str, Any]],
    problems: Problems,
) -> None:
    """The competition's evenings are the manifest's, each a tournament of the zip once, and
    the players they name are players of that tournament."""
    evenings = dict(listed)
    numbers = sorted(number for number, _slug in listed)
    slugs = [slug for _number, slug in listed]
    if sorted(e["number"] for e in document["evenings"]) != numbers or len(set(slugs)) != len(
        slugs
    ):
        problems.add(name, _("Its evenings are not the evenings manifest.json lists for it."))
        return
    for item in document["evenings"]:
        tournament = tournaments.get(evenings[item["number"]])
        if tournament is None:
            continue  # the tournament's own problems are listed
        players = {p["id"] for p in tournament["players"]}
        named = set(item.get("members", {})) | set(item.get("questions", {}))
        for player in sorted(named - players):
            problems.add(
                name,
                _("Evening %(number)s names player %(player)s, who is not a player of %(file)s.")
                % {
                    "number": item["number"],
                    "player": player,
                    "file": f"{TOURNAMENTS}/{evenings[item['number']]}.json",
                },
            )


def club_backup_read(data: bytes) -> ClubBackup:
    """Read and check a club backup; ``Refused`` with every problem, by file, else the
    checked backup (see the module)."""
    archive = UnpackedZip(data)
    names = archive.names
    if MANIFEST not in names:
        raise Refused.because(ClubFileRefusal.NO_MANIFEST)
    problems = Problems()
    manifest = _read_json(archive, MANIFEST, SMALL_MAX_BYTES, problems)
    if manifest is None:  # nothing else can be checked
        raise Refused(problems.items)
    tournament_slugs, competition_evenings = _manifest(manifest, problems)
    club = _read_json(archive, CLUB_JSON, SMALL_MAX_BYTES, problems)
    register = _club(club, problems) if club is not None else {}
    by_pk = {pk: created for pk, created in register.values()}
    club_members = {
        m["id"]: m
        for m in (club.get("members") if isinstance(club, dict) else None) or []
        if isinstance(m, dict) and isinstance(m.get("id"), str)
    }

    listed = {MANIFEST, CLUB_JSON}
    tournaments: dict[str, dict[str, Any]] = {}
    for slug in tournament_slugs:
        name = f"{TOURNAMENTS}/{slug}.json"
        listed.add(name)
        document = _read_json(archive, name, django_settings.IMPORT_MAX_BYTES, problems)
        if document is not None and _tournament(document, name, by_pk, problems):
            tournaments[slug] = document
    competitions: dict[str, dict[str, Any]] = {}
    for slug, evenings in competition_evenings.items():
        name = f"{COMPETITIONS}/{slug}.json"
        listed.add(name)
        document = _read_json(archive, name, django_settings.IMPORT_MAX_BYTES, problems)
        if document is None or not _competition(document, name, club_members, problems):
            continue
        _evenings(document, name, evenings, tournaments, problems)
        competitions[slug] = document
    photos = photos_read(archive, manifest.get("photos"), tournaments, problems, listed)
    for name in sorted(names - listed):
        problems.add(name, _("The file is not listed in manifest.json."))
    if problems.items:
        raise Refused(problems.items)
    return ClubBackup(
        club=club,
        tournaments=tournaments,
        competitions=competitions,
        evenings=competition_evenings,
        photos=photos,
    )
