"""Erased names out of the backup files of a club's tournaments: each JSON file of their
backup folders is rewritten with every text equal to an erased name replaced."""

from __future__ import annotations

import json
import logging
import os
import tempfile
from pathlib import Path
from typing import Any

from django.conf import settings

logger = logging.getLogger(__name__)


def _replaced(value: Any, names: dict[str, str]) -> Any:
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, list):
        return [_replaced(item, names) for item in value]
    if isinstance(value, dict):
        return {key: _replaced(item, names) for key, item in value.items()}
    return value


def backups_scrub(*, folders: list[str], names: dict[str, str]) -> int:
    """Rewrite the backups under ``BACKUP_DIR/<folder>/`` with ``names`` replaced (old name
    -> new name); returns how many files changed. A file that cannot be read is logged and
    left (it holds no tournament file)."""
    root = Path(settings.BACKUP_DIR).resolve()
    changed = 0
    if not names:
        return changed
    for folder in folders:
        path = (root / folder).resolve()
        if path.parent != root or not path.is_dir():
            continue
        for file in sorted(path.glob("*.json")):
            try:
                data = json.loads(file.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                logger.warning("Backup %s not read to erase a name", file)
                continue
            scrubbed = _replaced(data, names)
            if scrubbed == data:
                continue
            handle, temporary = tempfile.mkstemp(dir=path, prefix=".partial-", suffix=".json")
            with os.fdopen(handle, "w", encoding="utf-8") as stream:
                json.dump(scrubbed, stream, ensure_ascii=False, indent=1)
            os.replace(temporary, file)
            changed += 1
    return changed
