"""This machine's addresses on the club's network: what phones must open, and which names
the site answers to.

Nothing here sends traffic: the primary address is found by asking the operating system which
interface a UDP socket *would* use (``connect`` on a datagram socket only picks a route), and
the other addresses come from the host's own name.
"""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

# A documentation address (TEST-NET-1, RFC 5737): never routed on the internet, but it makes the
# operating system choose the interface of the default route, which is the club's network.
_ROUTE_PROBE = ("192.0.2.1", 9)


def _is_usable(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_unspecified or ip.is_link_local or ip.is_multicast)


def primary_address() -> str | None:
    """The IPv4 address of the interface this machine reaches the network through, or
    ``None`` when it has no network (a laptop with wifi off)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(_ROUTE_PROBE)
            address = probe.getsockname()[0]
    except OSError:
        return None
    return address if _is_usable(address) else None


def machine_addresses() -> list[str]:
    """Every non-loopback address of this machine that is known without sending anything:
    the primary address first, then those its host name resolves to."""
    found: list[str] = []
    primary = primary_address()
    if primary:
        found.append(primary)
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None)
    except OSError:
        infos = []
    for _family, _type, _proto, _canon, sockaddr in infos:
        address = str(sockaddr[0]).split("%", 1)[0]
        if _is_usable(address) and address not in found:
            found.append(address)
    return found


def machine_names() -> list[str]:
    """The names this machine is known by: its host name, with and without ``.local`` (what
    macOS and many phones resolve on a club's network), and its fully qualified name."""
    names: list[str] = []
    for name in (socket.gethostname(), socket.getfqdn()):
        name = (name or "").strip().lower()
        if name and name not in names and name != "localhost":
            names.append(name)
    for name in list(names):
        if "." not in name and f"{name}.local" not in names:
            names.append(f"{name}.local")
    return names


def is_loopback_host(host: str) -> bool:
    """Whether ``host`` (a name or an address, without port) only reaches this machine itself:
    a phone that opens it reaches the phone, not the laptop."""
    host = host.strip().strip("[]").lower()
    if host in {"localhost", "localhost.localdomain"} or host.endswith(".localhost"):
        return True
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return False
    return ip.is_loopback or ip.is_unspecified


def url_host(url: str) -> str:
    """The host part of an absolute URL (``''`` when it has none)."""
    try:
        return urlsplit(url).hostname or ""
    except ValueError:
        return ""
