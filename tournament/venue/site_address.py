"""The address phones open: the base of every absolute link the site hands out (table links,
their QR codes on the printed sheets, invitation links).

The address is a club's: its QR codes and links start with it. It is never the name the
director's own browser happened to use (``127.0.0.1`` reaches the phone itself, not the
laptop). In order of precedence:

1. ``settings.SITE_URL`` (the environment or ``.env``): set by whoever runs the server, and then
   no club can change it;
2. the address the club's admin set on the site (``Club.site_url``; every change recorded as a
   ``ClubAddressChange``, confirmed once a phone opened its test link);
3. this machine's own network address, with the port the request came in on (the port in its
   ``Host`` header; for commands, the port of ``BIND``, else the one ``make run`` last
   started with (``server_record``), else 8000).

Only when the machine has no network at all does it fall back to the request's own host;
``site_url_problem`` then says so, with what to do about it.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from enum import StrEnum
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.http import HttpRequest
from django.http.request import split_domain_port, validate_host
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import gettext as _

from tournament.clubs.roles import is_club_admin
from tournament.models import Club, ClubAddressChange
from tournament.text import serve_command
from tournament.venue import network
from tournament.venue.server_record import server_bind

DEFAULT_PORT = "8000"
_REQUEST_CACHE = "_bollen_site_address"
# Name endings that only a club's own network resolves (mDNS, home routers): a name ending so
# that is not this machine's is another machine, or none at all.
LOCAL_SUFFIXES = (".local", ".lan", ".home", ".internal", ".localdomain", ".home.arpa")


class AddressSource(StrEnum):
    SITE = "site"  # set by the club's admin on the site
    ENVIRONMENT = "environment"  # SITE_URL, set by whoever runs the server
    NETWORK = "network"  # this machine's network address
    REQUEST = "request"  # no network: the host the browser used


@dataclass(frozen=True, slots=True)
class SiteAddress:
    url: str
    source: AddressSource


def operator_site_url() -> str:
    """``SITE_URL`` as the server's settings give it (``''``: not set). When it is set, it is
    every club's address and no club can change it."""
    return (getattr(settings, "SITE_URL", "") or "").strip().rstrip("/")


def bind_port() -> str:
    """The port the server listens on when no request says it: ``BIND``'s (``0.0.0.0:8000``,
    ``[::]:8000`` or just ``8000``; the one the server last started with when the command runs
    without it, see ``server_record``), else 8000."""
    bind = server_bind().bind
    if not bind:
        return DEFAULT_PORT
    port = bind.rsplit(":", 1)[-1] if ":" in bind else bind
    port = port.strip("[]")
    return port if port.isdigit() else DEFAULT_PORT


def bound_to_this_laptop_only() -> str | None:
    """``BIND`` when ``make run`` listens on a loopback address only (``127.0.0.1:8000``) and
    no ``SITE_URL`` says a server in front of it answers the phones; else ``None``."""
    bind = server_bind().bind
    host = bind.rsplit(":", 1)[0].strip("[]") if ":" in bind else ""
    # 0.0.0.0 and :: are every address of the laptop when listened on (in a link they reach
    # nothing, which is why ``is_loopback_host`` counts them).
    everywhere = host in ("0.0.0.0", "::")  # noqa: S104 (what BIND says, not what we bind)
    if host and not everywhere and network.is_loopback_host(host) and not operator_site_url():
        return bind
    return None


def _with_port(scheme: str, host: str, port: str) -> str:
    if ":" in host:  # IPv6
        host = f"[{host}]"
    default = {"http": "80", "https": "443"}.get(scheme)
    return f"{scheme}://{host}" if port == default else f"{scheme}://{host}:{port}"


def request_port(request: HttpRequest) -> str:
    """The port the browser used: the one in its ``Host`` header (right behind a proxy too),
    else the server's (``request.get_port()``)."""
    _domain, port = split_domain_port(request.get_host())
    if port:
        return port
    return {"http": "80", "https": "443"}.get(request.scheme or "") or str(request.get_port())


