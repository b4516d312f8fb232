"""Clubs and their people: making a club, the installation's one club, its settings, giving and
taking roles (the last admin stays)."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import models, transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from tournament.errors import Refused
from tournament.mail.notices import RoleChange, club_role_notice_on_commit
from tournament.models import Club, ClubRole, TeamInvitation, Tournament
from tournament.text import text_hidden_character, text_normalised

Role = ClubRole.Role
NAME_MAX = 200
# Slugs of URLs under /clubs/ that are not clubs.
RESERVED_SLUGS = frozenset({"new", "switch"})


class ClubRefusal(models.TextChoices):
    """Why a change of a club was refused, and what the page or command says."""

    SEVERAL = (
        "club_several",
        _("This site has several clubs: say which one (--club SHORT-NAME)."),
    )
    UNKNOWN = "club_unknown", _("There is no club with that short name.")
    NAME_HIDDEN = (
        "club_name_hidden",
        _(
            "The club's name contains an invisible or control character (such as a tab or a "
            "right-to-left mark); type it again without it."
        ),
    )
    NAME_LONG = "club_name_long", _("The club's name is longer than 200 characters.")
    NAME_EMPTY = "club_name_empty", _("Give the club a name.")
    LAST_ADMIN = (
        "club_last_admin",
        _("The club must keep at least one club admin: make someone else admin first."),
    )
    NO_ROLE = "club_no_role", _("That person has no role in this club (any more).")
    YOURSELF = (
        "club_yourself",
        _("You cannot change your own role; another club admin can."),
    )


def club_name_checked(name: str, *, required: bool = True) -> str:
    """The name tidied, or a refusal saying what is wrong with it."""
    if text_hidden_character(name) is not None:
        raise Refused.because(ClubRefusal.NAME_HIDDEN)
    name = text_normalised(name)
    if len(name) > NAME_MAX:
        raise Refused.because(ClubRefusal.NAME_LONG)
    if required and not name:
        raise Refused.because(ClubRefusal.NAME_EMPTY)
    return name


def club_unique_slug(name: str) -> str:
    base = slugify(name)[:60].strip("-") or "club"
    taken = set(Club.objects.filter(slug__startswith=base).values_list("slug", flat=True))
    slug, n = base, 1
    while slug in taken or slug in RESERVED_SLUGS:
        n += 1
        slug = f"{base}-{n}"
    return slug


@transaction.atomic
def club_create(*, name: str, admin: User | None = None) -> Club:
    """A new club named ``name`` (may be empty: named later on the site), with ``admin`` as its
    first club admin."""
    name = club_name_checked(name, required=False)
    club = Club.objects.create(name=name, slug=club_unique_slug(name))
    if admin is not None:
        ClubRole.objects.create(club=club, user=admin, role=Role.ADMIN)
    return club


def club_sole() -> Club:
    """The installation's one club, made (without a name) when there is none yet: what a
    laptop's commands and the demo work in. Refused when the site has several clubs."""
    with transaction.atomic():
        clubs = list(Club.objects.order_by("pk")[:2])
        if not clubs:
            return club_create(name="")
    if len(clubs) > 1:
        raise Refused.because(ClubRefusal.SEVERAL)
    return clubs[0]


def club_by_slug_or_sole(slug: str | None) -> Club:
    """The club named on the command line (``--club``), or the installation's one club."""
    if not slug:
        return club_sole()
    club = Club.objects.filter(slug=slug).first()
    if club is None:
        raise Refused.because(ClubRefusal.UNKNOWN)
    return club


@transaction.atomic
def club_update(*, club: Club, name: str, directors_edit_register: bool) -> Club:
    club.name = club_name_checked(name)
    club.directors_edit_register = directors_edit_register
    club.save(update_fields=["name", "directors_edit_register"])
    return club


def _lock_club(club: Club) -> None:
    """One change of a club's people at a time, so two admins cannot demote each other."""
    Club.objects.select_for_update().filter(pk=club.pk).values_list("pk").get()


