"""The address phones open: the base of every absolute link the site hands out (table links,
their QR codes on the printed sheets, invitation links).

It is never the name the director's own browser happened to use (``127.0.0.1`` reaches the phone
itself, not the laptop). In order of precedence:

1. the address a director set on the site (``SiteSettings.site_url``);
2. ``settings.SITE_URL`` (the environment or ``.env``);
3. this machine's own network address, with the port the request came in on (the port in its
   ``Host`` header; for commands, the port of ``BIND``, else 8000).

Only when the machine has no network at all does it fall back to the request's own host;
``site_url_problem`` then says so, with what to do about it.
"""

from __future__ import annotations

import ipaddress
import os
from dataclasses import dataclass
from enum import StrEnum
from urllib.parse import urlsplit

from django.conf import settings
from django.http import HttpRequest
from django.http.request import split_domain_port
from django.utils.translation import gettext as _

from tournament.models import SiteSettings
from tournament.venue import network

DEFAULT_PORT = "8000"
_REQUEST_CACHE = "_bollen_site_address"
# Name endings that only a club's own network resolves (mDNS, home routers): a name ending so
# that is not this machine's is another machine, or none at all.
LOCAL_SUFFIXES = (".local", ".lan", ".home", ".internal", ".localdomain", ".home.arpa")


class AddressSource(StrEnum):
    SITE = "site"  # set by a director on the site
    ENVIRONMENT = "environment"  # SITE_URL
    NETWORK = "network"  # this machine's network address
    REQUEST = "request"  # no network: the host the browser used


@dataclass(frozen=True, slots=True)
class SiteAddress:
    url: str
    source: AddressSource


def _stored_site_url() -> str:
    """The address a director set on the site (``''`` when none). One small query, no write."""
    stored = SiteSettings.objects.filter(pk=1).values_list("site_url", flat=True).first()
    return (stored or "").strip().rstrip("/")


def bind_port() -> str:
    """The port the server listens on when no request says it: ``BIND``'s (``0.0.0.0:8000``,
    ``[::]:8000`` or just ``8000``), else 8000."""
    bind = str(getattr(settings, "BIND", "") or os.environ.get("BIND", "")).strip()
    if not bind:
        return DEFAULT_PORT
    port = bind.rsplit(":", 1)[-1] if ":" in bind else bind
    port = port.strip("[]")
    return port if port.isdigit() else DEFAULT_PORT


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
    return {"http": "80", "https": "443"}.get(request.scheme) or str(request.get_port())


def network_url(request: HttpRequest | None = None) -> str | None:
    """``http://<this machine's network address>:<port>``; ``None`` without a network."""
    address = network.primary_address()
    if address is None:
        return None
    if request is not None:
        return _with_port(request.scheme, address, request_port(request))
    return _with_port("http", address, bind_port())


def site_address(request: HttpRequest | None = None) -> SiteAddress:
    """The address phones open and where it comes from (asked once per request)."""
    if request is not None:
        cached = getattr(request, _REQUEST_CACHE, None)
        if cached is not None:
            return cached
    found = _site_address(request)
    if request is not None:
        setattr(request, _REQUEST_CACHE, found)
    return found


def chosen_site_address() -> SiteAddress | None:
    """The address someone chose: set by a director on the site, else ``SITE_URL``; ``None``
    when nobody did (then the network address is used)."""
    stored = _stored_site_url()
    if stored:
        return SiteAddress(stored, AddressSource.SITE)
    configured = (getattr(settings, "SITE_URL", "") or "").strip().rstrip("/")
    if configured:
        return SiteAddress(configured, AddressSource.ENVIRONMENT)
    return None


def _site_address(request: HttpRequest | None) -> SiteAddress:
    chosen = chosen_site_address()
    if chosen is not None:
        return chosen
    detected = network_url(request)
    if detected:
        return SiteAddress(detected, AddressSource.NETWORK)
    if request is not None:
        return SiteAddress(request.build_absolute_uri("/").rstrip("/"), AddressSource.REQUEST)
    return SiteAddress(_with_port("http", "localhost", bind_port()), AddressSource.REQUEST)


def site_url(request: HttpRequest | None = None) -> str:
    """The base address phones must open, without a trailing slash."""
    return site_address(request).url


def absolute_url(path: str, request: HttpRequest | None = None) -> str:
    """``path`` (from ``reverse``) as a link a phone can open."""
    return site_url(request) + "/" + path.lstrip("/")


def site_address_forget(request: HttpRequest) -> None:
    """Ask again in this request (after a director changed the address)."""
    if hasattr(request, _REQUEST_CACHE):
        delattr(request, _REQUEST_CACHE)


def site_address_set(*, url: str) -> None:
    """Store the address a director chose (``''``: use ``SITE_URL`` or the network address)."""
    row = SiteSettings.current()
    row.site_url = url.strip().rstrip("/")
    row.save(update_fields=["site_url", "updated_at"])


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
    elif network.is_loopback_host(host):
        problem = _(
            "The links and QR codes would point at %(url)s: that is this laptop's name for "
            "itself. A phone that scans it reaches the phone, not the laptop."
        ) % {"url": url}
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
        scheme, port = request.scheme, request_port(request)
    else:
        scheme, port = "http", bind_port()
    return [_with_port(scheme, host, port) for host in network.machine_addresses()]
