"""A club's season: the member register, competitions and the evenings that count for them."""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import models, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournament.text import validate_visible

if TYPE_CHECKING:
    from tournament.models.tournaments import Tournament


class Member(models.Model):
    """A person in a club's register: the one record that ties their evenings together.

    - ``register``: the club whose register it is (its evenings are matched to it alone).
    - ``name``, ``club``: as the register writes them (``club``: the club they play for, as
      text); a tournament's players are matched to members by these after trimming and case
      folding.
    - ``number``: the club's member number, optional; unique in the register when given.
    - ``active``: inactive members stay in past seasons but are not offered at check-in.
    - ``guest``: a guest of the club, not a member: plays the evenings (and is known again the
      next time) but is never ranked in a competition; made a member later on the site.
    - ``public_consent``: the member agrees to their name on the club's public pages (as the
      club's ``name_display`` shows names); without it they are shown as a table and seat or a
      player number. Applies to every evening of theirs, past ones too.
    """

    register = models.ForeignKey(
        "tournament.Club",
        on_delete=models.CASCADE,
        related_name="members",
        verbose_name=_("register of"),
    )
    name = models.CharField(_("name"), max_length=200, validators=[validate_visible])
    club = models.CharField(_("club"), max_length=200, blank=True, validators=[validate_visible])
    number = models.CharField(
        _("member number"), max_length=40, blank=True, validators=[validate_visible]
    )
    active = models.BooleanField(_("active"), default=True)
    guest = models.BooleanField(_("guest (not ranked in the competitions)"), default=False)
    public_consent = models.BooleanField(_("name shown on public pages"), default=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["name", "pk"]
        verbose_name = _("member")
        verbose_name_plural = _("members")
        constraints = [
            models.UniqueConstraint(
                fields=["register", "number"],
                condition=~Q(number=""),
                name="member_number_unique_per_register",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.club})" if self.club else self.name


class Competition(models.Model):
    """A season's competition: evenings (tournaments) added up into season standings.

    - ``name``, ``season``: e.g. "Clubkampioenschap", "2026-2027".
    - ``club``: whose competition it is (its admins change it, its directors run evenings).
    - ``slug``: the competition's name in URLs and on the command line; unique on the site.
    - ``best``: how many of each member's evenings count, the best ones (``None``: all).
    - ``min_evenings``: evenings a member must have played to be ranked (below: unranked).
    - ``ranking``: how the season ranks: the total of the best evenings (``best``), or the
      average per evening played (every evening counts; ``min_evenings`` still applies).
    - ``public``: whether the public season page is switched on.
    - ``season_seating``: round 1 of a new evening seats members away from those they met
      most this season.
    """

    club = models.ForeignKey(
        "tournament.Club",
        on_delete=models.CASCADE,
        related_name="competitions",
        verbose_name=_("club"),
    )
    name = models.CharField(_("name"), max_length=200, validators=[validate_visible])
    season = models.CharField(_("season"), max_length=80, blank=True, validators=[validate_visible])
    slug = models.SlugField(_("short name"), max_length=80, unique=True)
    best = models.PositiveSmallIntegerField(_("best evenings that count"), null=True, blank=True)
    min_evenings = models.PositiveSmallIntegerField(_("minimum evenings to be ranked"), default=0)

    class Ranking(models.TextChoices):
        BEST = "best", _("total of the best evenings")
        AVERAGE = "average", _("average per evening")

    ranking = models.CharField(
        _("ranking"), max_length=10, choices=Ranking.choices, default=Ranking.BEST
    )
    public = models.BooleanField(_("public season page on"), default=False)
    season_seating = models.BooleanField(
        _("round 1 seats members away from those they met most this season"), default=False
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "pk"]
        verbose_name = _("competition")
        verbose_name_plural = _("competitions")
        constraints = [
            models.CheckConstraint(
                condition=Q(best__isnull=True) | Q(best__gte=1), name="competition_best_gte_1"
            ),
        ]

    def __str__(self) -> str:
        return competition_title(self.name, self.season)


def competition_title(name: str, season: str) -> str:
    """The name with the season after it, unless the name says the season already
    ("Clubcompetitie 2026-2027" stays as it is)."""
    name, season = name.strip(), season.strip()
    if not season or season.casefold() in name.casefold():
        return name
    return f"{name} {season}"


class CompetitionEvening(models.Model):
    """One evening of a competition: a tournament, numbered in the order of the season.

    - ``competition``, ``tournament``: a tournament is an evening of a competition once.
    - ``number``: 1, 2, 3 ... by the tournaments' dates (then by when they were made),
      renumbered whenever an evening is added, taken out or put back, or a date changes
      (``season.numbering``).
    """

    competition = models.ForeignKey(
        Competition,
        on_delete=models.CASCADE,
        related_name="evenings",
        verbose_name=_("competition"),
    )
    tournament = models.ForeignKey(
        "tournament.Tournament",
        on_delete=models.CASCADE,
        related_name="competition_evenings",
        verbose_name=_("tournament"),
    )
    number = models.PositiveSmallIntegerField(_("evening"))

    class Meta:
        ordering = ["competition", "number"]
        verbose_name = _("competition evening")
        verbose_name_plural = _("competition evenings")
        constraints = [
            models.UniqueConstraint(
                fields=["competition", "number"], name="competition_evening_number_unique"
            ),
            models.UniqueConstraint(
                fields=["competition", "tournament"], name="competition_evening_once"
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="competition_evening_gte_1"),
        ]

    def __str__(self) -> str:
        return f"{self.competition} #{self.number}"


# Numbers are moved out of the way first: (competition, number) is unique at every moment.
RENUMBER_OFFSET = 10_000


def evening_order(tournament: Tournament) -> tuple[datetime.date, datetime.datetime, int]:
    """Where a tournament goes among a competition's evenings: by its date (a tournament
    without one counts as played the day it was made), then by when it was made."""
    day = tournament.date or timezone.localdate(tournament.created_at)
    return day, tournament.created_at, tournament.pk


@transaction.atomic
def evenings_renumber(*, competition: Competition) -> list[CompetitionEvening]:
    """Number the competition's evenings 1, 2, 3 ... by ``evening_order``; returns them in
    order. Called by every change of the evenings or of a tournament's date."""
    evenings = list(
        CompetitionEvening.objects.select_for_update()
        .filter(competition=competition)
        .select_related("tournament")
    )
    evenings.sort(key=lambda e: evening_order(e.tournament))
    if [e.number for e in evenings] != list(range(1, len(evenings) + 1)):
        for evening in evenings:
            evening.number += RENUMBER_OFFSET
        CompetitionEvening.objects.bulk_update(evenings, ["number"])
        for number, evening in enumerate(evenings, start=1):
            evening.number = number
        CompetitionEvening.objects.bulk_update(evenings, ["number"])
    return evenings


def evenings_renumber_of(*, tournament: Tournament) -> None:
    """Renumber every competition ``tournament`` is an evening of (its date changed)."""
    for competition in Competition.objects.filter(evenings__tournament=tournament).distinct():
        evenings_renumber(competition=competition)


class MemberQuestion(models.Model):
    """A player of an evening whose name is close to a member's but not the same ("J. de
    Vries" and "Jan de Vries"): the director answers "same person" or "different person".
    Until then the player counts for nobody in the season.

    - ``player``: the evening's player not linked to a member yet.
    - ``member``: the member they may be; ``None``: the backup the evening was restored from
      ties the player to a member this register does not have (deleted since, or another
      club's file) and nobody's name is near: the director says who they are.
    """

    player = models.ForeignKey(
        "tournament.Player",
        on_delete=models.CASCADE,
        related_name="member_questions",
        verbose_name=_("player"),
    )
    member = models.ForeignKey(
        Member,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="questions",
        verbose_name=_("member"),
    )

    class Meta:
        ordering = ["player", "member"]
        verbose_name = _("possible same person")
        verbose_name_plural = _("possible same persons")
        constraints = [
            models.UniqueConstraint(fields=["player", "member"], name="member_question_once"),
            models.UniqueConstraint(
                fields=["player"],
                condition=Q(member__isnull=True),
                name="member_question_who_once",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} ~ {self.member}"


class EveningRemoval(models.Model):
    """An evening taken out of a competition on the site, listed on the competition's page with
    its undo ("put back") until it is put back.

    - ``competition``: the competition it was an evening of.
    - ``kind``: ``removed`` (the tournament stays, it is no longer an evening of the
      competition) or ``deleted`` (the tournament is gone; ``backup`` holds it).
    - ``tournament``: the removed evening's tournament; ``None`` once it is deleted.
    - ``number``, ``name``, ``date``, ``slug``: the evening's number then, and its tournament's
      name, date and short name, to list it and to restore it under the same short name.
    - ``tournament_created_at``: when the tournament was made, its place among evenings of
      the same date once it is back.
    - ``backup``: the backup written before deleting, relative to ``settings.BACKUP_DIR``.
    - ``by``, ``at``: who took it out, and when.
    """

    class Kind(models.TextChoices):
        REMOVED = "removed", _("removed from the competition")
        DELETED = "deleted", _("deleted")

    competition = models.ForeignKey(
        Competition,
        on_delete=models.CASCADE,
        related_name="removals",
        verbose_name=_("competition"),
    )
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    tournament = models.ForeignKey(
        "tournament.Tournament",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="evening_removals",
        verbose_name=_("tournament"),
    )
    number = models.PositiveSmallIntegerField(_("evening"))
    name = models.CharField(_("name"), max_length=200)
    date = models.DateField(_("date"), null=True, blank=True)
    slug = models.SlugField(_("short name"), max_length=80)
    tournament_created_at = models.DateTimeField(_("tournament created at"))
    backup = models.CharField(_("backup"), max_length=500, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("by"),
    )
    at = models.DateTimeField(_("at"), auto_now_add=True)

    class Meta:
        ordering = ["competition", "-at", "-pk"]
        verbose_name = _("evening taken out")
        verbose_name_plural = _("evenings taken out")
        constraints = [
            models.CheckConstraint(
                condition=Q(kind="removed") | ~Q(backup=""),
                name="evening_removal_deleted_has_backup",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.competition} #{self.number} ({self.kind})"
