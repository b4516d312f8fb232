"""Where the venue server listens, for the commands run beside it.

The print page knows the site's port from its own request; a command in another window
(``manage.py print_sheets``) does not. So ``manage.py serve`` (``make run``) records its
``BIND`` when it starts, per database, in a small file beside the key file
(``.bollen-server.json``), and a command uses that port for the QR codes, unless ``BIND`` is set
where the command runs. Nothing in the record is secret; a record that cannot be read or written
is none (the default port 8000 then).
"""

from __future__ import annotations

import json
import os
import socket
import tempfile
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import connection
from django.utils import timezone

RECORD_NAME = ".bollen-server.json"
RECORDS_KEPT = 10  # databases remembered (a checkout serves one or two)
PROBE_SECONDS = 0.3


class BindSource(StrEnum):
    ENVIRONMENT = "environment"  # BIND where this process runs
    RECORDED = "recorded"  # what ``serve`` last started with on this database
    DEFAULT = "default"  # nothing known: 0.0.0.0:8000, what ``make run`` listens on by default


@dataclass(frozen=True, slots=True)
class ServerBind:
    bind: str  # ``''`` for the default
    source: BindSource


def record_path() -> Path:
    """The record's file: in the folder of the key file (the checkout's, or the one
    ``SECRET_KEY_FILE`` names)."""
    key_file = getattr(settings, "SECRET_KEY_FILE", None)
    folder = Path(key_file).parent if key_file else Path(settings.BASE_DIR)
    return folder / RECORD_NAME


def _database_key() -> str:
    """The database this process uses (a test run's is its own, never a server's)."""
    details = connection.settings_dict
    return "|".join(str(details.get(part) or "") for part in ("ENGINE", "HOST", "PORT", "NAME"))


def _records() -> dict[str, Any]:
    try:
        records = json.loads(record_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return records if isinstance(records, dict) else {}


def recorded_bind() -> str | None:
    """The ``BIND`` the server last started with on this database; ``None``: not known."""
    entry = _records().get(_database_key())
    bind = entry.get("bind") if isinstance(entry, dict) else None
    return bind if isinstance(bind, str) and bind.strip() else None


def server_bind_record(bind: str) -> None:
    """Record that the server listens on ``bind`` (``serve``, once it listens). Written whole
    or not at all; a folder that cannot be written only means the commands guess the port."""
    records = {key: value for key, value in _records().items() if key != _database_key()}
    records[_database_key()] = {"bind": bind, "at": timezone.now().isoformat(timespec="seconds")}
    kept = dict(list(records.items())[-RECORDS_KEPT:])
    path = record_path()
    try:
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".partial-", suffix=".json")
    except OSError:
        return
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            json.dump(kept, stream, indent=1)
        os.replace(temporary, path)
    except OSError:
        Path(temporary).unlink(missing_ok=True)


def server_bind() -> ServerBind:
    """Where the site listens: ``BIND`` here, else what the server last started with, else
    the default."""
    bind = str(getattr(settings, "BIND", "") or os.environ.get("BIND", "")).strip()
    if bind:
        return ServerBind(bind, BindSource.ENVIRONMENT)
    recorded = recorded_bind()
    if recorded:
        return ServerBind(recorded.strip(), BindSource.RECORDED)
    return ServerBind("", BindSource.DEFAULT)


def answers(host: str, port: int) -> bool:
    """Whether something accepts a connection at ``host:port`` now (asked of this machine's own
    addresses only: refused at once when nothing listens)."""
    for address in dict.fromkeys(["127.0.0.1", host]):
        try:
            with socket.create_connection((address, port), timeout=PROBE_SECONDS):
                return True
        except OSError:
            continue
    return False
