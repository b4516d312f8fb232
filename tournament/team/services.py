"""A tournament's team and a club's people, managed on the site: invitations (one-time links),
joining with one, and removing someone from a tournament's team (a club's people:
``tournament.clubs.services``).

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

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import IntegrityError, models, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournament.clubs.roles import is_club_admin
from tournament.clubs.services import club_role_give, invitations_withdraw
from tournament.errors import Refused
from tournament.mail.addresses import account_address_claim
from tournament.models import Club, ClubRole, TeamInvitation, Tournament

DEFAULT_INVITATION_HOURS = 48

Role = TeamInvitation.Role


class TeamRefusal(models.TextChoices):
    """Why a team change was refused, and what the page says."""

    UNKNOWN = "invitation_unknown", _("This invitation link does not exist.")
    USED = "invitation_used", _("This invitation link has been used already; it works only once.")
    EXPIRED = "invitation_expired", _("This invitation link has expired.")
    REVOKED = ("invitation_revoked", _("This invitation link was withdrawn."))
    ALREADY_MEMBER = (
        "already_member",
        _("You are on this tournament's team already, with this role or a wider one."),
    )
    MAKER_GONE = (
        "invitation_maker_gone",
        _(
            "This invitation link no longer works: whoever made it may no longer give this "
            "role. Ask for a new one."
        ),
    )
    ALREADY_IN_CLUB = (
        "already_in_club",
        _("You have this role in the club already, or a wider one."),
    )
    USERNAME_TAKEN = "username_taken", _("That username is taken; choose another one.")
    LAST_DIRECTOR = (
        "last_director",
        _("The tournament must keep at least one director: add another director first."),
    )
    YOURSELF = "yourself", _("To remove yourself, use “Leave this tournament”.")
    NOT_MEMBER = "not_member", _("That person is not on the team (any more).")


# The refusals of a link that opens nothing: the join page says so (410 Gone; unknown: 404).
DEAD_LINK = (
    TeamRefusal.UNKNOWN,
    TeamRefusal.USED,
    TeamRefusal.EXPIRED,
    TeamRefusal.REVOKED,
    TeamRefusal.MAKER_GONE,
)


@dataclass(frozen=True, slots=True)
class IssuedInvitation:
    """A new invitation and its secret: the only time the secret is known."""

    invitation: TeamInvitation
    token: str


def invitation_hours() -> int:
    return int(getattr(settings, "TEAM_INVITATION_HOURS", DEFAULT_INVITATION_HOURS))


def invitation_token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


CLUB_ROLES = {Role.CLUB_ADMIN: ClubRole.Role.ADMIN, Role.CLUB_DIRECTOR: ClubRole.Role.DIRECTOR}
TOURNAMENT_ROLES = (Role.CO_DIRECTOR, Role.SCORER)


def team_invitation_create(
    *,
    role: str,
    by_user: User,
    tournament: Tournament | None = None,
    club: Club | None = None,
    email: str = "",
) -> IssuedInvitation:
    """A one-time invitation to join ``tournament`` as ``role`` (co-director or scorer), or,
    without a tournament, ``club`` as a club admin or a director; ``email``: the address it is
    mailed to (offered on the join page)."""
    role = Role(role)
    if tournament is not None:
        if role not in TOURNAMENT_ROLES:
            raise ValueError(f"{role} is not a tournament's role")
        club = tournament.club
    elif club is None or role not in CLUB_ROLES:
        raise ValueError("a club's invitation needs the club and a club role")
    token = secrets.token_urlsafe(32)
    invitation = TeamInvitation.objects.create(
        club=club,
        tournament=tournament,
        role=role,
        token_hash=invitation_token_hash(token),
        created_by=by_user,
        expires_at=timezone.now() + datetime.timedelta(hours=invitation_hours()),
        email=email,
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


def _working(invitation: TeamInvitation | None) -> TeamInvitation:
    """The invitation when it still works. Raises :class:`Refused` otherwise."""
    refusal = invitation_refusal(invitation)
    if refusal is not None:
        raise Refused.because(refusal)
    assert invitation is not None  # a missing invitation is refused (UNKNOWN) above
    return invitation


def team_invitation_by_token(token: str) -> TeamInvitation:
    """The working invitation with this secret. Raises :class:`Refused` otherwise."""
    invitation = (
        TeamInvitation.objects.select_related("club", "tournament", "created_by")
        .filter(token_hash=invitation_token_hash(token))
        .first()
    )
    invitation = _working(invitation)
    if not _maker_may_still_grant(invitation):
        raise Refused.because(TeamRefusal.MAKER_GONE)
    return invitation


def team_pending_invitations(
    tournament: Tournament | None = None, *, club: Club | None = None
) -> models.QuerySet[TeamInvitation]:
    """The invitations of the tournament (or, without one, to ``club`` itself) that still
    work, newest first."""
    invitations = TeamInvitation.objects.all()
    if tournament is not None:
        invitations = invitations.filter(tournament=tournament)
    else:
        invitations = invitations.filter(club=club, tournament__isnull=True)
    return invitations.filter(
        used_at__isnull=True,
        revoked_at__isnull=True,
        expires_at__gt=timezone.now(),
    ).select_related("created_by")


def team_join(*, token: str, user: User) -> TeamInvitation:
    """``user`` (an existing account) joins the team with the invitation; it is used up."""
    with transaction.atomic():
        invitation = _lock_invitation(token)
        _join(invitation, user)
        return invitation


def team_join_new_account(*, token: str, username: str, password: str, email: str = "") -> User:
    """Create the account ``username`` with ``password`` (and the e-mail address ``email``, when
    given) and join the team with the invitation.

    The caller has validated the password (Django's validators), the username and the address;
    a username or address taken in the meantime raises :class:`Refused` and stores nothing.
    """
    with transaction.atomic():
        invitation = _lock_invitation(token)
        model = get_user_model()
        if model.objects.filter(username__iexact=username).exists():
            raise Refused.because(TeamRefusal.USERNAME_TAKEN)
        try:
            with transaction.atomic():
                user = model.objects.create_user(username=username, password=password)
        except IntegrityError as exc:
            raise Refused.because(TeamRefusal.USERNAME_TAKEN) from exc
        account_address_claim(user=user, address=email)
        _join(invitation, user)
        return user


def _lock_invitation(token: str) -> TeamInvitation:
    # Ordered by its key alone: the model's ordering joins the (nullable) tournament, and
    # PostgreSQL cannot lock the nullable side of an outer join.
    invitation = (
        TeamInvitation.objects.select_for_update()
        .filter(token_hash=invitation_token_hash(token))
        .order_by("pk")
        .first()
    )
    invitation = _working(invitation)
    if not _maker_may_still_grant(invitation):
        raise Refused.because(TeamRefusal.MAKER_GONE)
    return invitation


def _maker_may_still_grant(invitation: TeamInvitation) -> bool:
    """Whether whoever made the invitation may still give its role: a club admin of the club
    (a club's role), a director of the tournament (a tournament's). Someone removed or demoted
    since cannot come back, nor let anyone in, with a link made before."""
    from tournament.permissions import is_director

    maker = invitation.created_by
    if maker is None:
        return False
    if invitation.for_club:
        return is_club_admin(maker, invitation.club)
    assert invitation.tournament is not None
    return is_director(maker, invitation.tournament)


def _join(invitation: TeamInvitation, user: User) -> None:
    if invitation.for_club:
        _join_club(invitation, user)
    else:
        _join_tournament(invitation, user)
    invitation.used_at = timezone.now()
    invitation.used_by = user
    invitation.email = ""  # the account has it now, if its owner wanted
    invitation.save(update_fields=["used_at", "used_by", "email"])


def _join_club(invitation: TeamInvitation, user: User) -> None:
    wanted = CLUB_ROLES[Role(invitation.role)]
    now = ClubRole.objects.filter(club=invitation.club, user=user).values_list("role", flat=True)
    current = now.first()
    if current == ClubRole.Role.ADMIN or current == wanted:
        raise Refused.because(TeamRefusal.ALREADY_IN_CLUB)
    club_role_give(
        club=invitation.club, user=user, role=wanted, by_user=user, invited_by=invitation.created_by
    )


def _join_tournament(invitation: TeamInvitation, user: User) -> None:
    tournament = invitation.tournament
    assert tournament is not None  # a tournament's invitation (not for_club)
    directs = tournament.directors.filter(pk=user.pk).exists()
    if directs or (
        invitation.role == Role.SCORER and tournament.scorers.filter(pk=user.pk).exists()
    ):
        raise Refused.because(TeamRefusal.ALREADY_MEMBER)
    if invitation.role == Role.CO_DIRECTOR:
        tournament.scorers.remove(user)  # a scorer who becomes a director is one role only
        tournament.directors.add(user)
    else:
        tournament.scorers.add(user)


def team_member_remove(
    *, tournament: Tournament, member: User, role: str, by_user: User, leaving: bool = False
) -> None:
    """Take ``member`` off the team in ``role``. A director removes themselves only when
    ``leaving`` says they mean it; the last director stays."""
    role = Role(role)
    if member.pk == by_user.pk and not leaving:
        raise Refused.because(TeamRefusal.YOURSELF)
    with transaction.atomic():
        # One change of the team at a time, so two directors cannot remove each other at once.
        Tournament.objects.select_for_update().filter(pk=tournament.pk).values_list("pk").get()
        members = tournament.directors if role == Role.CO_DIRECTOR else tournament.scorers
        if not members.filter(pk=member.pk).exists():
            raise Refused.because(TeamRefusal.NOT_MEMBER)
        if role == Role.CO_DIRECTOR and tournament.directors.count() <= 1:
            raise Refused.because(TeamRefusal.LAST_DIRECTOR)
        members.remove(member)
        if role == Role.CO_DIRECTOR:
            invitations_withdraw(tournament.club, member, tournament=tournament)


@dataclass(frozen=True, slots=True)
class TeamMember:
    user: User
    role: str


def team_members(tournament: Tournament) -> list[TeamMember]:
    """Directors first, then scorers, each by username."""
    directors = tournament.directors.order_by("username")
    scorers = tournament.scorers.order_by("username")
    return [TeamMember(user=u, role=Role.CO_DIRECTOR) for u in directors] + [
        TeamMember(user=u, role=Role.SCORER) for u in scorers
    ]
