"""What the bound on costly work counts (``tournament.venue.costly``)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class CostlyWork(models.Model):
    """One costly job started: an uploaded file read and stored, or a photo of a score sheet
    read (``kind``), by ``user`` (or through a table's ``link``) for ``club``. The site counts
    these per account (per link) and per club within a window, each kind against its own
    limits; rows older than it go as new ones come. (A table, not the cache: a full cache
    throws out old entries, and with them the count.)"""

    class Kind(models.TextChoices):
        FILE = "file", _("file")
        PHOTO = "photo", _("photo of a score sheet")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        related_name="+",
        verbose_name=_("account"),
    )
    club = models.ForeignKey(
        "tournament.Club",
        on_delete=models.CASCADE,
        null=True,
        related_name="+",
        verbose_name=_("club"),
    )
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices, default=Kind.FILE)
    # A table's link has no account: its photos are counted per link.
    link = models.ForeignKey(
        "tournament.TableLink",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("table link"),
    )
    started_at = models.DateTimeField(_("started at"), default=timezone.now, db_index=True)

    class Meta:
        verbose_name = _("costly upload")
        verbose_name_plural = _("costly uploads")

    def __str__(self) -> str:
        return f"{self.user_id} {self.club_id} {self.started_at:%Y-%m-%d %H:%M}"
