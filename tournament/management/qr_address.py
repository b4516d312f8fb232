"""The address a printout's QR codes open, as a command says it: which address, where it comes
from, and how to change it when phones may not reach it.

The address is the site's (``venue.site_address``): the one the print page uses too, with, for a
command, the port the venue server last started with (``venue.server_record``)."""

from __future__ import annotations

from urllib.parse import urlsplit

from django.core.management.base import BaseCommand
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament.text import serve_command
from tournament.venue import network, server_record
from tournament.venue.server_record import BindSource
from tournament.venue.site_address import (
    DEFAULT_PORT,
    AddressSource,
    SiteAddress,
    operator_site_url,
    site_url_problem,
)


def address_origin(address: SiteAddress) -> str:
    """Where ``address`` comes from, in a few words for a director."""
    if address.source == AddressSource.ENVIRONMENT:
        return _("the server's setting SITE_URL")
    if address.source == AddressSource.SITE:
        return _("the address for phones set on the site")
    if address.source == AddressSource.REQUEST:
        return _("this laptop's own name: it has no network")
    bind = server_record.server_bind()
    if bind.source == BindSource.ENVIRONMENT:
        return _("this laptop's network address, with the port of BIND=%(bind)s") % {
            "bind": bind.bind
        }
    if bind.source == BindSource.RECORDED:
        return _(
            "this laptop's network address, with the port the site last started on (BIND=%(bind)s)"
        ) % {"bind": bind.bind}
    return _("this laptop's network address, with the default port %(port)s") % {
        "port": DEFAULT_PORT
    }


def _unanswered(url: str) -> bool:
    """Whether ``url`` is this laptop's and nothing answers there now (another machine's
    address is not tried: the site may well be there)."""
    try:
        parts = urlsplit(url)
        port = parts.port or {"http": 80, "https": 443}.get(parts.scheme)
    except ValueError:
        return False
    host = (parts.hostname or "").lower()
    if port is None or not host:
        return False
    ours = network.is_loopback_host(host) or host in network.machine_addresses()
    return ours and not server_record.answers(host, port)


def _how_to_change(address: SiteAddress) -> str:
    if operator_site_url():
        return _(
            "To change it: SITE_URL in the .env file or the environment, then start the site again."
        )
    return _(
        "If the site runs at another address (%(command)s prints it), set that one on the page "
        "“Address for phones” (linked at the top of the tournament pages): the print page and "
        "these commands use it from then on."
    ) % {"command": serve_command()}


def qr_address_report(command: BaseCommand, address: SiteAddress, *, codes: int) -> None:
    """Say where the ``codes`` QR codes just printed point to (standard output); on standard
    error why phones may not reach it and how to change it."""
    if not codes:
        return
    command.stdout.write(
        ngettext(
            "The QR code points to %(url)s: %(origin)s.",
            "The QR codes point to %(url)s: %(origin)s.",
            codes,
        )
        % {"url": address.url, "origin": address_origin(address)}
    )
    problem = site_url_problem(address.url)
    if problem:
        command.stderr.write(problem)
    elif _unanswered(address.url):
        command.stderr.write(
            _("Nothing answers at %(url)s right now: is the site running?") % {"url": address.url}
            + " "
            + _how_to_change(address)
        )
