"""The tournament's data: who plays, where they sit each round, and what each table wrote down.

Points, bollen and standings are never stored: they are computed from the score sheets by
``scoring/`` through ``tournament.adapter``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from scoring.deals import DEAL_COUNT
from scoring.seating import Balance
from scoring.standings import DEFAULT_ORDER, TieBreak

MAX_HAND = 5


def default_table_sizes() -> list[int]:
    return [4, 5]


def default_tiebreaks() -> list[str]:
    return [str(tb) for tb in DEFAULT_ORDER]


class Tournament(models.Model):
    """A tournament: one afternoon (or evening) of several rounds of Bollen.

    - ``name``, ``date``, ``place``: shown on every page and printout.
    - ``slug``: the tournament's name in URLs and on the command line; unique.
    - ``table_sizes``: the table sizes allowed (list of ints, default ``[4, 5]``).
    - ``prefer_size``: which of two allowed sizes to use as often as possible.
    - ``rounds_planned``: how many rounds the director intends to play.
    - ``tiebreaks``: the order of standings criteria (values of ``scoring.TieBreak``).
    - ``language``: language of the public pages and printouts.
    - ``public``: whether the public pages (where do I sit, standings) are switched on.
    - ``count_unconfirmed``: whether sheets that no director has confirmed yet count in the
      standings (marked provisional there); off: only confirmed sheets count.
    - ``directors``: the accounts that may change this tournament (co-directors: everything).
    - ``scorers``: the accounts that may enter and confirm this tournament's sheets and see the
      round overview, but not change seating, players, imports or deletions.
    - ``confirmation_rule``: how a sheet becomes confirmed (see ``ConfirmationRule``).
    - ``seating_balance``: which goal the seating puts first when they conflict (see
      ``SeatingBalance``, mirroring ``scoring.seating.Balance``); the director's last choice,
      used for the next rounds.
    - ``clubs_apart_first_round``: round 1 seats players of one club at different tables, as
      far as the number of tables allows.
    """

    class ConfirmationRule(models.TextChoices):
        # "auto": another person confirms when the team has two or more people, re-typing
        # confirms when the director works alone.
        AUTO = "auto", _("automatic: another person when there is a team, re-typing when alone")
        OTHER_PERSON = "other", _("another person confirms")
        RETYPE = "retype", _("re-typing the paper sheet confirms")
        NONE = "none", _("no confirmation")

    class Language(models.TextChoices):
        DUTCH = "nl", _("Dutch")
        ENGLISH = "en", _("English")

    class SeatingBalance(models.TextChoices):
        EVEN = Balance.EVEN.value, _("even tables: everyone about equally often at a larger table")
        REPEATS = Balance.REPEATS.value, _("fewest repeated meetings")

    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("short name"), max_length=80, unique=True)
    date = models.DateField(_("date"), null=True, blank=True)
    place = models.CharField(_("place"), max_length=200, blank=True)
    table_sizes = models.JSONField(_("table sizes"), default=default_table_sizes)
    prefer_size = models.PositiveSmallIntegerField(_("preferred table size"), default=4)
    rounds_planned = models.PositiveSmallIntegerField(_("rounds planned"), default=4)
    tiebreaks = models.JSONField(_("tie-break order"), default=default_tiebreaks)
    language = models.CharField(
        _("language"), max_length=2, choices=Language.choices, default=Language.DUTCH
    )
    public = models.BooleanField(_("public pages on"), default=False)
    count_unconfirmed = models.BooleanField(
        _("unconfirmed sheets count in the standings"), default=True
    )
    directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        related_name="directed_tournaments",
        blank=True,
        verbose_name=_("directors"),
    )
    scorers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        related_name="scored_tournaments",
        blank=True,
        verbose_name=_("scorers"),
    )
    confirmation_rule = models.CharField(
        _("confirmation of sheets"),
        max_length=8,
        choices=ConfirmationRule.choices,
        default=ConfirmationRule.AUTO,
    )
    seating_balance = models.CharField(
        _("seating balance"),
        max_length=8,
        choices=SeatingBalance.choices,
        default=SeatingBalance.EVEN,
    )
    clubs_apart_first_round = models.BooleanField(
        _("players of one club apart in round 1"), default=True
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["-date", "-created_at"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        constraints = [
            models.CheckConstraint(
                condition=Q(prefer_size__gte=3, prefer_size__lte=6), name="tournament_prefer_3_6"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def tiebreak_order(self) -> tuple[TieBreak, ...]:
        return tuple(TieBreak(value) for value in self.tiebreaks)


class Player(models.Model):
    """A player registered for one tournament.

    - ``file_id``: the player's id in the portable tournament file; unique per tournament.
    - ``name``, ``club``: as registered.
    - ``joined_round``: the first round the player can be seated in (late entries: > 1).
    - ``withdrawn_round``: from this round on the player is no longer seated (``None``: active).
      Earlier rounds keep counting in the standings.
    """

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="players", verbose_name=_("tournament")
    )
    file_id = models.CharField(_("id in the tournament file"), max_length=64)
    name = models.CharField(_("name"), max_length=200)
    club = models.CharField(_("club"), max_length=200, blank=True)
    joined_round = models.PositiveSmallIntegerField(_("plays from round"), default=1)
    withdrawn_round = models.PositiveSmallIntegerField(
        _("withdrawn from round"), null=True, blank=True
    )

    class Meta:
        ordering = ["name", "pk"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "file_id"], name="player_file_id_unique_per_tournament"
            ),
            models.CheckConstraint(condition=Q(joined_round__gte=1), name="player_joined_gte_1"),
            models.CheckConstraint(
                condition=Q(withdrawn_round__isnull=True)
                | Q(withdrawn_round__gt=F("joined_round")),
                name="player_withdrawn_after_joined",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def plays_in(self, round_number: int) -> bool:
        if round_number < self.joined_round:
            return False
        return self.withdrawn_round is None or round_number < self.withdrawn_round


class ApartPair(models.Model):
    """Two players the seating never puts at one table, in any round (partners, family): a
    director's setting, passed to the planner as ``apart``.

    - ``tournament``: whose players they are.
    - ``player_a``, ``player_b``: the two players, the lower key first, so a pair is stored once.
    """

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="apart_pairs",
        verbose_name=_("tournament"),
    )
    player_a = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="+", verbose_name=_("player")
    )
    player_b = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="+", verbose_name=_("never with")
    )

    class Meta:
        ordering = ["tournament", "player_a", "player_b"]
        verbose_name = _("pair never at one table")
        verbose_name_plural = _("pairs never at one table")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player_a", "player_b"], name="apart_pair_unique"
            ),
            models.CheckConstraint(
                condition=Q(player_a__lt=F("player_b")), name="apart_pair_ordered"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player_a} / {self.player_b}"


class Round(models.Model):
    """One round of the tournament: every seated player plays one full game of 11 deals.

    ``state`` moves draft -> seated -> playing -> complete. A seated round's seating may still
    change; once play starts (the first deal is entered) the seating is locked.
    ``seating_options``: when the round was seated with tables of two sizes, what each balance
    gave for the rest of the tournament (``tournament.rounds.seating.SeatingOption`` as a
    dict per balance value: repeats, larger-table counts, this round's tables), so the director
    can compare them and take the other before publishing; empty otherwise.
    """

    class State(models.TextChoices):
        DRAFT = "draft", _("draft")
        SEATED = "seated", _("seated")
        PLAYING = "playing", _("playing")
        COMPLETE = "complete", _("complete")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="rounds", verbose_name=_("tournament")
    )
    number = models.PositiveSmallIntegerField(_("round"))
    state = models.CharField(_("state"), max_length=10, choices=State.choices, default=State.DRAFT)
    seating_options = models.JSONField(_("seating options"), default=dict, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_gte_1"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} - {_('round')} {self.number}"


# The states in which a round's seating may still change (nothing entered yet).
SEATING_EDITABLE_STATES = (Round.State.DRAFT, Round.State.SEATED)


class Table(models.Model):
    """A table in a round: its seats and its score sheet."""

    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="tables", verbose_name=_("round")
    )
    number = models.PositiveSmallIntegerField(_("table"))

    class Meta:
        ordering = ["round", "number"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="table_number_gte_1"),
        ]

    def __str__(self) -> str:
        return f"{self.round} - {_('table')} {self.number}"


class Seat(models.Model):
    """A player's place at a table. ``position`` counts clockwise from 0; seat 0 deals deal 1.

    ``round`` repeats ``table.round`` so that the database itself can refuse a player sitting
    twice in one round.
    """

    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="seats", verbose_name=_("round")
    )
    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="seats", verbose_name=_("table")
    )
    # RESTRICT: a player who has sat at a table cannot be deleted on their own (withdraw
    # them instead), but deleting the whole tournament takes the seats with it.
    player = models.ForeignKey(
        Player, on_delete=models.RESTRICT, related_name="seats", verbose_name=_("player")
    )
    position = models.PositiveSmallIntegerField(_("seat"))

    class Meta:
        ordering = ["table", "position"]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        constraints = [
            models.UniqueConstraint(fields=["round", "player"], name="seat_player_once_per_round"),
            models.UniqueConstraint(fields=["table", "position"], name="seat_position_unique"),
            models.CheckConstraint(condition=Q(position__lte=5), name="seat_position_0_5"),
        ]

    def __str__(self) -> str:
        return f"{self.table}: {self.position} {self.player}"


class Entry(models.Model):
    """One cell of a score sheet: a seat's bid and tricks in one deal (``None`` until written)."""

    seat = models.ForeignKey(
        Seat, on_delete=models.CASCADE, related_name="entries", verbose_name=_("seat")
    )
    deal = models.PositiveSmallIntegerField(_("deal"))
    bid = models.PositiveSmallIntegerField(_("bid"), null=True, blank=True)
    tricks = models.PositiveSmallIntegerField(_("tricks"), null=True, blank=True)

    class Meta:
        ordering = ["seat", "deal"]
        verbose_name = _("sheet entry")
        verbose_name_plural = _("sheet entries")
        constraints = [
            models.UniqueConstraint(fields=["seat", "deal"], name="entry_one_per_seat_and_deal"),
            models.CheckConstraint(
                condition=Q(deal__gte=1, deal__lte=DEAL_COUNT), name="entry_deal_1_11"
            ),
            models.CheckConstraint(
                condition=Q(bid__isnull=True) | Q(bid__lte=MAX_HAND), name="entry_bid_0_5"
            ),
            models.CheckConstraint(
                condition=Q(tricks__isnull=True) | Q(tricks__lte=MAX_HAND),
                name="entry_tricks_0_5",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.seat} deal {self.deal}: {self.bid}/{self.tricks}"


class Penalty(models.Model):
    """A revoke ("verzaken"): one extra bol for the seat's player in that deal."""

    seat = models.ForeignKey(
        Seat, on_delete=models.CASCADE, related_name="penalties", verbose_name=_("seat")
    )
    deal = models.PositiveSmallIntegerField(_("deal"))

    class Meta:
        ordering = ["seat", "deal", "pk"]
        verbose_name = _("penalty bol")
        verbose_name_plural = _("penalty bollen")
        constraints = [
            models.CheckConstraint(
                condition=Q(deal__gte=1, deal__lte=DEAL_COUNT), name="penalty_deal_1_11"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.seat} deal {self.deal}: {_('penalty bol')}"


class SheetVersion(models.Model):
    """One save of a table's score sheet, kept for good: the history behind "no lost results".

    The ``Entry`` and ``Penalty`` rows hold a sheet as it stands now; every save through
    ``tournament.sheets.services`` also stores the whole sheet here, so any earlier state can be
    looked at and restored, and a save that lost a race is kept instead of thrown away.

    - ``table``: whose sheet.
    - ``number``: 1, 2, 3... per table in the order the saves won; the highest is the sheet now.
      Version 0 keeps what the table had before its first save (an imported file). ``None``
      marks a submission that was refused because someone else had saved first (a conflict):
      stored so the writer's input is not lost and can still be applied.
    - ``base_number``: the version the writer started from (0 before the first save).
    - ``cells``: the sheet, one list per deal (deal 1 first, trailing empty deals left out), each
      holding ``[bid, tricks]`` per seat index (``null`` where nothing is written).
    - ``penalties``: the revoke penalty bollen as ``[seat index, deal]`` pairs.
    - ``via``: where the save came from: the director's sheet page, a table link, or the
      database as it was before the first save.
    - ``restored_from``: the version this save put back (history "restore"), if any.
    - ``user``, ``ip``: who saved and from which address, as far as known.
    - ``idempotency_key``: the random key of the submission; a submission sent twice (a double
      tap, a browser retry, an offline queue) is stored once. Unique per table.
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
    created_at = models.DateTimeField(_("saved at"), auto_now_add=True)

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
    """A director's word that one version of a sheet matches the paper form.

    - ``version``: the confirmed version (one confirmation per version). Only the sheet's
      current version can be confirmed; a later save makes the sheet unconfirmed again.
    - ``user``: the director who confirmed; never the one who saved that version.
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


class TeamInvitation(models.Model):
    """A one-time link with which someone joins a tournament's team, choosing their own
    username and password (no terminal needed).

    - ``tournament``, ``role``: what the invitation makes its user: a co-director (everything)
      or a scorer (sheets and the round overview only).
    - ``token_hash``: SHA-256 of the link's secret; the secret itself is shown once (as a link
      and a QR code) and never stored.
    - ``created_by``, ``created_at``, ``expires_at``: who made it, when, and until when it works.
    - ``used_at``, ``used_by``: when it was used and the account it made; a used invitation
      opens nothing.
    - ``revoked_at``: set when a director withdraws the invitation before it is used.
    """

    class Role(models.TextChoices):
        CO_DIRECTOR = "director", _("co-director")
        SCORER = "scorer", _("scorer")

    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="invitations",
        verbose_name=_("tournament"),
    )
    role = models.CharField(_("role"), max_length=8, choices=Role.choices)
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

    class Meta:
        ordering = ["tournament", "-created_at", "pk"]
        verbose_name = _("team invitation")
        verbose_name_plural = _("team invitations")

    def __str__(self) -> str:
        return f"{self.tournament}: {self.get_role_display()}"


class SiteSettings(models.Model):
    """Settings of the whole site that a director may change on the site itself (one row).

    - ``site_url``: the address phones open (QR codes, table links, "where do I sit"), e.g.
      ``http://192.168.1.20:8000``. Empty: the ``SITE_URL`` environment setting, or else the
      server's own network address.
    """

    site_url = models.URLField(_("address for phones"), max_length=200, blank=True)
    updated_at = models.DateTimeField(_("changed at"), auto_now=True)

    class Meta:
        verbose_name = _("site settings")
        verbose_name_plural = _("site settings")

    def __str__(self) -> str:
        return str(_("site settings"))

    @classmethod
    def current(cls) -> SiteSettings:
        settings_row, _created = cls.objects.get_or_create(pk=1)
        return settings_row
