"""A request id on every request and on every log line written while it is served, and the
log lines as JSON for a log collector (``LOG_FORMAT=json``).

The id comes from the reverse proxy's ``X-Request-ID`` header (nginx's ``$request_id``, see
deploy/nginx-bollen.conf) when the request came from a proxy of ``TRUSTED_PROXIES`` and the id
is a plain token, so the proxy's access log, gunicorn's and the site's lines of one request carry
the same id; otherwise the site makes one (a visitor cannot give their requests the id of
someone else's to muddle the log). It is sent back in
the response's ``X-Request-ID`` header (gunicorn's access log reads it from there).
"""

from __future__ import annotations

import json
import logging
import re
import uuid
from collections.abc import Callable
from contextvars import ContextVar
from datetime import UTC, datetime

from django.core.signals import request_finished
from django.http import HttpRequest, HttpResponse

from tournament.venue.proxy import sent_by_trusted_proxy, trusted_proxies

HEADER = "X-Request-ID"
# Letters, digits and ``-_.:``, at most 64: an id that cannot break a log line or smuggle text.
_SANE = re.compile(r"[A-Za-z0-9_.:-]{8,64}")

current_request_id: ContextVar[str | None] = ContextVar("request_id", default=None)


def request_id_from(value: str | None) -> str:
    """The proxy's id when it is a plain token, else a new one."""
    if value and _SANE.fullmatch(value):
        return value
    return uuid.uuid4().hex


class RequestIdMiddleware:
    """First in ``MIDDLEWARE``: everything below it logs with the request's id."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.proxies = trusted_proxies()

    def __call__(self, request: HttpRequest) -> HttpResponse:
        sent = request.headers.get(HEADER) if sent_by_trusted_proxy(request, self.proxies) else None
        request_id = request_id_from(sent)
        request.request_id = request_id  # type: ignore[attr-defined]  # for views that show it
        # Kept until the response is closed (:func:`_request_done`): Django logs a refused
        # request (4xx, 5xx) after the last middleware has returned.
        current_request_id.set(request_id)
        response = self.get_response(request)
        response[HEADER] = request_id
        return response


def _request_done(**kwargs: object) -> None:
    current_request_id.set(None)


request_finished.connect(_request_done, dispatch_uid="bollen-request-id-done")


class RequestIdFilter(logging.Filter):
    """Puts ``request_id`` on every record (``-`` outside a request)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            record.request_id = current_request_id.get() or "-"
        return True


class TextFormatter(logging.Formatter):
    """The plain lines of the server's window: the message, and the request's id after it when
    the line was written while serving a request."""

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        request_id = getattr(record, "request_id", "-")
        if request_id == "-":
            return text
        first, newline, rest = text.partition("\n")
        return f"{first} [request {request_id}]{newline}{rest}"


def _request_id(record: logging.LogRecord) -> str | None:
    request_id = getattr(record, "request_id", None) or current_request_id.get()
    return None if request_id in (None, "-") else str(request_id)


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time (UTC, ISO 8601), level, logger, message, request_id, and
    the traceback (``exception``) and the status code when there is one. The message is the
    one the handler's filters left (secrets in paths masked)."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": _request_id(record),
        }
        status = getattr(record, "status_code", None)
        if isinstance(status, int):
            entry["status_code"] = status
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            entry["exception"] = record.exc_text
        return json.dumps(entry, ensure_ascii=False)
