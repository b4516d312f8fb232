"""A tournament's team, managed on the site: invitations (one-time links), joining with one,
and removing someone.

An invitation's secret is ``secrets.token_urlsafe(32)``, shown once as a link and a QR code;
only its SHA-256 is stored (``TeamInvitation.token_hash``), so the database alone opens
nothing. A link works once, until it expires (``TEAM_INVITATION_HOURS``, 48 by default) or a
director withdraws it. Using it takes a row lock on the invitation, so two people opening the
same link at once cannot both join.
"""

from __future__ import annotations

import datetime
import hashlib
import secrets
from dataclasses import dataclass
from enum import StrEnum

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournament.models import TeamInvitation, Tournament

DEFAULT_INVITATION_HOURS = 48

Role = TeamInvitation.Role


class TeamRefusal(StrEnum):
    UNKNOWN = "invitation_unknown"
    USED = "invitation_used"
    EXPIRED = "invitation_expired"
    REVOKED = "invitation_revoked"
    ALREADY_MEMBER = "already_member"
    USERNAME_TAKEN = "username_taken"
    LAST_DIRECTOR = "last_director"
    YOURSELF = "yourself"
    NOT_MEMBER = "not_member"


TEAM_REFUSALS = {
    TeamRefusal.UNKNOWN: _("This invitation link does not exist."),
    TeamRefusal.USED: _("This invitation link has been used already; it works only once."),
    TeamRefusal.EXPIRED: _("This invitation link has expired."),
    TeamRefusal.REVOKED: _("This invitation link was withdrawn by the tournament director."),
    TeamRefusal.ALREADY_MEMBER: _(
        "You are on this tournament's team already, with this role or a wider one."
    ),
    TeamRefusal.USERNAME_TAKEN: _("That username is taken; choose another one."),
    TeamRefusal.LAST_DIRECTOR: _(
        "The tournament must keep at least one director: add another director first."
    ),
    TeamRefusal.YOURSELF: _("To remove yourself, use “Leave this tournament”."),
    TeamRefusal.NOT_MEMBER: _("That person is not on the team (any more)."),
}

# The refusals of a link that opens nothing: the join page says so (410 Gone; unknown: 404).
LINK_REFUSALS = (TeamRefusal.UNKNOWN, TeamRefusal.USED, TeamRefusal.EXPIRED, TeamRefusal.REVOKED)


class TeamRefused(Exception):
    """The team change cannot be made; nothing was stored."""

    def __init__(self, code: TeamRefusal) -> None:
        self.code = code
        self.message = str(TEAM_REFUSALS[code])
        super().__init__(code)


@dataclass(frozen=True, slots=True)
class IssuedInvitation:
    """A new invitation and its secret: the only time the secret is known."""

    invitation: TeamInvitation
    token: str


def invitation_hours() -> int:
    return int(getattr(settings, "TEAM_INVITATION_HOURS", DEFAULT_INVITATION_HOURS))


def invitation_token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def team_invitation_create(*, tournament: Tournament, role: str, by_user) -> IssuedInvitation:
    """A one-time invitation to join ``tournament`` as ``role`` (co-director or scorer)."""
    role = Role(role)
    token = secrets.token_urlsafe(32)
    invitation = TeamInvitation.objects.create(
        tournament=tournament,
        role=role,
        token_hash=invitation_token_hash(token),
        created_by=by_user,
        expires_at=timezone.now() + datetime.timedelta(hours=invitation_hours()),
    )
    return IssuedInvitation(invitation=invitation, token=token)


def team_invitation_revoke(*, invitation: TeamInvitation) -> bool:
    """Withdraw an invitation that has not been used; whether there was one to withdraw."""
    changed = TeamInvitation.objects.filter(
        pk=invitation.pk, used_at__isnull=True, revoked_at__isnull=True
    ).update(revoked_at=timezone.now())
    return changed > 0


def invitation_refusal(invitation: TeamInvitation | None) -> TeamRefusal | None:
    """Why the invitation opens nothing (now), or ``None`` when it still works."""
    if invitation is None:
        return TeamRefusal.UNKNOWN
    if invitation.used_at is not None:
        return TeamRefusal.USED
    if invitation.revoked_at is not None:
        return TeamRefusal.REVOKED
    if invitation.expires_at <= timezone.now():
        return TeamRefusal.EXPIRED
    return None


