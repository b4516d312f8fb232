"""How often the site mails on someone's request: password resets, invitations, role notices.

Password resets: the reset page mails whoever has the address typed, so without a limit it
would mail anyone's inbox full for a stranger. Each request counts, for the address typed
(whether an account has it or not, so that the limit tells nothing about which addresses are
known) and for the client address it came from (as django-axes sees it, the reverse proxy's
``X-Forwarded-For`` when so configured). Above ``RESET_MAIL_PER_ADDRESS`` (3) or
``RESET_MAIL_PER_CLIENT`` (10) in ``RESET_MAIL_WINDOW_SECONDS`` (an hour) the request is refused
and nothing is sent.

An invitation's mail (``invitation_mail_throttled``): above ``INVITE_MAIL_PER_ACCOUNT`` (10) per
inviting account or ``INVITE_MAIL_PER_ADDRESS`` (3) per address invited in the window, the
invitation is made but not mailed (its page says so: hand over the link or QR code). A club's
role notices (``role_notice_throttled``): above ``ROLE_NOTICE_PER_ADMIN`` (5) changes by one
person in one club in the window, the notice is skipped (logged): the change stands.

The counts are kept in the site's cache: on PostgreSQL the database cache, shared by every
worker and every application server. A full cache may forget a count early (it then brakes
later, never wrongly); the limits are a brake on a flood of mail, not an exact count.
"""

from __future__ import annotations

import hashlib
import time
from enum import StrEnum

from django.conf import settings
from django.core.cache import cache

DEFAULT_PER_ADDRESS = 3
DEFAULT_PER_CLIENT = 10
DEFAULT_WINDOW_SECONDS = 3600
DEFAULT_INVITE_PER_ACCOUNT = 10
DEFAULT_INVITE_PER_ADDRESS = 3
DEFAULT_ROLE_NOTICE_PER_ADMIN = 5
_PREFIX = "bollen-reset-mail"


class Throttled(StrEnum):
    ADDRESS = "address"
    CLIENT = "client"
    INVITER = "inviter"  # an invitation's mail, per inviting account
    INVITED = "invited"  # an invitation's mail, per address invited
    ROLE_NOTICE = "role-notice"  # per person changing roles, per club


def _window() -> int:
    return int(getattr(settings, "RESET_MAIL_WINDOW_SECONDS", DEFAULT_WINDOW_SECONDS))


def _key(kind: Throttled, value: str) -> str:
    # Hashed: the cache holds no e-mail or client addresses.
    digest = hashlib.sha256(value.strip().lower().encode()).hexdigest()[:32]
    window = _window()
    return f"{_PREFIX}:{kind}:{digest}:{int(time.time()) // window}"


def _counted(kind: Throttled, value: str, limit: int) -> bool:
    """Count one request for ``value``; ``False`` (and not counted) above ``limit``."""
    key = _key(kind, value)
    if int(cache.get(key, 0)) >= limit:
        return False
    if not cache.add(key, 1, timeout=_window()):
        try:
            cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.add(key, 1, timeout=_window())
    return True


def reset_mail_throttled(*, address: str, client: str | None) -> Throttled | None:
    """Count a reset request for ``address`` from ``client``; what refuses it, or ``None``."""
    per_client = int(getattr(settings, "RESET_MAIL_PER_CLIENT", DEFAULT_PER_CLIENT))
    per_address = int(getattr(settings, "RESET_MAIL_PER_ADDRESS", DEFAULT_PER_ADDRESS))
    if client and not _counted(Throttled.CLIENT, client, per_client):
        return Throttled.CLIENT
    if not _counted(Throttled.ADDRESS, address, per_address):
        return Throttled.ADDRESS
    return None


def _limit(name: str, default: int) -> int:
    return int(getattr(settings, name, default))


def invitation_mail_throttled(*, inviter: int | None, address: str) -> Throttled | None:
    """Count an invitation mailed by account ``inviter`` (its id; ``None``: no account) to
    ``address`` (normalised by the caller); what refuses it, or ``None``."""
    per_account = _limit("INVITE_MAIL_PER_ACCOUNT", DEFAULT_INVITE_PER_ACCOUNT)
    per_address = _limit("INVITE_MAIL_PER_ADDRESS", DEFAULT_INVITE_PER_ADDRESS)
    if inviter is not None and not _counted(Throttled.INVITER, str(inviter), per_account):
        return Throttled.INVITER
    if not _counted(Throttled.INVITED, address, per_address):
        return Throttled.INVITED
    return None


def role_notice_throttled(*, club: int, by: int | None) -> bool:
    """Count a role notice of club ``club`` for a change by account ``by``; ``True`` when it
    is one too many (not to be sent)."""
    limit = _limit("ROLE_NOTICE_PER_ADMIN", DEFAULT_ROLE_NOTICE_PER_ADMIN)
    return not _counted(Throttled.ROLE_NOTICE, f"{club}:{by}", limit)
