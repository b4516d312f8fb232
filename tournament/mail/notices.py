"""The notice to a club's admins when a role in the club changes: given (an admin gave it, or
someone joined with an invitation), changed, or taken away.

Every admin of the club with an e-mail address gets it (the one who made the change too: it is
the club's record in everybody's inbox), after the change is committed, so a mail server that
is slow or down never holds up or undoes the change: it is logged and the change stands.
One person changing many roles of a club in a short time sends a few notices, then no more
for the hour (``mail.throttle``: ``ROLE_NOTICE_PER_ADMIN``): each skipped one is logged.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from datetime import datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from tournament.mail.sending import Sent, email_enabled, mail_send
from tournament.mail.throttle import role_notice_throttled
from tournament.models import Club, ClubRole

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class RoleChange:
    """What changed: ``old_role``/``new_role`` are ``ClubRole.Role`` values, ``None`` for no
    role; ``by_user`` who changed it (for a join with an invitation, the person who joined, and
    ``invited_by`` who made the invitation)."""

    club: Club
    person: User
    old_role: str | None
    new_role: str | None
    by_user: User | None
    invited_by: User | None = None
    at: datetime | None = None


def _label(role: str | None) -> object:
    return ClubRole.Role(role).label if role else ""


def club_admin_addresses(club: Club) -> list[str]:
    """The addresses of ``club``'s admins that have one, once each."""
    addresses = (
        ClubRole.objects.filter(club=club, role=ClubRole.Role.ADMIN)
        .exclude(user__email="")
        .order_by("user__username")
        .values_list("user__email", flat=True)
    )
    return list(dict.fromkeys(addresses))


def club_role_notice(change: RoleChange) -> Sent:
    """Mail the notice of ``change`` to every admin of its club who has an address."""
    if not email_enabled():
        return Sent.OFF
    context = {
        "club": change.club,
        "person": change.person.get_username(),
        "old_role": _label(change.old_role),
        "new_role": _label(change.new_role),
        "by": change.by_user.get_username() if change.by_user is not None else "",
        "invited_by": change.invited_by.get_username() if change.invited_by is not None else "",
        "joined": change.invited_by is not None,
        "at": change.at or timezone.now(),
    }
    return mail_send(name="role_changed", to=club_admin_addresses(change.club), context=context)


def club_role_notice_on_commit(change: RoleChange) -> None:
    """Send the notice once the change is committed (at once outside a transaction)."""
    if not email_enabled() or change.old_role == change.new_role:
        return
    if change.at is None:
        change = replace(change, at=timezone.now())
    transaction.on_commit(lambda: _club_role_notice_unless_throttled(change))


def _club_role_notice_unless_throttled(change: RoleChange) -> Sent | None:
    """The notice, unless its changer sent too many in this club lately (``None``: skipped)."""
    by = change.by_user.pk if change.by_user is not None else None
    if role_notice_throttled(club=change.club.pk, by=by):
        logger.warning(
            "role notice skipped: too many by user %s in club %s lately", by, change.club.pk
        )
        return None
    return club_role_notice(change)
