"""The site's middleware.

- The site's language: Dutch unless the visitor chose English with the switch in the header.
  Django's LocaleMiddleware would also follow the browser's Accept-Language, so a director whose
  laptop is set to English would get an English site without asking; a club expects Dutch.
- The hosts the site answers to beyond ``ALLOWED_HOSTS`` (the clubs' addresses for phones).
- A plain 503 page when the database cannot be reached.
- The Content Security Policy of every page: scripts only from the site's own files (no inline
  script; the sheet's settings are a JSON data block, which is not run), nothing framed.
- A 413 page for a request body larger than any the site takes (an import at most, or one
  photo), before anything reads it: a page in the site's style for a browser (a form sent
  without the page's script, several photos at once), a sentence for anything else. (Behind
  nginx and under waitress the server refuses it first, unread, with its own answer.)
"""

import logging
import socket
from collections.abc import Callable

from django.conf import settings
from django.core.cache import cache
from django.db import DatabaseError, InterfaceError, OperationalError
from django.db.models.signals import post_save
from django.http import HttpRequest, HttpResponse
from django.http.request import split_domain_port, validate_host
from django.template import loader
from django.utils import translation
from django.utils.translation import gettext as _

from tournament.venue import network

logger = logging.getLogger(__name__)

# What a lost or refused database connection raises (psycopg and SQLite alike).
DATABASE_UNREACHABLE = (OperationalError, InterfaceError)


CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        # The printouts size their rows with style attributes; styles run no code.
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",  # the QR codes are data: images
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        return response


FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")
UTF8_NAMES = {"utf-8", "utf8", "us-ascii", "ascii"}


class RequestBodyCapMiddleware:
    """Refuse a body over ``REQUEST_MAX_BYTES`` by its announced length, unread. (A body sent
    without a length is capped by the server: waitress's ``max_request_body_size``.) Refuse a
    form sent in another character set than UTF-8 (every page of the site sends UTF-8; a
    crafted ``charset=utf-16`` made the CSRF check fail reading it) with a plain 400."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        if length > settings.REQUEST_MAX_BYTES:
            return _too_large(request)
        if request.method == "POST" and request.content_type in FORM_TYPES:
            params = request.content_params or {}
            charset = params.get("charset", "utf-8").strip().strip('"').lower()
            if charset not in UTF8_NAMES:
                message = _(
                    "The form was sent in the character set %(charset)s; this site reads forms "
                    "in UTF-8 only. Send it again from the site's own page."
                ) % {"charset": charset[:40]}
                return HttpResponse(message, status=400, content_type="text/plain; charset=utf-8")
        return self.get_response(request)


def _too_large(request: HttpRequest) -> HttpResponse:
    """413 for a body over ``REQUEST_MAX_BYTES``: the page ``413.html`` for a browser, which
    says what was too large and what to do, a sentence for any other client."""
    megabytes = settings.REQUEST_MAX_BYTES // 1_000_000
    if "text/html" in request.headers.get("Accept", ""):
        body = loader.get_template("413.html").render({"max": megabytes})
        return HttpResponse(body, status=413)
    message = _("The request is too large (at most %(max)s MB).") % {"max": megabytes}
    return HttpResponse(message, status=413, content_type="text/plain; charset=utf-8")


class ChosenLanguageMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.languages = {code for code, _name in settings.LANGUAGES}

    def __call__(self, request: HttpRequest) -> HttpResponse:
        chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME)
        language = chosen if chosen in self.languages else settings.LANGUAGE_CODE
        translation.activate(language)
        request.LANGUAGE_CODE = translation.get_language()
        response = self.get_response(request)
        response.headers.setdefault("Content-Language", language)
        translation.deactivate()
        return response


# ---- The hosts the site answers to ----------------------------------------------------------

# Per machine: the hosts include this machine's own addresses, and the cache may be shared by
# several application servers (``CACHE=database``).
EXTRA_HOSTS_CACHE_KEY = f"bollen:extra-hosts:{socket.gethostname()}"
EXTRA_HOSTS_SECONDS = 5


def _bracketed(host: str) -> str:
    host = host.strip().lower()
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def extra_hosts() -> frozenset[str]:
    """Hosts accepted beyond ``ALLOWED_HOSTS`` without a restart: the host of the address the
    club's admin set on a site of one club (none when ``SITE_URL`` is set: then that is every
    club's address and its host is in ``ALLOWED_HOSTS``; none on a site of several clubs) and,
    when ``ALLOWED_HOSTS`` is this machine's
    own (not set by hand), the addresses this machine has now (it may have joined the wifi
    after starting). Looked up again at most every few seconds."""
    hosts: frozenset[str] | None = cache.get(EXTRA_HOSTS_CACHE_KEY)
    if hosts is not None:
        return hosts
    from tournament.models import Club

    found: set[str] = set()
    urls: list[str] = []
    if not (getattr(settings, "SITE_URL", "") or "").strip():
        try:
            # A laptop's one club only: on a site of several, one club's admin must not make
            # the site answer to a name of their choosing for every club (ALLOWED_HOSTS does).
            clubs = list(Club.objects.values_list("site_url", flat=True)[:2])
            urls = clubs if len(clubs) == 1 and clubs[0] else []
        except DatabaseError:
            urls = []  # the request itself will meet the database problem and say so
    for url in urls:
        if network.url_host(url):
            found.add(_bracketed(network.url_host(url)))
    if getattr(settings, "ALLOWED_HOSTS_FROM_MACHINE", False):
        found.update(_bracketed(address) for address in network.machine_addresses())
    hosts = frozenset(found)
    cache.set(EXTRA_HOSTS_CACHE_KEY, hosts, EXTRA_HOSTS_SECONDS)
    return hosts


def _forget_extra_hosts(**kwargs: object) -> None:
    cache.delete(EXTRA_HOSTS_CACHE_KEY)


post_save.connect(_forget_extra_hosts, sender="tournament.Club")


class SiteAddressHostMiddleware:
    """Django refuses a ``Host`` outside ``ALLOWED_HOSTS`` (400) the first time anything asks
    for it. A host from :func:`extra_hosts` is checked here instead, so a director who sets the
    address for phones on the site does not need to restart the server."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        host = request._get_raw_host()  # type: ignore[attr-defined]  # private, not in the stubs
        domain, _port = split_domain_port(host)
        if domain and not validate_host(domain, settings.ALLOWED_HOSTS) and domain in extra_hosts():
            request.get_host = lambda: host  # type: ignore[method-assign]  # checked above
        return self.get_response(request)


# ---- The database is down -------------------------------------------------------------------


class DatabaseUnavailableMiddleware:
    """A page that cannot reach the database (PostgreSQL stopped, a wrong password) answers
    503 with a plain page instead of a bare error, also while signing in. Errors outside the
    views (the session, saving the sign-in) reach the same page through ``handler500``."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, DATABASE_UNREACHABLE):
            return None
        from tournament.venue.error_pages import database_unavailable

        logger.error("The database cannot be reached (%s): %s", request.path, exception)
        return database_unavailable(request)
