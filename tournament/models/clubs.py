"""The club: the unit that owns tournaments, competitions, the member register, invitations and
its own settings, with the people who run it and their roles.

A laptop installation has one club; a hosted site has many. Every read and write of the site
is scoped by a club (``tournament.clubs``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournament.text import validate_visible


class Club(models.Model):
    """A club (or a federation's section) that runs Bollen evenings and tournaments.

    - ``name``: as shown on every page ("BC De Klaverbol"); empty until its admin names it (a
      laptop's first ``make run`` makes the club without asking).
    - ``slug``: the club's name in URLs (its public page ``/clubs/<slug>/``) and on the command
      line; unique, never changed.
    - ``site_url``: the address phones open for this club's QR codes and links (set by a club
      admin on the site; empty: the server's ``SITE_URL`` or its network address). Every change
      is a :class:`ClubAddressChange`.
    - ``directors_edit_register``: directors may rename and merge any member of the register,
      not only those who played the evenings they direct.
    - ``name_display``: what the public pages and files show of a player's name (see
      ``NameDisplay``; ``tournament.clubs.public_names``). The director's pages show full names.
    - ``privacy_text``: the club's privacy statement, public at ``/clubs/<slug>/privacy/``
      (empty: the site's default text, ``tournament.privacy.statement``).
    - ``former_members``: how many members were erased; the next one becomes "Oud-lid N+1",
      so each number is used once in the club.
    """

    class NameDisplay(models.TextChoices):
        FULL = "full", _("full name")
        SHORT = "short", _("first name and initial (Marloes B.)")
        TABLE = "table", _("no names: table and seat, or a player number")

    name = models.CharField(_("name"), max_length=200, blank=True, validators=[validate_visible])
    slug = models.SlugField(_("short name"), max_length=80, unique=True)
    site_url = models.URLField(_("address for phones"), max_length=200, blank=True)
    directors_edit_register = models.BooleanField(
        _("directors may rename and merge every member of the register"), default=False
    )
    name_display = models.CharField(
        _("names on public pages"),
        max_length=8,
        choices=NameDisplay.choices,
        default=NameDisplay.FULL,
    )
    privacy_text = models.TextField(_("privacy statement"), blank=True)
    former_members = models.PositiveIntegerField(_("members erased"), default=0)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["name", "pk"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name or str(_("your club"))


class ClubRole(models.Model):
    """What an account may do in a club (one role per account and club).

    - ``admin``: the club's settings (the address for phones included), the register, the
      competitions, the club's people and their roles, and every tournament of the club.
    - ``director``: creates tournaments in the club, directs their own and those they are
      invited to, uses the register for their evenings.

    A scorer is not a club role: scorers are listed per tournament (``Tournament.scorers``).
    """

    class Role(models.TextChoices):
        ADMIN = "admin", _("club admin")
        DIRECTOR = "director", _("director")

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="roles", verbose_name=_("club")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="club_roles",
        verbose_name=_("account"),
    )
    role = models.CharField(_("role"), max_length=8, choices=Role.choices)
    created_at = models.DateTimeField(_("since"), auto_now_add=True)

    class Meta:
        ordering = ["club", "role", "user"]
        verbose_name = _("club role")
        verbose_name_plural = _("club roles")
        constraints = [
            models.UniqueConstraint(fields=["club", "user"], name="club_role_once"),
        ]

    def __str__(self) -> str:
        return f"{self.club}: {self.user} ({self.get_role_display()})"


class ClubAddressChange(models.Model):
    """One change of a club's address for phones: who, when, from what to what, and whether a
    phone has opened the new address since (the test QR code of the address page).

    - ``changed_by``, ``changed_by_name``: the account (its name kept when it is deleted).
    - ``old_url``, ``new_url``: the stored address before and after (``''``: found
      automatically).
    - ``confirmed_at``: when a phone opened the change's test link (its QR code on the address
      page; ``venue.site_address.site_address_check_token``) by the new address.
    """

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="address_changes", verbose_name=_("club")
    )
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("changed by"),
    )
    changed_by_name = models.CharField(_("changed by"), max_length=150, blank=True)
    changed_at = models.DateTimeField(_("changed at"), auto_now_add=True)
    old_url = models.CharField(_("old address"), max_length=200, blank=True)
    new_url = models.CharField(_("new address"), max_length=200, blank=True)
    confirmed_at = models.DateTimeField(_("opened from a phone at"), null=True, blank=True)

    class Meta:
        ordering = ["club", "-changed_at", "-pk"]
        verbose_name = _("change of the address for phones")
        verbose_name_plural = _("changes of the address for phones")

    def __str__(self) -> str:
        return f"{self.club}: {self.old_url or '-'} -> {self.new_url or '-'}"


class ClubLogEntry(models.Model):
    """One event in a club's log, read by its admins (``/club/log/``): when, who, what.

    - ``action``: what kind of event (see ``Action``).
    - ``by``, ``by_name``: the account (its name kept when the account is deleted; empty for
      the command line).
    - ``text``: what happened, in words that name no erased person ("Lid gewist: nu Oud-lid 3").
    """

    class Action(models.TextChoices):
        ERASED = "erased", _("member erased")
        MEMBER_FILE = "member_file", _("member's data downloaded")
        PRIVACY = "privacy", _("privacy settings changed")
        CONSENT = "consent", _("consent changed")

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="log_entries", verbose_name=_("club")
    )
    at = models.DateTimeField(_("at"), auto_now_add=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("by"),
    )
    by_name = models.CharField(_("by"), max_length=150, blank=True)
    action = models.CharField(_("action"), max_length=16, choices=Action.choices)
    text = models.CharField(_("what"), max_length=500)

    class Meta:
        ordering = ["club", "-at", "-pk"]
        verbose_name = _("club log entry")
        verbose_name_plural = _("club log entries")
        indexes = [models.Index(fields=["club", "-at"], name="club_log_club_at")]

    def __str__(self) -> str:
        return f"{self.club}: {self.get_action_display()} {self.at:%Y-%m-%d %H:%M}"
