"""The club's log: what its admins did that the club must be able to account for (an erasure,
a member's data handed out, the privacy settings)."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User

from tournament.models import Club, ClubLogEntry

Action = ClubLogEntry.Action


def club_log(*, club: Club, by: User | AnonymousUser | None, action: str, text: str) -> None:
    """Write one entry in ``club``'s log (``by``: ``None`` from the command line)."""
    account = by if isinstance(by, User) else None
    ClubLogEntry.objects.create(
        club=club,
        by=account,
        by_name=account.get_username() if account is not None else "",
        action=action,
        text=text[:500],
    )
