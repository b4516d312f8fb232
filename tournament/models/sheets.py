"""What each table wrote down: every version of its sheet (the current one is the sheet now),
the input not counted yet, the table's private link and the confirmations."""

from __future__ import annotations

from collections.abc import Sequence

from django.conf import settings
from django.db import models
from django.db.models import Exists, OuterRef, Q, Subquery
from django.utils.translation import gettext_lazy as _

from tournament.models.rounds import Table
from tournament.models.tournaments import Tournament


class SheetVersionQuerySet(models.QuerySet["SheetVersion"]):
    def current(self, table: Table | int | OuterRef) -> SheetVersionQuerySet:
        """The table's current version, as a query of at most one row: its highest number,
        version 0 (the sheet as imported) included, conflict records (no number) never. The one
        definition of "the sheet now"; whether it is a save is ``SheetVersion.is_save``.
        ``table``: a table, its id, or ``OuterRef`` to the table's id in a subquery."""
        return self.filter(table=table, number__isnull=False).order_by("-number")[:1]


class SheetVersion(models.Model):
    """One save of a table's score sheet, kept for good: the history behind "no lost results".

    Every save through ``tournament.sheets.services`` stores the whole sheet here, and the
    table's current version (the highest number) is the one copy of its sheet as it stands now
    (``tournament.adapter`` reads it); so any earlier state can be looked at and restored, and
    a save that lost a race is kept instead of thrown away.

    - ``table``: whose sheet.
    - ``number``: 1, 2, 3... per table in the order the saves won; the highest is the sheet now.
      Version 0 is the sheet as a tournament file brought it (via "before the first save"),
      before anything was saved on the site; it is not a save: nothing confirms it. ``None``
      marks a submission that was refused because someone else had saved first (a conflict):
      stored so the writer's input is not lost and can still be applied.
    - ``base_number``: the version the writer started from (0 before the first save).
    - ``cells``: the sheet, one list per deal (deal 1 first, trailing empty deals left out), each
      holding ``[bid, tricks]`` per seat index (``null`` where nothing is written).
    - ``penalties``: the revoke penalty bollen as ``[deal, seat index]`` pairs (the cells' key
      order).
    - ``via``: where the save came from: the director's sheet page, a table link, or the
      database as it was before the first save.
    - ``restored_from``: the version this save put back (history "restore"), if any.
    - ``user``, ``ip``: who saved and from which address, as far as known.
    - ``idempotency_key``: the random key of the submission; a submission sent twice (a double
      tap, a browser retry, an offline queue) is stored once. Unique per table.
    - ``submitted``: ``{"cells", "penalties"}`` as the submission had them, when that differs
      from what was counted (merged with another device's save, or with deals held back);
      ``None`` when the version is the submission itself. A retry is compared with this.
    - ``created_at``: when the save arrived.
    """

    class Via(models.TextChoices):
        DIRECTOR = "director", _("sheet page")
        TABLE_LINK = "table_link", _("table link")
        EARLIER = "earlier", _("before the first save")

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="sheet_versions", verbose_name=_("table")
    )
    number = models.PositiveIntegerField(_("version"), null=True, blank=True)
    base_number = models.PositiveIntegerField(_("started from version"), default=0)
    cells = models.JSONField(_("bids and tricks"), default=list)
    penalties = models.JSONField(_("penalty bollen"), default=list)
    via = models.CharField(_("saved via"), max_length=12, choices=Via.choices, default=Via.DIRECTOR)
    restored_from = models.ForeignKey(
        "self",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="restores",
        verbose_name=_("restored from"),
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="sheet_versions",
        verbose_name=_("saved by"),
    )
    ip = models.GenericIPAddressField(_("address"), null=True, blank=True)
    idempotency_key = models.UUIDField(_("submission key"), null=True, blank=True)
    submitted = models.JSONField(_("as submitted"), null=True, blank=True)
    created_at = models.DateTimeField(_("saved at"), auto_now_add=True)

    objects = SheetVersionQuerySet.as_manager()

    class Meta:
        ordering = ["table", "created_at", "pk"]
        verbose_name = _("sheet version")
        verbose_name_plural = _("sheet versions")
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="sheet_version_number_unique"),
            models.UniqueConstraint(
                fields=["table", "idempotency_key"], name="sheet_version_key_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table}: {_('version')} {self.number}"

    @property
    def is_conflict(self) -> bool:
        """Whether this submission was refused because the sheet had changed meanwhile."""
        return self.number is None

    @property
    def is_save(self) -> bool:
        """Whether this version was saved on the site: not a conflict record, nor version 0 (the
        sheet as a tournament file brought it, which nothing confirms)."""
        return bool(self.number)


class SheetDraft(models.Model):
    """A table's input that is not counted yet: the deals (and penalty bollen) of the last save
    that break a rule or would break "deals in order". One per table, replaced by every save,
    gone once all of it is counted. The counted sheet is the current version; this is only shown
    in the boxes again (on any device) until it is corrected.

    - ``cells``: ``[deal, seat index, bid, tricks]`` for every box of the held deals (``null``
      where the box is empty).
    - ``penalties``: the held penalty bollen as ``[deal, seat index]`` pairs.
    - ``authors``: the user ids of who typed it.
    """

    table = models.OneToOneField(
        Table, on_delete=models.CASCADE, related_name="sheet_draft", verbose_name=_("table")
    )
    cells = models.JSONField(_("bids and tricks"), default=list)
    penalties = models.JSONField(_("penalty bollen"), default=list)
    # Who typed it (the ids of the signed-in people whose saves held input back since the table
    # last had no draft): a save that merges it in records them, for the four eyes of a
    # confirmation (``sheets.authorship``).
    authors = models.JSONField(_("typed by"), default=list)
    updated_at = models.DateTimeField(_("saved at"), auto_now=True)

    class Meta:
        ordering = ["table"]
        verbose_name = _("unsaved sheet input")
        verbose_name_plural = _("unsaved sheet input")

    def __str__(self) -> str:
        return f"{self.table}: {_('unsaved sheet input')}"


class TableLink(models.Model):
    """The private link of one table in one round: whoever holds it enters that table's sheet.

    - ``table``: the table (and so the round) the link opens; nothing else is reachable with it.
    - ``token``: the link's secret, 256 random bits (``secrets.token_urlsafe(32)``), in the URL.
    - ``created_at``, ``created_by``: when and by which director it was made (printing the
      sheets makes one on demand).
    - ``revoked_at``: set when the director revokes the link (or issues a new one); a revoked
      link opens nothing. A table has at most one link that is not revoked.
    """

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="links", verbose_name=_("table")
    )
    token = models.CharField(_("secret"), max_length=64, unique=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="table_links",
        verbose_name=_("created by"),
    )
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)

    class Meta:
        ordering = ["table", "created_at", "pk"]
        verbose_name = _("table link")
        verbose_name_plural = _("table links")
        constraints = [
            models.UniqueConstraint(
                fields=["table"],
                condition=Q(revoked_at__isnull=True),
                name="table_link_one_active_per_table",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table}: {_('table link')}"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None


class SheetConfirmation(models.Model):
    """Someone's word on the team (a director, a co-director or a scorer) that one version of a
    sheet matches the paper form.

    - ``version``: the confirmed version (one confirmation per version). Only the sheet's
      current version can be confirmed, and only once it was saved on the site (version 0, the
      sheet as imported, is not); a later save makes the sheet unconfirmed again.
    - ``user``: who confirmed. The one who saved that version may too, by re-typing the paper
      form, where the rule in force is "re-typing confirms" (``scoring.confirmation``: also
      "automatic" for a director alone); under "another person confirms" never.
    - ``method``: looked the sheet over, or re-typed the paper form and found it equal.
    - ``created_at``: when.
    """

    class Method(models.TextChoices):
        LOOK = "look", _("looked over")
        RETYPE = "retype", _("re-typed")

    version = models.OneToOneField(
        SheetVersion,
        on_delete=models.CASCADE,
        related_name="confirmation",
        verbose_name=_("version"),
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="sheet_confirmations",
        verbose_name=_("confirmed by"),
    )
    method = models.CharField(_("how"), max_length=8, choices=Method.choices)
    created_at = models.DateTimeField(_("confirmed at"), auto_now_add=True)

    class Meta:
        ordering = ["version", "pk"]
        verbose_name = _("sheet confirmation")
        verbose_name_plural = _("sheet confirmations")

    def __str__(self) -> str:
        return f"{self.version}: {self.get_method_display()}"


class SheetScore(models.Model):
    """What a table's sheet scores, as computed from one version of it.

    Never edited by hand: ``tournament.adapter`` writes it in the transaction that stores a
    version, and on import. ``started`` and ``complete`` are what a round's state is read from
    (``Round.state``), so a table whose sheet holds anything has its row; the totals are a
    cache, read only while they are current (same version, same seats), otherwise the sheet is
    scored afresh. ``adapter.sheet_scores_refresh`` writes every table's row again from the
    current versions.

    - ``table``: whose sheet.
    - ``version``: the sheet version it was computed from (0: never saved on the site).
    - ``seat_ids``: the seats in seat order it was computed for.
    - ``started``, ``complete``: whether the sheet has any entry, and all 11 deals.
    - ``totals``: per seat index, ``scoring.sheet.SeatTotals`` as a list in field order.
    """

    table = models.OneToOneField(
        Table, on_delete=models.CASCADE, related_name="score", verbose_name=_("table")
    )
    version = models.PositiveIntegerField(_("version"))
    seat_ids = models.JSONField(_("seats"), default=list)
    started = models.BooleanField(_("started"), default=False)
    complete = models.BooleanField(_("complete"), default=False)
    totals = models.JSONField(_("totals"), default=list)

    class Meta:
        ordering = ["table"]
        verbose_name = _("sheet score")
        verbose_name_plural = _("sheet scores")

    def __str__(self) -> str:
        return f"{self.table}: {_('version')} {self.version}"


def unconfirmed_table_ids(tournament: Tournament) -> frozenset[int]:
    """The tables whose sheet's current version no director has confirmed (one query).

    A sheet that was never saved on the site (empty, or as imported from a tournament file)
    has nothing to confirm: it is not in the set. Nor is any sheet of a tournament that
    confirms no sheets (confirmation rule "none"): there every sheet is final.
    """
    return tournaments_unconfirmed_table_ids([tournament])


def tournaments_unconfirmed_table_ids(tournaments: Sequence[Tournament]) -> frozenset[int]:
    """``unconfirmed_table_ids`` of many tournaments in one query (a season's evenings)."""
    ids = [t.pk for t in tournaments if t.confirmation_rule != Tournament.ConfirmationRule.NONE]
    if not ids:
        return frozenset()
    current = SheetVersion.objects.current(OuterRef("pk"))
    confirmed = SheetConfirmation.objects.filter(version=OuterRef("current"))
    return frozenset(
        Table.objects.filter(round__tournament_id__in=ids)
        .order_by()  # a set: no join of every club's tournaments for the tables' default order
        .annotate(
            current=Subquery(current.values("pk")),
            current_number=Subquery(current.values("number")),
        )
        .filter(current_number__gt=0)  # a save: version 0 is nothing to confirm
        .annotate(confirmed=Exists(confirmed))
        .filter(confirmed=False)
        .values_list("pk", flat=True)
    )
