"""Invitations to a tournament's team or to a club."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournament.models.clubs import Club
from tournament.models.tournaments import Tournament


class TeamInvitation(models.Model):
    """A one-time link with which someone joins a tournament's team or a club, choosing their
    own username and password (no terminal needed).

    - ``club``: the club the invitation is of (a tournament's invitation: the tournament's).
    - ``tournament``, ``role``: what the invitation makes its user: in the tournament, a
      co-director (everything) or a scorer (sheets and the round overview only); in the club
      (no tournament), a club admin or a director.
    - ``token_hash``: SHA-256 of the link's secret; the secret itself is shown once (as a link
      and a QR code) and never stored.
    - ``created_by``, ``created_at``, ``expires_at``: who made it, when, and until when it works.
    - ``used_at``, ``used_by``: when it was used and the account it made; a used invitation
      opens nothing.
    - ``revoked_at``: set when a director withdraws the invitation before it is used.
    - ``email``: the address it was mailed to, until it is used.
    """

    class Role(models.TextChoices):
        CO_DIRECTOR = "director", _("co-director")
        SCORER = "scorer", _("scorer")
        CLUB_ADMIN = "club_admin", _("club admin")
        CLUB_DIRECTOR = "club_director", _("director in the club")

    club = models.ForeignKey(
        Club, on_delete=models.CASCADE, related_name="invitations", verbose_name=_("club")
    )
    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="invitations",
        null=True,
        blank=True,
        verbose_name=_("tournament"),
    )
    role = models.CharField(_("role"), max_length=16, choices=Role.choices)
    token_hash = models.CharField(_("secret (hashed)"), max_length=64, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("invited by"),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    expires_at = models.DateTimeField(_("expires at"))
    used_at = models.DateTimeField(_("used at"), null=True, blank=True)
    used_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("used by"),
    )
    revoked_at = models.DateTimeField(_("withdrawn at"), null=True, blank=True)
    # The address the invitation was mailed to: the join page offers it for the new account
    # (a password reset needs one). Cleared when the invitation is used.
    email = models.EmailField(_("mailed to"), max_length=254, blank=True, default="")

    class Meta:
        ordering = ["club", "tournament", "-created_at", "pk"]
        verbose_name = _("team invitation")
        verbose_name_plural = _("team invitations")
        constraints = [
            # A tournament's roles come with a tournament, a club's without one.
            models.CheckConstraint(
                condition=Q(tournament__isnull=False, role__in=["director", "scorer"])
                | Q(tournament__isnull=True, role__in=["club_admin", "club_director"]),
                name="invitation_role_fits",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament or self.club}: {self.get_role_display()}"

    @property
    def for_club(self) -> bool:
        """An invitation to a club role (not to one tournament's team)."""
        return self.tournament_id is None