def _admins_after(club: Club, user: User, role: str | None) -> int:
    admins = ClubRole.objects.filter(club=club, role=Role.ADMIN).exclude(user=user).count()
    return admins + (role == Role.ADMIN)


def _forget_roles(user: User) -> None:
    """The roles kept on the account object for this request (``clubs.roles.club_role``)."""
    user.__dict__.pop("_bollen_club_roles", None)


def club_role_give(
    *,
    club: Club,
    user: User,
    role: str,
    by_user: User | None = None,
    invited_by: User | None = None,
) -> ClubRole:
    """Give ``user`` ``role`` in ``club`` (a new role, or a change of theirs); the last admin
    stays admin. ``by_user`` gave it (``invited_by``: it came with that one's invitation); the
    club's admins get a notice of the change."""
    role = Role(role)
    _forget_roles(user)
    with transaction.atomic():
        _lock_club(club)
        existing = ClubRole.objects.filter(club=club, user=user).first()
        if (
            existing is not None
            and existing.role == Role.ADMIN
            and _admins_after(club, user, role) < 1
        ):
            raise Refused.because(ClubRefusal.LAST_ADMIN)
        club_role_notice_on_commit(
            RoleChange(
                club=club,
                person=user,
                old_role=existing.role if existing is not None else None,
                new_role=role,
                by_user=by_user,
                invited_by=invited_by,
            )
        )
        if existing is None:
            return ClubRole.objects.create(club=club, user=user, role=role)
        if existing.role == Role.ADMIN and role != Role.ADMIN:
            invitations_withdraw(club, user, club_only=True)  # only admins invite to the club
        existing.role = role
        existing.save(update_fields=["role"])
        return existing


def invitations_withdraw(
    club: Club, user: User, *, club_only: bool = False, tournament: Tournament | None = None
) -> None:
    """Withdraw the open invitations ``user`` made in ``club`` (``club_only``: those to the
    club itself; ``tournament``: those to its team only), when they lose the role that let
    them make them."""
    open_ones = TeamInvitation.objects.filter(
        club=club, created_by=user, used_at__isnull=True, revoked_at__isnull=True
    )
    if club_only:
        open_ones = open_ones.filter(tournament__isnull=True)
    if tournament is not None:
        open_ones = open_ones.filter(tournament=tournament)
    open_ones.update(revoked_at=timezone.now())


def club_role_change(*, club: Club, user: User, role: str, by_user: User) -> ClubRole:
    """A club admin changes someone else's role."""
    if user.pk == by_user.pk:
        raise Refused.because(ClubRefusal.YOURSELF)
    if not ClubRole.objects.filter(club=club, user=user).exists():
        raise Refused.because(ClubRefusal.NO_ROLE)
    return club_role_give(club=club, user=user, role=role, by_user=by_user)


def club_member_remove(*, club: Club, user: User, by_user: User) -> None:
    """Take ``user`` out of the club: their role, and their place as co-director of the
    club's tournaments (the club's admins keep directing those). Scorers listed on a
    tournament stay (that is the tournament team's to change)."""
    if user.pk == by_user.pk:
        raise Refused.because(ClubRefusal.YOURSELF)
    with transaction.atomic():
        _lock_club(club)
        existing = ClubRole.objects.filter(club=club, user=user).first()
        if existing is None:
            raise Refused.because(ClubRefusal.NO_ROLE)
        if existing.role == Role.ADMIN and _admins_after(club, user, None) < 1:
            raise Refused.because(ClubRefusal.LAST_ADMIN)
        existing.delete()
        club_role_notice_on_commit(
            RoleChange(
                club=club, person=user, old_role=existing.role, new_role=None, by_user=by_user
            )
        )
        _forget_roles(user)
        invitations_withdraw(club, user)
        for tournament in Tournament.objects.filter(club=club, directors=user):
            tournament.directors.remove(user)


def club_people(club: Club) -> list[ClubRole]:
    """The club's people: admins first, then directors, each by username."""
    return list(
        ClubRole.objects.filter(club=club).select_related("user").order_by("role", "user__username")
    )
