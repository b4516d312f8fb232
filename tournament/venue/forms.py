"""The form of the address for phones (``tournament.venue.site_address``)."""

from __future__ import annotations

import ipaddress
import re
from typing import Any
from urllib.parse import urlsplit

from django import forms
from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from tournament.venue import network
from tournament.venue.site_address import host_answered

SCHEMES = ("http", "https")
ADDRESS_MAX = 200  # what the club's field holds
_LABEL = re.compile(r"^(?!-)[a-z0-9-]{1,63}(?<!-)$")


def _valid_host(host: str) -> bool:
    """An IP address, or a name of letters, digits and hyphens between dots (``laptop``,
    ``laptop.local``, ``bollen.example.nl``; other scripts through IDNA)."""
    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        pass
    try:
        ascii_host = host.encode("idna").decode("ascii")
    except UnicodeError:
        return False
    labels = ascii_host.rstrip(".").split(".")
    return len(ascii_host) <= 253 and all(_LABEL.match(label) for label in labels)


def _reachable_name(host: str) -> bool:
    """An IP address, a name with a dot (``laptop.local``, ``bollen.example.nl``), or a name
    without one that this machine has (``clublaptop``) or ``localhost``: a bare word such as
    "NaN" or "null" (a spreadsheet's empty cell, pasted) names no machine."""
    host = host.lower().rstrip(".")
    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        pass
    if "." in host or host == "localhost":
        return True
    return host in {name.lower() for name in network.machine_names()}


SCHEME_LIKE = re.compile(r"^[a-z][a-z0-9+.-]*:(?!\d)", re.IGNORECASE)


class SiteAddressForm(forms.Form):
    """An address such as ``http://192.168.1.20:8000``: scheme, host and port, nothing more.
    Empty means: the ``SITE_URL`` setting, or else this machine's network address."""

    site_url = forms.CharField(
        label=_("Address for phones"),
        max_length=200,
        required=False,
        help_text=_(
            "For example http://192.168.1.20:8000: what a phone on the club's wifi opens to "
            "reach this laptop. Leave empty to use the address found automatically."
        ),
        widget=forms.TextInput(attrs={"inputmode": "url", "autocomplete": "off", "size": 36}),
    )

    def __init__(
        self,
        *args: Any,
        example: str | None = None,
        answered_only: bool = False,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        # What a message suggests: this machine's address with the port the site runs on.
        self.example = example or "http://192.168.1.20:8000"
        # A site of several clubs answers only to ALLOWED_HOSTS: an address must be one of them.
        self.answered_only = answered_only

    def clean_site_url(self) -> str:
        raw = self.cleaned_data["site_url"].strip()
        if not raw:
            return ""
        if "://" not in raw and SCHEME_LIKE.match(raw):  # "javascript:…", "mailto:…"
            raise ValidationError(
                _("Address for phones: it must start with http:// or https://."), code="scheme"
            )
        url = raw if "://" in raw else f"http://{raw}"
        try:
            parts = urlsplit(url)
            parts.port  # noqa: B018 -- a port that is not a number from 0 to 65535 raises
        except ValueError:
            raise ValidationError(
                _(
                    "Address for phones: “%(value)s” has a port that is not a number from 1 to "
                    "65535."
                ),
                code="port",
                params={"value": raw},
            ) from None
        if parts.scheme.lower() not in SCHEMES:
            raise ValidationError(
                _("Address for phones: it must start with http:// or https://."), code="scheme"
            )
        if not parts.hostname:
            raise ValidationError(
                _("Address for phones: “%(value)s” has no host name or address."),
                code="host",
                params={"value": raw},
            )
        if parts.username or parts.password:
            raise ValidationError(
                _("Address for phones: leave out a user name or password."), code="userinfo"
            )
        base = f"{parts.scheme.lower()}://{parts.netloc.lower()}"
        if parts.path not in ("", "/") or parts.query or parts.fragment:
            raise ValidationError(
                _(
                    "Address for phones: only the address, without a path or anything after it "
                    "(for example %(base)s)."
                ),
                code="path",
                params={"base": base},
            )
        if not _valid_host(parts.hostname):
            raise ValidationError(
                _("Address for phones: “%(value)s” is not a valid web address."),
                code="invalid",
                params={"value": raw},
            )
        if not _reachable_name(parts.hostname):
            raise ValidationError(
                _(
                    "Address for phones: “%(value)s” is not a web address phones can open. "
                    "Type this laptop's address, for example %(example)s."
                ),
                code="no_host",
                params={"value": raw, "example": self.example},
            )
        if len(base) > ADDRESS_MAX:
            raise ValidationError(
                _("Address for phones: at most %(max)s characters."),
                code="too_long",
                params={"max": ADDRESS_MAX},
            )
        if self.answered_only and not host_answered(parts.hostname):
            raise ValidationError(
                _(
                    "Address for phones: this server answers only to the names set by whoever "
                    "runs it (%(hosts)s); ask them to add %(host)s."
                ),
                code="not_answered",
                params={"hosts": ", ".join(settings.ALLOWED_HOSTS), "host": parts.hostname},
            )
        return base
