"""The site's own error pages: plain, in the visitor's language, and built so that they cannot
fail themselves (no database, no session, no signed-in user: only the template and the active
language). Nothing about the server, its settings or the error is shown."""

from __future__ import annotations

import sys
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.template import loader
from django.utils.translation import gettext as _

from tournament.mail.sending import email_enabled
from tournament.permissions import PublicPageMissing
from tournament.venue.middleware import DATABASE_UNREACHABLE
from tournament.venue.request_ids import current_request_id

RETRY_AFTER_SECONDS = 10


def _plain(
    template_name: str, status: int, fallback: str, context: dict[str, Any] | None = None
) -> HttpResponse:
    try:
        body = loader.get_template(template_name).render(context or {})
    except Exception:  # the page of last resort must always answer
        body = f"<!DOCTYPE html><title>{status}</title><h1>{fallback}</h1>"
    return HttpResponse(body, status=status)


def database_unavailable(request: HttpRequest | None = None) -> HttpResponse:
    """503: the database cannot be reached; the phones keep what they have not sent yet."""
    response = _plain("503.html", 503, _("The database cannot be reached right now."))
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """``handler400``: the plain 400 page. Unlike Django's own, it runs no CSRF check, which
    would read the broken form again and fail with a 500."""
    return _plain("400.html", 400, _("Bad request"))


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """``handler404``: a public page that is not there says what a player in the room can do
    (the director may not have switched the public pages on yet); any other address gets the
    plain 404 page. Django's own exception text is never shown."""
    if isinstance(exception, PublicPageMissing):
        return _plain("errors/public_missing.html", 404, _("This page is not open."))
    return _plain("404.html", 404, _("This page does not exist"))


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: the 503 page when the error was the database, else the plain 500 page."""
    if isinstance(sys.exc_info()[1], DATABASE_UNREACHABLE):
        return database_unavailable(request)
    # The request's id, which is on the error's log line: the director can pass it on to
    # whoever runs the site.
    context = {"request_id": current_request_id.get()}
    return _plain("500.html", 500, _("Something went wrong on the server."), context)


def signing_in_paused(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: dict[str, Any] | None = None,
) -> HttpResponse:
    """``AXES_LOCKOUT_CALLABLE``: too many wrong passwords for one username from one address.
    Says in the visitor's language for how long, and how a director lifts it at once."""
    context = {
        "failure_limit": settings.AXES_FAILURE_LIMIT,
        "cooloff_minutes": round(float(settings.AXES_COOLOFF_TIME) * 60),
        "email_enabled": email_enabled(),  # a new password by e-mail lifts the pause
    }
    body = loader.get_template("errors/locked.html").render(context, request)
    return HttpResponse(body, status=429)
