"""Photos of paper score sheets, kept with what they were read as and the sheet version they
ended up in: the evidence for a later dispute."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournament.models.rounds import Table
from tournament.models.sheets import SheetVersion


class SheetPhoto(models.Model):
    """One photo of a table's paper score sheet, as uploaded on the round page or the table's
    link, and what the site read from it.

    The bytes live in the database, not in a media folder: a hosted site runs two servers on one
    PostgreSQL and has no shared disk, and a club's backup must carry them.

    - ``table``: whose sheet it is (from the sheet's QR code).
    - ``uploaded_by``: the account that uploaded it (``None``: through the table link, or an
      account since removed). A reading is that person's entry.
    - ``via``: the round page (a team member) or the table's link.
    - ``created_at``: when it was uploaded.
    - ``photo``: the photo as uploaded, re-encoded as a JPEG of sane size
      (``sheet_photos.images``).
    - ``page``: the photo straightened to the printed page (A4 landscape), a JPEG at
      ``px_per_mm`` pixels per millimetre: what the sheet page shows beside the grid.
    - ``reading``: what was read, ``{"deals": [{"deal", "bids", "tricks"}], "uncertain":
      [[deal, row, kind]], "boxes": {"deal:row:kind": [x, y, w, h] mm}}`` (row = seat index).
    - ``version``: the sheet version the photo ended up in: set by the save that counted it
      (or, when the reading equals the sheet as counted, that version at once). ``None`` while
      the reading waits to be checked.
    - ``set_aside_at``: when a newer photo of the same table took its place before it was
      saved. A table has at most one photo waiting (no version, not set aside).
    - ``sha256``: the uploaded file's SHA-256 (hex): the same file sent again is not read or
      stored again (``""``: not known, restored from an older backup).
    """

    class Via(models.TextChoices):
        ROUND_PAGE = "round_page", _("round page")
        TABLE_LINK = "table_link", _("table link")

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="photos", verbose_name=_("table")
    )
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="sheet_photos",
        verbose_name=_("uploaded by"),
    )
    via = models.CharField(_("uploaded via"), max_length=12, choices=Via.choices)
    created_at = models.DateTimeField(_("uploaded at"), auto_now_add=True)
    photo = models.BinaryField(_("photo"))
    page = models.BinaryField(_("straightened page"))
    px_per_mm = models.FloatField(_("pixels per millimetre"))
    reading = models.JSONField(_("reading"), default=dict)
    version = models.ForeignKey(
        SheetVersion,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="photos",
        verbose_name=_("sheet version"),
    )
    set_aside_at = models.DateTimeField(_("set aside at"), null=True, blank=True)
    sha256 = models.CharField(_("SHA-256 of the file"), max_length=64, blank=True, default="")

    class Meta:
        ordering = ["table", "created_at", "pk"]
        verbose_name = _("sheet photo")
        verbose_name_plural = _("sheet photos")
        indexes = [models.Index(fields=["sha256"], name="sheet_photo_sha256")]
        constraints = [
            models.UniqueConstraint(
                fields=["table"],
                condition=Q(version__isnull=True, set_aside_at__isnull=True),
                name="sheet_photo_one_waiting_per_table",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table}: {_('sheet photo')} {self.pk}"

    @property
    def is_waiting(self) -> bool:
        """Whether its reading still waits to be checked and saved."""
        return self.version_id is None and self.set_aside_at is None
