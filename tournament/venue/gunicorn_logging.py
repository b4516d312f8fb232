"""Gunicorn's access log without the secrets of table links and invitations.

``deploy/gunicorn.conf.py`` sets ``logger_class`` to :class:`MaskedLogger`: every part of an
access-log line (the request line, the path, the query, the referrer, which a page opened from a
table link sends with each of its requests) has ``/s/<token>`` and ``/join/<token>`` masked,
and so has every line of the error log. The access line ends with the request's id (the
response's ``X-Request-ID``, see tournament/venue/request_ids.py). With ``LOG_FORMAT=json`` in the
environment every line, access and error, is one JSON object, as the site's own lines are.
"""

from __future__ import annotations

import json
import os
from collections.abc import MutableMapping
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, cast

from gunicorn.glogging import Logger

from tournament.venue.log_filters import mask_secrets
from tournament.venue.request_ids import JsonFormatter

if TYPE_CHECKING:
    from gunicorn.config import Config
    from gunicorn.glogging import _AtomsDict
    from gunicorn.http import Request
    from gunicorn.http.wsgi import Response


def json_lines() -> bool:
    return os.environ.get("LOG_FORMAT", "").strip().lower() == "json"


class MaskedLogger(Logger):
    def setup(self, cfg: Config) -> None:
        super().setup(cfg)
        if json_lines():
            for handler in self.error_log.handlers:
                handler.setFormatter(JsonFormatter())

    def access(
        self,
        resp: Response,
        req: Request,
        environ: MutableMapping[str, Any],
        request_time: timedelta,
    ) -> None:
        if not json_lines():
            super().access(resp, req, environ, request_time)
            return
        if not self.access_log_enabled:
            return
        atoms = self.atoms(resp, req, environ, request_time)
        entry = {
            "time": datetime.now(UTC).isoformat(timespec="milliseconds"),
            "level": "INFO",
            "logger": "gunicorn.access",
            "message": atoms["r"],
            "request_id": atoms.get("{x-request-id}o"),
            "status": atoms["s"],
            "bytes": atoms["B"],
            "duration_ms": atoms["M"],
            "remote_addr": atoms["h"],
            "referrer": atoms["f"],
            "user_agent": atoms["a"],
        }
        self.access_log.info(json.dumps(entry, ensure_ascii=False))

    def atoms(
        self,
        resp: Response,
        req: Request,
        environ: MutableMapping[str, Any],
        request_time: timedelta,
    ) -> _AtomsDict:
        atoms = super().atoms(resp, req, environ, request_time)
        # The same keys; each text masked.
        return cast(
            "_AtomsDict",
            {
                key: mask_secrets(value) if isinstance(value, str) else value
                for key, value in atoms.items()
            },
        )

    def error(self, msg: object, *args: object, **kwargs: Any) -> None:
        super().error(mask_secrets(str(msg)), *args, **kwargs)

    def warning(self, msg: object, *args: object, **kwargs: Any) -> None:
        super().warning(mask_secrets(str(msg)), *args, **kwargs)
