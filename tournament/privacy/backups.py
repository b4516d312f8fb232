"""The backup files of a club's tournaments, for erasing a name in them or removing them
when the club goes.

Backups live in ``BACKUP_DIR/<tournament slug>/`` (``tournament_file.backups``), and a slug is
free again once its tournament is deleted: another club's later tournament may write into the
same folder. So a club's erasure or deletion never takes a folder as a whole: it touches only
the files of an ``Owner`` (one of its tournaments, current or deleted), that is the files of the
folder whose name starts with the slug, whose ``x-site`` record names the club, and whose time
stamp (in the name, written by ``tournament_backup``, never changed after) lies within the
tournament's life: from its creation (to the second) until it was deleted. A file that fails
any of these (another club's, a file of the site before clubs, a file that cannot be read) is
left as it is.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from django.conf import settings
from django.utils import timezone

logger = logging.getLogger(__name__)

# "<slug>-<label>-YYYYmmdd-HHMMSS[-n].json", as tournament_backup names its files.
_STAMP = re.compile(r"-(\d{8}-\d{6})(?:-\d+)?\.json$")


@dataclass(frozen=True, slots=True)
class Owner:
    """One tournament's backups: in the folder ``slug``, saying the club ``club`` (its
    slug), written from ``since`` (the tournament's creation) until ``until`` (its deletion;
    ``None`` while it exists)."""

    slug: str
    club: str
    since: datetime
    until: datetime | None = None


def _local(moment: datetime) -> datetime:
    """``moment`` as the naive local time of the file names, to the second."""
    return timezone.localtime(moment).replace(tzinfo=None, microsecond=0)


def _stamp(file: Path) -> datetime | None:
    match = _STAMP.search(file.name)
    if match is None:
        return None
    try:
        return datetime.strptime(match.group(1), "%Y%m%d-%H%M%S")
    except ValueError:
        return None


def _club_of(data: Any) -> str | None:
    """The club slug a backup's ``x-site`` record names (None: none)."""
    try:
        club = data["settings"]["x-site"]["club"]["slug"]
    except (KeyError, TypeError):
        return None
    return club if isinstance(club, str) else None


def _owned(owners: Iterable[Owner]) -> list[tuple[Path, Any]]:
    """The files of ``owners`` with their content, each file once."""
    root = Path(settings.BACKUP_DIR).resolve()
    found: dict[Path, Any] = {}
    for owner in owners:
        folder = (root / owner.slug).resolve()
        if folder.parent != root or not folder.is_dir():
            continue
        since = _local(owner.since)
        until = _local(owner.until) if owner.until is not None else None
        for file in sorted(folder.glob(f"{owner.slug}-*.json")):
            stamp = _stamp(file)
            if file in found or stamp is None or stamp < since:
                continue
            if until is not None and stamp > until:
                continue
            try:
                data = json.loads(file.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                logger.warning("Backup %s not read: left as it is", file)
                continue
            if _club_of(data) != owner.club:
                continue  # another club's (or the site's before clubs): never touched
            found[file] = data
    return list(found.items())


def _replaced(value: Any, names: dict[str, str]) -> Any:
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, list):
        return [_replaced(item, names) for item in value]
    if isinstance(value, dict):
        return {key: _replaced(item, names) for key, item in value.items()}
    return value


def backups_scrub(*, owners: Iterable[Owner], names: dict[str, str]) -> int:
    """Rewrite the backups of ``owners`` with ``names`` replaced (old name -> new name);
    returns how many files changed."""
    changed = 0
    if not names:
        return changed
    for file, data in _owned(owners):
        scrubbed = _replaced(data, names)
        if scrubbed == data:
            continue
        handle, temporary = tempfile.mkstemp(dir=file.parent, prefix=".partial-", suffix=".json")
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as stream:
                json.dump(scrubbed, stream, ensure_ascii=False, indent=1)
            os.replace(temporary, file)
        except OSError:
            Path(temporary).unlink(missing_ok=True)
            logger.exception("Backup %s not rewritten to erase a name", file)
            continue
        changed += 1
    return changed


def backups_remove(owners: Iterable[Owner]) -> int:
    """Remove the backups of ``owners`` (a folder left empty goes too); returns how many."""
    removed = 0
    folders: set[Path] = set()
    for file, _data in _owned(owners):
        try:
            file.unlink()
        except OSError:
            logger.exception("Backup %s not removed", file)
            continue
        removed += 1
        folders.add(file.parent)
    for folder in folders:
        with contextlib.suppress(OSError):  # only when empty: another club's files keep it
            folder.rmdir()
    return removed
