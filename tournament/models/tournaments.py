"""A tournament, its players and the pairs kept apart."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _

from scoring.seating import Balance
from scoring.standings import DEFAULT_ORDER, TieBreak
from tournament.text import validate_visible

MAX_HAND = 5


def default_table_sizes() -> list[int]:
    return [4, 5]


def default_tiebreaks() -> list[str]:
    return [str(tb) for tb in DEFAULT_ORDER]


class Tournament(models.Model):
    """A tournament: one afternoon (or evening) of several rounds of Bollen.

    - ``name``, ``date``, ``place``: shown on every page and printout.
    - ``club``: the club it belongs to: its admins direct it, its address for phones is in the
      QR codes, its register holds the players' members.
    - ``slug``: the tournament's name in URLs and on the command line; unique on the whole
      site, so a tournament's links never name its club.
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
    - ``first_dealer_rule``: who decides who deals deal 1 at each table (see
      ``FirstDealerRule``): the site (the top row deals first, marked on the printed sheet) or a
      draw at the table (each table's ``first_dealer_seat`` is set once it is drawn).
    - ``finished_at``, ``finished_by``: when and by whom the director finished the tournament
      (``None``: not finished). A finished tournament is read-only and its standings are final;
      reopening clears both. Every finish and reopening is kept as a ``TournamentFinish``.
    - ``prize_places``: how many places the final standings announce (the top of the shared
      result and the projector's final view); ``prize_last_place``: the tradition of also
      naming the last place ("de verliezer"), off by default.
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

    class FirstDealerRule(models.TextChoices):
        # "site": the seating's fair rotation decides, the top row deals first, as printed.
        SITE = "site", _("the site sets the first dealer")
        # "drawn": the table draws ("de bepaling"); the sheet's rows stay as printed.
        DRAWN = "drawn", _("the table draws the first dealer")

    class SeatingBalance(models.TextChoices):
        EVEN = Balance.EVEN.value, _("even tables: everyone about equally often at a larger table")
        REPEATS = Balance.REPEATS.value, _("fewest repeated meetings")

    club = models.ForeignKey(
        "tournament.Club",
        on_delete=models.CASCADE,
        related_name="tournaments",
        verbose_name=_("club"),
    )
    name = models.CharField(_("name"), max_length=200, validators=[validate_visible])
    slug = models.SlugField(_("short name"), max_length=80, unique=True)
    date = models.DateField(_("date"), null=True, blank=True)
    place = models.CharField(_("place"), max_length=200, blank=True, validators=[validate_visible])
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
    first_dealer_rule = models.CharField(
        _("first dealer"),
        max_length=8,
        choices=FirstDealerRule.choices,
        default=FirstDealerRule.SITE,
    )
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    finished_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("finished by"),
    )
    prize_places = models.PositiveSmallIntegerField(
        _("places announced"),
        default=3,
        help_text=_("How many places the final standings announce, from the top."),
    )
    prize_last_place = models.BooleanField(
        _("also name the last place"),
        default=False,
        help_text=_('The tradition of naming the last place ("de verliezer").'),
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
    def finished(self) -> bool:
        return self.finished_at is not None

    @property
    def tiebreak_order(self) -> tuple[TieBreak, ...]:
        return tuple(TieBreak(value) for value in self.tiebreaks)


class TournamentFinish(models.Model):
    """One finish or reopening of a tournament: who, when (the record a director can read back).

    - ``action``: finished or reopened.
    - ``by``, ``by_name``: the account (its name kept when the account is deleted; empty for
      the command line).
    - ``backup``: the file name of the final backup a finish wrote (empty when none).
    """

    class Action(models.TextChoices):
        FINISHED = "finished", _("finished")
        REOPENED = "reopened", _("reopened")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="finishes", verbose_name=_("tournament")
    )
    action = models.CharField(_("action"), max_length=10, choices=Action.choices)
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
    backup = models.CharField(_("backup file"), max_length=255, blank=True)

    class Meta:
        ordering = ["tournament", "-at", "-pk"]
        verbose_name = _("finish or reopening")
        verbose_name_plural = _("finishes and reopenings")

    def __str__(self) -> str:
        return f"{self.tournament}: {self.get_action_display()} {self.at:%Y-%m-%d %H:%M}"


class Player(models.Model):
    """A player registered for one tournament.

    - ``file_id``: the player's id in the portable tournament file; unique per tournament.
    - ``name``, ``club``: as registered.
    - ``joined_round``: the first round the player can be seated in (late entries: > 1).
    - ``withdrawn_round``: from this round on the player is no longer seated (``None``: active).
      Earlier rounds keep counting in the standings.
    - ``member``: who the player is in the club's register (``None``: not matched), which ties
      their evenings of a season together.
    - ``public_consent``: the player agrees to their name on the public pages; off, or off on
      their ``member``, they are shown there as a table and seat or a player number.
    """

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="players", verbose_name=_("tournament")
    )
    file_id = models.CharField(_("id in the tournament file"), max_length=64)
    name = models.CharField(_("name"), max_length=200, validators=[validate_visible])
    club = models.CharField(_("club"), max_length=200, blank=True, validators=[validate_visible])
    joined_round = models.PositiveSmallIntegerField(_("plays from round"), default=1)
    withdrawn_round = models.PositiveSmallIntegerField(
        _("withdrawn from round"), null=True, blank=True
    )
    member = models.ForeignKey(
        "tournament.Member",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="players",
        verbose_name=_("member"),
    )
    public_consent = models.BooleanField(_("name shown on public pages"), default=True)

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