def network_url(request: HttpRequest | None = None) -> str | None:
    """``http://<this machine's network address>:<port>``; ``None`` without a network."""
    address = network.primary_address()
    if address is None:
        return None
    if request is not None:
        return _with_port(request.scheme or "http", address, request_port(request))
    return _with_port("http", address, bind_port())


def site_address(request: HttpRequest | None = None, *, club: Club) -> SiteAddress:
    """The address phones open for ``club``'s links and where it comes from (asked once per
    request)."""
    if request is not None:
        cached: dict[int, SiteAddress] = getattr(request, _REQUEST_CACHE, None) or {}
        if club.pk in cached:
            return cached[club.pk]
    found = _site_address(request, club)
    if request is not None:
        setattr(request, _REQUEST_CACHE, {**cached, club.pk: found})
    return found


def chosen_site_address(club: Club | None) -> SiteAddress | None:
    """The address someone chose: ``SITE_URL`` (the server's), else the one ``club``'s admin
    set on the site; ``None`` when nobody did (then the network address is used)."""
    configured = operator_site_url()
    if configured:
        return SiteAddress(configured, AddressSource.ENVIRONMENT)
    stored = (club.site_url if club is not None else "").strip().rstrip("/")
    if stored and club is not None and not _answered_here(stored, club):
        stored = ""  # a site of several clubs does not answer to it: never in a link
    if stored:
        return SiteAddress(stored, AddressSource.SITE)
    return None


def host_answered(host: str) -> bool:
    """Whether ``ALLOWED_HOSTS`` lets the site answer to ``host`` (an IPv6 address bare or in
    brackets)."""
    host = host.strip().lower()
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return validate_host(host, settings.ALLOWED_HOSTS)


def _answered_here(url: str, club: Club) -> bool:
    """A club's address counts on a site of one club (the site answers to it, see
    ``middleware.extra_hosts``); on a site of several only when its host is in
    ``ALLOWED_HOSTS`` (stored before that rule, or set in the admin, it is not used)."""
    if not Club.objects.exclude(pk=club.pk).exists():
        return True
    return host_answered(network.url_host(url))


def _site_address(request: HttpRequest | None, club: Club) -> SiteAddress:
    chosen = chosen_site_address(club)
    if chosen is not None:
        return chosen
    detected = network_url(request)
    if detected:
        return SiteAddress(detected, AddressSource.NETWORK)
    if request is not None:
        return SiteAddress(request.build_absolute_uri("/").rstrip("/"), AddressSource.REQUEST)
    return SiteAddress(_with_port("http", "localhost", bind_port()), AddressSource.REQUEST)


def site_url(request: HttpRequest | None = None, *, club: Club) -> str:
    """The base address phones must open for ``club``'s links, without a trailing slash."""
    return site_address(request, club=club).url


def absolute_url(path: str, request: HttpRequest | None = None, *, club: Club) -> str:
    """``path`` (from ``reverse``) as a link a phone can open."""
    return site_url(request, club=club) + "/" + path.lstrip("/")


def site_address_forget(request: HttpRequest) -> None:
    """Ask again in this request (after a club admin changed the address)."""
    if hasattr(request, _REQUEST_CACHE):
        delattr(request, _REQUEST_CACHE)


CHECK_SALT = "bollen.site_address.check"


def site_address_check_token(change: ClubAddressChange) -> str:
    """The secret of ``change``'s test link: the same at every visit of the page (so a link
    written down still works), short enough to type, and made with the site's secret key, so
    nobody who has not seen the page can make one."""
    digest = salted_hmac(CHECK_SALT, f"{change.pk}|{change.new_url}").hexdigest()[:12]
    return f"{change.pk}-{digest}"


def _change_of_token(token: str) -> ClubAddressChange | None:
    pk, _dash, _digest = token.partition("-")
    if not pk.isdigit() or len(pk) > 18:
        return None
    change = ClubAddressChange.objects.select_related("club").filter(pk=int(pk)).first()
    if change is None or not constant_time_compare(site_address_check_token(change), token):
        return None
    return change


