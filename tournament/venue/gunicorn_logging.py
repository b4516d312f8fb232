"""Gunicorn's access log without the secrets of table links and invitations.

``deploy/gunicorn.conf.py`` sets ``logger_class`` to :class:`MaskedLogger`: every part of an
access-log line (the request line, the path, the query, the referrer, which a page opened from a
table link sends with each of its requests) has ``/s/<token>`` and ``/join/<token>`` masked,
and so has every line of the error log.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from datetime import timedelta
from typing import TYPE_CHECKING, Any, cast

from gunicorn.glogging import Logger

from tournament.venue.log_filters import mask_secrets

if TYPE_CHECKING:
    from gunicorn.glogging import _AtomsDict
    from gunicorn.http import Request
    from gunicorn.http.wsgi import Response


class MaskedLogger(Logger):
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