def team_invitation_by_token(token: str) -> TeamInvitation:
    """The working invitation with this secret. Raises :class:`TeamRefused` otherwise."""
    invitation = (
        TeamInvitation.objects.select_related("tournament", "created_by")
        .filter(token_hash=invitation_token_hash(token))
        .first()
    )
    refusal = invitation_refusal(invitation)
    if refusal is not None:
        raise TeamRefused(refusal)
    return invitation


def team_pending_invitations(tournament: Tournament):
    """The invitations of the tournament that still work, newest first."""
    return TeamInvitation.objects.filter(
        tournament=tournament,
        used_at__isnull=True,
        revoked_at__isnull=True,
        expires_at__gt=timezone.now(),
    ).select_related("created_by")


def team_join(*, token: str, user) -> TeamInvitation:
    """``user`` (an existing account) joins the team with the invitation; it is used up."""
    with transaction.atomic():
        invitation = _lock_invitation(token)
        _join(invitation, user)
        return invitation


def team_join_new_account(*, token: str, username: str, password: str):
    """Create the account ``username`` with ``password`` and join the team with the invitation.

    The caller has validated the password (Django's validators) and the username; a username
    taken in the meantime raises :class:`TeamRefused` and stores nothing.
    """
    with transaction.atomic():
        invitation = _lock_invitation(token)
        model = get_user_model()
        if model.objects.filter(username__iexact=username).exists():
            raise TeamRefused(TeamRefusal.USERNAME_TAKEN)
        try:
            with transaction.atomic():
                user = model.objects.create_user(username=username, password=password)
        except IntegrityError as exc:
            raise TeamRefused(TeamRefusal.USERNAME_TAKEN) from exc
        _join(invitation, user)
        return user


def _lock_invitation(token: str) -> TeamInvitation:
    invitation = (
        TeamInvitation.objects.select_for_update()
        .filter(token_hash=invitation_token_hash(token))
        .first()
    )
    refusal = invitation_refusal(invitation)
    if refusal is not None:
        raise TeamRefused(refusal)
    return invitation


def _join(invitation: TeamInvitation, user) -> None:
    tournament = invitation.tournament
    directs = tournament.directors.filter(pk=user.pk).exists()
    if directs or (
        invitation.role == Role.SCORER and tournament.scorers.filter(pk=user.pk).exists()
    ):
        raise TeamRefused(TeamRefusal.ALREADY_MEMBER)
    if invitation.role == Role.CO_DIRECTOR:
        tournament.scorers.remove(user)  # a scorer who becomes a director is one role only
        tournament.directors.add(user)
    else:
        tournament.scorers.add(user)
    invitation.used_at = timezone.now()
    invitation.used_by = user
    invitation.save(update_fields=["used_at", "used_by"])


def team_member_remove(
    *, tournament: Tournament, member, role: str, by_user, leaving: bool = False
) -> None:
    """Take ``member`` off the team in ``role``. A director removes themselves only when
    ``leaving`` says they mean it; the last director stays."""
    role = Role(role)
    if member.pk == by_user.pk and not leaving:
        raise TeamRefused(TeamRefusal.YOURSELF)
    with transaction.atomic():
        # One change of the team at a time, so two directors cannot remove each other at once.
        Tournament.objects.select_for_update().filter(pk=tournament.pk).values_list("pk").get()
        members = tournament.directors if role == Role.CO_DIRECTOR else tournament.scorers
        if not members.filter(pk=member.pk).exists():
            raise TeamRefused(TeamRefusal.NOT_MEMBER)
        if role == Role.CO_DIRECTOR and tournament.directors.count() <= 1:
            raise TeamRefused(TeamRefusal.LAST_DIRECTOR)
        members.remove(member)


@dataclass(frozen=True, slots=True)
class TeamMember:
    user: object
    role: str


def team_members(tournament: Tournament) -> list[TeamMember]:
    """Directors first, then scorers, each by username."""
    directors = tournament.directors.order_by("username")
    scorers = tournament.scorers.order_by("username")
    return [TeamMember(user=u, role=Role.CO_DIRECTOR) for u in directors] + [
        TeamMember(user=u, role=Role.SCORER) for u in scorers
    ]