def site_address_set(*, club: Club, url: str, by_user: User) -> ClubAddressChange | None:
    """Store the address ``club``'s admin chose (``''``: use the network address) and record the
    change (who, when, old and new); ``None`` when nothing changed. The caller has checked that
    ``by_user`` may (a club admin) and that ``SITE_URL`` is not set."""
    url = url.strip().rstrip("/")
    with transaction.atomic():
        locked = Club.objects.select_for_update().get(pk=club.pk)
        if locked.site_url == url:
            return None
        change = ClubAddressChange.objects.create(
            club=locked,
            changed_by=by_user,
            changed_by_name=by_user.get_username(),
            old_url=locked.site_url,
            new_url=url,
        )
        locked.site_url = url
        locked.save(update_fields=["site_url"])
    club.site_url = url
    return change


def site_address_last_change(club: Club) -> ClubAddressChange | None:
    return ClubAddressChange.objects.filter(club=club).order_by("-changed_at", "-pk").first()


def site_address_changes(club: Club, limit: int = 10) -> list[ClubAddressChange]:
    """The latest changes of ``club``'s address, newest first."""
    return list(ClubAddressChange.objects.filter(club=club).order_by("-changed_at", "-pk")[:limit])


def site_address_untested(club: Club) -> ClubAddressChange | None:
    """The change that set the address in use when no phone has opened it yet (its test
    link); ``None`` when the address was tested, found automatically or is ``SITE_URL``."""
    if operator_site_url() or not club.site_url:
        return None
    change = site_address_last_change(club)
    if change is None or change.confirmed_at is not None or change.new_url != club.site_url:
        return None
    return change


class CheckOutcome(StrEnum):
    WORKS = "works"  # a phone came by the new address: confirmed
    OTHER_ADDRESS = "other_address"  # it came by another address than the new one
    THIS_MACHINE = "this_machine"  # opened on the laptop itself, which proves nothing
    OLD = "old"  # a later change replaced this one


def site_address_confirm(
    *, token: str, host: str, client: str | None
) -> tuple[ClubAddressChange, CheckOutcome] | None:
    """A device opened the test link ``token`` through ``host`` from address ``client``: the
    change is confirmed when that was a phone (not this machine itself, not a loopback
    address) that reached the site by the new address. ``None`` for a link that is not one."""
    change = _change_of_token(token)
    if change is None:
        return None
    if change != site_address_last_change(change.club):
        return change, CheckOutcome.OLD
    if client is None or network.is_loopback_host(client) or client in network.machine_addresses():
        return change, CheckOutcome.THIS_MACHINE
    if network.url_host(change.new_url) != split_domain_port(host)[0].strip("[]"):
        return change, CheckOutcome.OTHER_ADDRESS
    if change.confirmed_at is None:
        change.confirmed_at = timezone.now()
        change.save(update_fields=["confirmed_at"])
    return change, CheckOutcome.WORKS


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def _known_to_this_machine(host: str) -> bool:
    return host in network.machine_addresses() or host in network.machine_names()


def _looks_public(host: str) -> bool:
    """A name with a dot that the club's network alone would not resolve (``bollen.example.nl``):
    the director arranged that name; this machine cannot check it."""
    return "." in host.strip(".") and not host.endswith(LOCAL_SUFFIXES)


