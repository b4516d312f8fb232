"""Gunicorn's access log without the secrets of table links and invitations.

``deploy/gunicorn.conf.py`` sets ``logger_class`` to :class:`MaskedLogger`: every part of an
access-log line (the request line, the path, the query, the referrer, which a page opened from a
table link sends with each of its requests) has ``/s/<token>`` and ``/join/<token>`` masked,
and so has every line of the error log.
"""

from __future__ import annotations

from gunicorn.glogging import Logger

from tournament.venue.log_filters import mask_secrets


class MaskedLogger(Logger):
    def atoms(self, resp, req, environ, request_time):
        atoms = super().atoms(resp, req, environ, request_time)
        return {
            key: mask_secrets(value) if isinstance(value, str) else value
            for key, value in atoms.items()
        }

    def error(self, msg, *args, **kwargs):
        super().error(mask_secrets(str(msg)), *args, **kwargs)

    def warning(self, msg, *args, **kwargs):
        super().warning(mask_secrets(str(msg)), *args, **kwargs)
