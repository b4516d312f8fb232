"""Who may do what in a club.

- A *club admin* (``ClubRole.Role.ADMIN``): the club's settings (the address for phones
  included), the register, the competitions, the club's people and their roles, and every
  tournament of the club.
- A *director* (``ClubRole.Role.DIRECTOR``): creates tournaments in the club, directs their own
  and those they are invited to, uses the register for their evenings (check-in, new members);
  renames or merges only members whose evenings they direct, unless the club lets directors
  edit the whole register (``Club.directors_edit_register``).
- A *scorer* has no club role: scorers are listed per tournament.
- A superuser (whoever runs the installation) may do everything in every club.

An account may have a role in several clubs, one per club.
"""

from __future__ import annotations

from typing import TypeGuard

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from tournament.models import Club, ClubRole, Competition, Member, Tournament

AnyUser = User | AnonymousUser
Role = ClubRole.Role

# What each role may do, in plain words, for the team pages and the invitation page. The keys
# are the roles of an invitation (``TeamInvitation.Role``) and of a club (``ClubRole.Role``).
ROLE_DESCRIPTIONS = {
    "club_admin": _(
        "Club admin: the club's settings (the address for phones too), the member register, "
        "the competitions, the club's people and their roles, and every tournament of the club."
    ),
    "club_director": _(
        "Director: makes tournaments in the club and directs their own and the ones they are "
        "invited to; uses the register for their evenings (check-in, new members), but renames "
        "or merges only members of their own evenings, unless the club admin allows more."
    ),
    "director": _(
        "Co-director: everything in the tournament they are invited to: players, seating, "
        "score sheets, printing, settings and its team."
    ),
    "scorer": _(
        "Scorer: enters and confirms the score sheets of the tournament they are invited to "
        "and follows its rounds; no seating, players, imports, exports or settings."
    ),
}
CLUB_ROLE_DESCRIPTIONS = {
    Role.ADMIN: ROLE_DESCRIPTIONS["club_admin"],
    Role.DIRECTOR: ROLE_DESCRIPTIONS["club_director"],
}


def active(user: AnyUser) -> TypeGuard[User]:
    """A signed-in, active account (never the anonymous visitor)."""
    return bool(user.is_authenticated and user.is_active)


def club_role(user: AnyUser, club: Club) -> str | None:
    """``user``'s role in ``club`` (a superuser: admin everywhere), or ``None``."""
    if not active(user):
        return None
    if user.is_superuser:
        return Role.ADMIN
    # Asked several times a request (the page, its buttons): kept on the account object,
    # which lives as long as the request.
    known: dict[int, str | None] = user.__dict__.setdefault("_bollen_club_roles", {})
    if club.pk not in known:
        known[club.pk] = (
            ClubRole.objects.filter(club=club, user=user).values_list("role", flat=True).first()
        )
    return known[club.pk]


def is_club_admin(user: AnyUser, club: Club) -> bool:
    return club_role(user, club) == Role.ADMIN


def directs_in_club(user: AnyUser, club: Club) -> bool:
    """A director or admin of ``club``: may create tournaments in it and run its evenings."""
    return club_role(user, club) in (Role.ADMIN, Role.DIRECTOR)


def clubs_of(user: AnyUser) -> QuerySet[Club]:
    """The clubs where ``user`` has a role (a superuser: every club), by name."""
    if not active(user):
        return Club.objects.none()
    if user.is_superuser:
        return Club.objects.order_by("name", "pk")
    return Club.objects.filter(roles__user=user).order_by("name", "pk")


def may_edit_member(user: AnyUser, member: Member) -> bool:
    """Rename, renumber or merge ``member``: a club admin; a director when the club allows
    directors the whole register, or when every evening the member played is one they direct
    (a member who played none is anyone's to correct)."""
    role = club_role(user, member.register)
    if role == Role.ADMIN:
        return True
    if role != Role.DIRECTOR or not active(user):
        return False
    if member.register.directors_edit_register:
        return True
    others = Tournament.objects.filter(players__member=member).exclude(directors=user).exists()
    return not others


def member_refusal(user: AnyUser, member: Member) -> str:
    """Why ``user`` may not open or change ``member`` (the 403 page's words)."""
    if not directs_in_club(user, member.register):
        return str(_("This page is for the directors and club admins of the member's club."))
    return str(
        _(
            "Only the club admins change this member: it played evenings you do not direct, "
            "and the club lets directors change only the members of their own evenings."
        )
    )


EVENING_DIRECTORS_ONLY = _("Only the directors of this evening change its players.")


def runs_competition(user: AnyUser, competition: Competition) -> bool:
    """Opens the competition's pages and runs its evenings: a director or admin of its club."""
    return directs_in_club(user, competition.club)
