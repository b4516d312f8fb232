"""Rounds, their tables and who sits where."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypedDict

from django.db import models
from django.db.models import Case, Exists, OuterRef, Q, Value, When
from django.utils.translation import gettext_lazy as _

from tournament.models.tournaments import Player, Tournament

if TYPE_CHECKING:
    from django_stubs_ext import WithAnnotations


class RoundProgress(TypedDict):
    """What ``RoundQuerySet.with_state`` adds to each round: its state as ``progress``."""

    progress: str  # a Round.State value


class RoundQuerySet(models.QuerySet["Round"]):
    def with_state(self) -> models.QuerySet[WithAnnotations[Round, RoundProgress]]:
        """The rounds with their state (``Round.state``) read in the same query, as
        ``progress``: filter and order on it like a field."""
        # The plugin names the annotation's TypedDict itself and finds it unlike this one.
        return self.annotate(progress=round_progress())  # type: ignore[return-value]


def round_progress() -> Case:
    """A round's state as an expression (``scoring.rounds.round_state``): a draft until the
    director publishes it; then playing from the first entry on any of its sheets, complete
    once every table's sheet is; seated before and when every entry was taken back. Read from
    ``SheetScore``, which each save writes in the transaction of its version."""
    from tournament.models.sheets import SheetScore  # the sheets import the rounds

    tables = Table.objects.filter(round=OuterRef("pk"), seats__isnull=False)
    complete = SheetScore.objects.filter(table=OuterRef("pk"), complete=True)
    started = SheetScore.objects.filter(table__round=OuterRef("pk"), started=True)
    return Case(
        When(published=False, then=Value(Round.State.DRAFT.value)),
        When(
            Exists(tables) & ~Exists(tables.filter(~Exists(complete))),
            then=Value(Round.State.COMPLETE.value),
        ),
        When(Exists(started), then=Value(Round.State.PLAYING.value)),
        default=Value(Round.State.SEATED.value),
        output_field=models.CharField(),
    )


class Round(models.Model):
    """One round of the tournament: every seated player plays one full game of 11 deals.

    Its state (``state``) moves draft -> seated -> playing -> complete. Only the first step is
    stored: ``published``, the director's decision to show the seating (draft until then).
    Playing and complete follow from the tables' sheets and are derived (``state``, or
    ``Round.objects.with_state()`` for many rounds in one query). A seated round's seating may
    still change; once play starts (the first deal is entered) the seating is locked.
    ``seating_options``: when the round was seated with tables of two sizes, what each balance
    gave for the rest of the tournament (``tournament.rounds.seating.SeatingOption`` as a
    dict per balance value: repeats, larger-table counts, this round's tables), so the director
    can compare them and take the other before publishing; empty otherwise.
    ``closed_at``: when the director closed the round (its table links then save nothing), or
    ``None`` while it is open; reopening clears it.
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
    published = models.BooleanField(_("published"), default=False)
    seating_options = models.JSONField(_("seating options"), default=dict, blank=True)
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)

    objects = RoundQuerySet.as_manager()

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

    @property
    def state(self) -> Round.State:
        """The round's state now: read with the round (``with_state``), or else asked for."""
        progress = self.__dict__.get("progress")
        if progress is None:
            if self.pk is None or not self.published:
                return self.State.DRAFT if not self.published else self.State.SEATED
            progress = (
                Round.objects.annotate(progress=round_progress())
                .values_list("progress", flat=True)
                .get(pk=self.pk)
            )
        return self.State(progress)

    def get_state_display(self) -> str:
        return str(self.state.label)

    def refresh_from_db(self, *args: Any, **kwargs: Any) -> None:
        self.__dict__.pop("progress", None)  # derived from the sheets: read again
        super().refresh_from_db(*args, **kwargs)


# The states in which a round's seating may still change (nothing entered yet).
SEATING_EDITABLE_STATES = (Round.State.DRAFT, Round.State.SEATED)


class Table(models.Model):
    """A table in a round: its seats and its score sheet.

    - ``first_dealer_seat``: the seat (``Seat.position``, the sheet's row) that deals deal 1,
      as the table drew it; ``None`` until it is set, when the top row deals first (see
      ``first_dealer``). Setting it never moves the seats: the rows stay as printed.
    """

    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="tables", verbose_name=_("round")
    )
    number = models.PositiveSmallIntegerField(_("table"))
    first_dealer_seat = models.PositiveSmallIntegerField(
        _("first dealer's seat"), null=True, blank=True
    )

    class Meta:
        ordering = ["round", "number"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="table_number_gte_1"),
            models.CheckConstraint(
                condition=Q(first_dealer_seat__lte=5), name="table_first_dealer_0_5"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round} - {_('table')} {self.number}"

    @property
    def first_dealer(self) -> int:
        """The seat that deals deal 1: the drawn one, or the top row until one is drawn."""
        return self.first_dealer_seat or 0


class Seat(models.Model):
    """A player's place at a table. ``position`` counts clockwise from 0 (the sheet's rows);
    seat ``table.first_dealer`` deals deal 1.

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
