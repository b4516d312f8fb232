"""Django's SQLite backend, with the database file readable by its owner only.

The file holds password hashes, sessions and the table links' secrets. SQLite creates it with
the process's umask (usually readable by every local account) and gives its ``-wal`` and
``-shm`` files the database file's own mode, so the file is made private before SQLite first
opens it, an existing one is made private when it is not, and the companion files follow.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

from django.db.backends.sqlite3 import base

PRIVATE = stat.S_IRUSR | stat.S_IWUSR  # 0o600
COMPANIONS = ("-wal", "-shm", "-journal")


def _on_disk(name: str) -> Path | None:
    """The database's file, or ``None`` for an in-memory database."""
    if not name or name == ":memory:" or "mode=memory" in name:
        return None
    if name.startswith("file:"):
        name = name[len("file:") :].split("?", 1)[0]
    return Path(name)


def file_private(path: Path) -> None:
    """Make ``path`` (created empty when missing) readable and writable by its owner only."""
    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, PRIVATE)
    except FileExistsError:
        if stat.S_IMODE(path.stat().st_mode) & 0o077:
            path.chmod(PRIVATE)
    else:
        os.close(fd)


class DatabaseWrapper(base.DatabaseWrapper):
    def get_new_connection(self, conn_params: dict[str, Any]) -> Any:
        path = _on_disk(str(conn_params.get("database", "")))
        if path is not None and path.parent.is_dir():
            file_private(path)
        connection = super().get_new_connection(conn_params)
        if path is not None:
            for suffix in COMPANIONS:
                companion = path.with_name(path.name + suffix)
                if companion.exists() and stat.S_IMODE(companion.stat().st_mode) & 0o077:
                    companion.chmod(PRIVATE)
        return connection