def _how_to_fix(url: str) -> str:
    parts = urlsplit(url) if "://" in url else None
    scheme = parts.scheme if parts and parts.scheme in ("http", "https") else "http"
    try:
        port = str(parts.port) if parts and parts.port else None
    except ValueError:
        port = None
    address = network.primary_address()
    if operator_site_url() and url == operator_site_url():
        # SITE_URL: the server's setting, which no page changes.
        suggestion = _with_port(scheme, address or "192.168.1.20", port or bind_port())
        if not settings.CHECKOUT:  # a server (bollen serve, gunicorn): no laptop, no .env
            return _(
                "The address is the server's setting SITE_URL (in %(file)s or the "
                "environment): set it to the site's own address, for example "
                "https://bollen.example.org, and restart the site."
            ) % {"file": settings.ENV_FILE or "bollen.env"}
        return _(
            "The address is the server's setting SITE_URL (in the .env file or the "
            "environment): change it there, for example to %(suggestion)s, and start the site "
            "again."
        ) % {"suggestion": suggestion}
    if address is None:
        return _(
            "Start the laptop on the club's wifi network, then check the address on the page "
            "“Address for phones” (linked at the top of the tournament pages)."
        )
    suggestion = _with_port(scheme, address, port or bind_port())
    return _(
        "Set the address for phones to %(suggestion)s (page “Address for phones”, linked at the "
        "top of the tournament pages) or start the laptop on the club's wifi network."
    ) % {"suggestion": suggestion}


def _web_host(url: str) -> str | None:
    """The host of an http(s) address with a valid port, lower case; ``None`` otherwise."""
    try:
        parts = urlsplit(url)
        _port = parts.port  # a port that is not a number raises ValueError
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    return parts.hostname.lower()


def site_url_problem(url: str) -> str | None:
    """Why phones cannot open ``url``, and how to fix it; ``None`` when nothing is wrong that
    this machine can see."""
    host = _web_host(url)
    if host is None:
        problem = _(
            "The links and QR codes would point at “%(url)s”, which is not a web address "
            "(http://… or https://…)."
        ) % {"url": url}
    elif network.is_loopback_host(host) and not settings.CHECKOUT:
        problem = _(
            "The links and QR codes would point at %(url)s: that is this server's name for "
            "itself. A phone that scans it reaches the phone, not the site."
        ) % {"url": url}
    elif network.is_loopback_host(host):
        problem = _(
            "The links and QR codes would point at %(url)s: that is this laptop's name for "
            "itself. A phone that scans it reaches the phone, not the laptop."
        ) % {"url": url}
    elif (bind := bound_to_this_laptop_only()) is not None:
        return _(
            "The links and QR codes point at %(url)s, but the site listens on this laptop only "
            "(BIND=%(bind)s): phones cannot reach it. For phones, stop it (Ctrl+C) and start "
            "it without BIND: %(command)s"
        ) % {"url": url, "bind": bind, "command": serve_command()}
    elif _known_to_this_machine(host) or (not _is_ip(host) and _looks_public(host)):
        return None
    elif _is_ip(host):
        problem = _(
            "The links and QR codes would point at %(url)s, but %(host)s is not an address of "
            "this laptop (any more): phones would not reach it."
        ) % {"url": url, "host": host}
    else:
        problem = _(
            "The links and QR codes would point at %(url)s, but this laptop is not called "
            "%(host)s: phones would probably not reach it."
        ) % {"url": url, "host": host}
    return f"{problem} {_how_to_fix(url)}"


def machine_site_urls(request: HttpRequest | None = None) -> list[str]:
    """Addresses of this machine a director may choose from: its network addresses. (Its
    ``.local`` name is accepted when typed, but not offered: many Android phones do not resolve
    it, and one click would break every QR code.)"""
    if request is not None:
        scheme, port = request.scheme or "http", request_port(request)
    else:
        scheme, port = "http", bind_port()
    return [_with_port(scheme, host, port) for host in network.machine_addresses()]


def address_warnings(request: HttpRequest | None, *, club: Club) -> dict[str, object]:
    """What a page that hands out ``club``'s links warns about (``_site_address_warning.html``):
    phones cannot reach the address, or a changed address no phone has opened yet; and whether
    the viewer may change it (a club admin, unless ``SITE_URL`` fixes it)."""
    url = site_url(request, club=club)
    user = getattr(request, "user", None)
    return {
        "address_club": club,
        "site_url": url,
        "site_url_problem": site_url_problem(url),
        "untested": site_address_untested(club),
        "address_fixed": bool(operator_site_url()),
        "may_change_address": bool(
            user is not None and not operator_site_url() and is_club_admin(user, club)
        ),
    }
