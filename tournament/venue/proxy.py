"""The visitor's own address behind a reverse proxy.

Behind nginx every request reaches the application server from the proxy's address (127.0.0.1),
so the sign-in lock-out (django-axes, per user name and address) would lock out every visitor
at once after five wrong passwords, and the record of a sheet's save would name the proxy.
nginx sends the address it saw in ``X-Real-IP`` (deploy/nginx-bollen.conf). That header is
believed only from the addresses in ``TRUSTED_PROXIES`` (the setting; empty by default): a
laptop on the club's wifi that talks to the application server directly, or a site without a
proxy, cannot choose its address by sending the header itself.
"""

from __future__ import annotations

import ipaddress
import logging
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

logger = logging.getLogger(__name__)

HEADER = "HTTP_X_REAL_IP"


def _address(value: str) -> str | None:
    try:
        return str(ipaddress.ip_address(value.strip()))
    except ValueError:
        return None


def trusted_proxies() -> frozenset[str]:
    """The addresses of ``TRUSTED_PROXIES`` (the ones that are addresses)."""
    return frozenset(
        found for found in map(_address, getattr(settings, "TRUSTED_PROXIES", [])) if found
    )


def sent_by_trusted_proxy(request: HttpRequest, proxies: frozenset[str]) -> bool:
    """Whether the request came straight from one of ``proxies`` (before
    :class:`ClientAddressMiddleware` has put the visitor's address in ``REMOTE_ADDR``)."""
    return bool(proxies) and _address(request.META.get("REMOTE_ADDR", "")) in proxies


class ClientAddressMiddleware:
    """Sets ``REMOTE_ADDR`` to the proxy's ``X-Real-IP`` when the request came from a trusted
    proxy; before the sessions, the sign-in and django-axes read it."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.proxies = trusted_proxies()

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if sent_by_trusted_proxy(request, self.proxies):
            sent = request.META.get(HEADER)
            client = _address(sent) if sent else None
            if client:
                request.META["REMOTE_ADDR"] = client
            elif sent:
                logger.warning("The proxy sent an X-Real-IP that is no address: %.60r", sent)
        return self.get_response(request)
