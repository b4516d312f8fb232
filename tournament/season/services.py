"""The club's season: the register, competitions, their evenings and the evening's check-in."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User
from django.db import models, transaction
from django.db.models import Max
from django.utils.formats import date_format
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.season import SeasonError, SeasonRule
from tournament.errors import PlacedProblem, Refused
from tournament.models import (
    Competition,
    CompetitionEvening,
    Member,
    MemberQuestion,
    Player,
    Seat,
    Tournament,
)
from tournament.models.season import competition_title
from tournament.names import folded
from tournament.players.importing import PlayerRow, check_rows
from tournament.players.services import players_register
from tournament.season.matching import MemberIndex, member_key
from tournament.season.register import MemberRow, members_check
from tournament.tournaments.services import tournament_create


class SeasonRefusal(models.TextChoices):
    MEMBER_TWICE = "member_twice", gettext_lazy("The register has this name and club already.")
    NUMBER_TAKEN = "member_number_taken", gettext_lazy("Another member has this member number.")
    MERGE_SELF = "member_merge_self", gettext_lazy("A member cannot be merged with itself.")
    MERGE_SAME_EVENING = (
        "member_merge_same_evening",
        gettext_lazy("Both members played the same evening: they are two people."),
    )
    PLAYER_SEATED = (
        "evening_player_seated",
        gettext_lazy(
            "This player sat at a table that evening and keeps their results: only a player "
            "who was never seated can be removed."
        ),
    )
    EVENING_TWICE = (
        "evening_twice",
        gettext_lazy("This tournament is an evening of the competition already."),
    )
    NOBODY_CHECKED_IN = "nobody_checked_in", gettext_lazy("Tick at least three players.")
    MEMBER_PLAYS = (
        "member_plays_already",
        gettext_lazy("This member has a player in that tournament already."),
    )
    NAME_TWICE_TONIGHT = (
        "member_name_twice_tonight",
        gettext_lazy(
            "Two members of this name are here tonight: give one of them an initial or "
            "another spelling in the register first."
        ),
    )
    RULE = (
        "competition_rule",
        gettext_lazy(
            "Best K needs K of at least 1, and the minimum of evenings cannot be negative."
        ),
    )


def _checked_text(name: str, club: str, *, label: str) -> tuple[str, str]:
    """The name and club tidied, or a refusal naming what is wrong with them."""
    (row,) = check_rows([PlayerRow(line=1, name=name, club=club)], existing=())
    if row.problems:
        raise Refused(
            [PlacedProblem(code="member_row", message="; ".join(row.problems), field=label)]
        )
    return row.name, row.club


def _check_unique(name: str, club: str, number: str, *, exclude: int | None = None) -> None:
    others = Member.objects.exclude(pk=exclude) if exclude else Member.objects.all()
    key = member_key(name, club)
    if any(member_key(n, c) == key for n, c in others.values_list("name", "club")):
        raise Refused.because(SeasonRefusal.MEMBER_TWICE, field=name)
    if number and others.filter(number=number).exists():
        raise Refused.because(SeasonRefusal.NUMBER_TAKEN, field=number)


@transaction.atomic
def member_create(*, name: str, club: str = "", number: str = "") -> Member:
    """Add a person to the register (refused when the same name and club are there)."""
    name, club = _checked_text(name, club, label=name or _("new member"))
    number = number.strip()
    _check_unique(name, club, number)
    return Member.objects.create(name=name, club=club, number=number)


@transaction.atomic
def members_add(*, rows: Sequence[MemberRow]) -> list[Member]:
    """Add a pasted list to the register: every line, or none when any line is wrong (checked
    again here: the register may have changed since the preview)."""
    checked = members_check(rows, register=Member.objects.all())
    problems = [
        PlacedProblem(
            code="member_row",
            message=f"{row.name or '?'}: {'; '.join(row.problems)}",
            field=_("line %(line)s") % {"line": row.line},
        )
        for row in checked
        if row.problems
    ]
    if problems:
        raise Refused(problems)
    return Member.objects.bulk_create(
        [Member(name=row.name, club=row.club, number=row.number) for row in checked]
    )


@transaction.atomic
def member_update(*, member: Member, name: str, club: str, number: str, active: bool) -> Member:
    name, club = _checked_text(name, club, label=member.name)
    number = number.strip()
    _check_unique(name, club, number, exclude=member.pk)
    member.name, member.club, member.number, member.active = name, club, number, active
    member.save()
    return member


@dataclass(frozen=True, slots=True)
class MergePreview:
    """What merging ``drop`` into ``keep`` moves: ``players`` (the evenings' players that
    become ``keep``'s), and ``clashes``: the tournaments both played, which forbid it."""

    keep: Member
    drop: Member
    players: list[Player]
    clashes: list[Tournament]

    @property
    def allowed(self) -> bool:
        return not self.clashes and self.keep.pk != self.drop.pk

    def clash_players(self) -> list[tuple[str, list[Player]]]:
        """Per evening both played: how to fix it and the two players, whether seated."""
        ids = [t.pk for t in self.clashes]
        both = (
            Player.objects.filter(tournament_id__in=ids, member__in=[self.keep, self.drop])
            .annotate(seated=models.Exists(Seat.objects.filter(player=models.OuterRef("pk"))))
            .order_by("pk")
        )
        by_tournament: dict[int, list[Player]] = {}
        for player in both:
            by_tournament.setdefault(player.tournament_id, []).append(player)
        return [(merge_clash_advice(t), by_tournament.get(t.pk, [])) for t in self.clashes]


def member_merge_preview(*, keep: Member, drop: Member) -> MergePreview:
    players = list(Player.objects.filter(member=drop).select_related("tournament"))
    kept_tournaments = set(
        Player.objects.filter(member=keep).values_list("tournament_id", flat=True)
    )
    clashes = [p.tournament for p in players if p.tournament_id in kept_tournaments]
    return MergePreview(keep=keep, drop=drop, players=players, clashes=clashes)


def evening_label(tournament: Tournament) -> str:
    """ "evening 3 of Clubcompetitie (12-09-2026)": the evening as the secretary knows it."""
    evening = tournament.competition_evenings.select_related("competition").first()
    name = tournament.name
    if tournament.date is not None:
        name = f"{name}, {date_format(tournament.date, 'SHORT_DATE_FORMAT')}"
    if evening is None:
        return name
    return _("evening %(number)s of %(competition)s (%(name)s)") % {
        "number": evening.number,
        "competition": evening.competition,
        "name": name,
    }


def merge_clash_advice(tournament: Tournament) -> str:
    """Why a merge is refused for ``tournament`` and how to make it possible."""
    return _(
        "Both members are players of %(evening)s, so they count as two people there. If they "
        "are one person, checked in twice: remove the one who was never seated from that "
        "evening's players (below), then merge."
    ) % {"evening": evening_label(tournament)}


@transaction.atomic
def evening_player_remove(*, player: Player) -> None:
    """Take a player off an evening who never sat at a table (checked in twice by mistake),
    so that the two records of one person can be merged."""
    if player.seats.exists():
        raise Refused.because(SeasonRefusal.PLAYER_SEATED, field=player.name)
    player.delete()


@transaction.atomic
def member_merge(*, keep: Member, drop: Member) -> Member:
    """One person typed two ways: ``drop``'s players become ``keep``'s and ``drop`` leaves the
    register (keeping a member number only ``drop`` had). Refused when both played one
    evening, since one person sits at one table."""
    if keep.pk == drop.pk:
        raise Refused.because(SeasonRefusal.MERGE_SELF)
    preview = member_merge_preview(keep=keep, drop=drop)
    if preview.clashes:
        raise Refused(
            [
                PlacedProblem(
                    code=SeasonRefusal.MERGE_SAME_EVENING,
                    message=merge_clash_advice(tournament),
                    field=tournament.name,
                )
                for tournament in preview.clashes
            ]
        )
    Player.objects.filter(member=drop).update(member=keep)
    asked = set(MemberQuestion.objects.filter(member=keep).values_list("player_id", flat=True))
    MemberQuestion.objects.filter(member=drop, player_id__in=asked).delete()
    MemberQuestion.objects.filter(member=drop).update(member=keep)
    number = drop.number
    drop.delete()
    if number and not keep.number:
        keep.number = number
    keep.active = keep.active or drop.active
    keep.save()
    return keep


RESERVED_SLUGS = {"members", "import"}  # the season's own addresses under /season/


def competition_unique_slug(name: str) -> str:
    """A short name for the competition's addresses, made from ``name``, that no competition
    (nor the season's own pages) has."""
    base = slugify(name)[:70] or "competitie"
    slug, n = base, 1
    while slug in RESERVED_SLUGS or Competition.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


@dataclass(frozen=True, slots=True)
class CompetitionSettings:
    """What the director chooses for a competition."""

    name: str
    season: str = ""
    best: int | None = None
    min_evenings: int = 0
    public: bool = False
    season_seating: bool = False

    def rule(self) -> SeasonRule:
        try:
            return SeasonRule(best=self.best, min_evenings=self.min_evenings)
        except SeasonError:
            raise Refused.because(SeasonRefusal.RULE) from None


@transaction.atomic
def competition_create(
    *, director: User | None, settings: CompetitionSettings, tournaments: Sequence[Tournament] = ()
) -> Competition:
    """A new competition run by ``director`` (``None`` from the command line), with its first
    evenings when given."""
    settings.rule()
    competition = Competition.objects.create(
        slug=competition_unique_slug(competition_title(settings.name, settings.season)),
        name=settings.name.strip(),
        season=settings.season.strip(),
        best=settings.best,
        min_evenings=settings.min_evenings,
        public=settings.public,
        season_seating=settings.season_seating,
    )
    if director is not None:
        competition.directors.add(director)
    for tournament in tournaments:
        competition_add(competition=competition, tournament=tournament)
    return competition


@transaction.atomic
def competition_update(*, competition: Competition, settings: CompetitionSettings) -> Competition:
    settings.rule()
    competition.name = settings.name.strip()
    competition.season = settings.season.strip()
    competition.best = settings.best
    competition.min_evenings = settings.min_evenings
    competition.public = settings.public
    competition.season_seating = settings.season_seating
    competition.save()
    return competition


@dataclass(slots=True)
class MatchReport:
    """How a tournament's players were matched to the register."""

    linked: list[Player] = field(default_factory=list)
    created: list[Member] = field(default_factory=list)
    asked: list[Player] = field(default_factory=list)


@transaction.atomic
def players_match(*, tournament: Tournament) -> MatchReport:
    """Tie the tournament's unmatched players to the register: the same name and club is the
    same member; a near match is asked about (a ``MemberQuestion``); anyone else joins the
    register as a new member."""
    report = MatchReport()
    index = MemberIndex(Member.objects.all())
    taken = set(tournament.players.exclude(member=None).values_list("member_id", flat=True))
    for player in tournament.players.filter(member=None).order_by("pk"):
        if player.member_questions.exists():
            report.asked.append(player)
            continue
        same = index.same(player.name, player.club)
        if same is not None and same.pk not in taken:
            player.member = same
            player.save(update_fields=["member"])
            taken.add(same.pk)
            report.linked.append(player)
            continue
        close = [m for m in index.close(player.name) if m.pk not in taken]
        if close:
            MemberQuestion.objects.bulk_create(
                [MemberQuestion(player=player, member=m) for m in close]
            )
            report.asked.append(player)
            continue
        member = Member.objects.create(name=player.name, club=player.club)
        index.add(member)
        player.member = member
        player.save(update_fields=["member"])
        taken.add(member.pk)
        report.created.append(member)
    return report


@transaction.atomic
def question_answer(*, player: Player, member: Member | None) -> Member:
    """The director's answer for a near match: ``member`` is the same person, or ``None``:
    a different person, who joins the register."""
    if member is not None:
        if Player.objects.filter(tournament_id=player.tournament_id, member=member).exists():
            raise Refused.because(SeasonRefusal.MEMBER_PLAYS, field=member.name)
    else:
        member = Member.objects.create(name=player.name, club=player.club)
    player.member = member
    player.save(update_fields=["member"])
    player.member_questions.all().delete()
    return member


@transaction.atomic
def competition_add(*, competition: Competition, tournament: Tournament) -> CompetitionEvening:
    """Add a played (or imported) tournament as the next evening and match its players."""
    Competition.objects.select_for_update().filter(pk=competition.pk).first()
    if competition.evenings.filter(tournament=tournament).exists():
        raise Refused.because(SeasonRefusal.EVENING_TWICE, field=tournament.name)
    number = (competition.evenings.aggregate(n=Max("number"))["n"] or 0) + 1
    evening = CompetitionEvening.objects.create(
        competition=competition, tournament=tournament, number=number
    )
    players_match(tournament=tournament)
    return evening


@dataclass(frozen=True, slots=True)
class CheckIn:
    """Tonight's evening: who is here (members of the register) and new names."""

    name: str
    date: datetime.date | None
    members: Sequence[Member]
    new_people: Sequence[tuple[str, str]] = ()


# The settings an evening takes over from the one before (a new competition's first evening
# takes the tournament defaults, as a tournament created on its own would).
CARRIED_SETTINGS = (
    "place",
    "rounds_planned",
    "language",
    "table_sizes",
    "prefer_size",
    "tiebreaks",
    "confirmation_rule",
    "clubs_apart_first_round",
)


def _evening_settings(competition: Competition) -> dict[str, Any]:
    last = competition.evenings.select_related("tournament").order_by("-number").first()
    source = Tournament() if last is None else last.tournament
    return {name: getattr(source, name) for name in CARRIED_SETTINGS}


def _check_names_once(members: Sequence[Member]) -> None:
    """Two people of one name cannot both play tonight (a tournament knows its players by
    name): say who, so the register can tell them apart."""
    seen: set[str] = set()
    problems = []
    for member in members:
        key = folded(member.name)
        if key in seen:
            problems.append(
                PlacedProblem(
                    code=SeasonRefusal.NAME_TWICE_TONIGHT,
                    message=str(SeasonRefusal.NAME_TWICE_TONIGHT.label),
                    field=member.name,
                )
            )
        seen.add(key)
    if problems:
        raise Refused(problems)


@transaction.atomic
def evening_check_in(*, competition: Competition, director: User, check_in: CheckIn) -> Tournament:
    """Create tonight's tournament (with the last evening's settings) and its players: the
    members ticked and the new names, who join the register. All or nothing."""
    new_members = [
        member_create(name=name, club=club) for name, club in check_in.new_people if name.strip()
    ]
    members = [*check_in.members, *new_members]
    if len(members) < 3:
        raise Refused.because(SeasonRefusal.NOBODY_CHECKED_IN)
    _check_names_once(members)
    tournament = tournament_create(
        director=director,
        name=check_in.name.strip() or competition.name,
        date=check_in.date,
        **_evening_settings(competition),
    )
    players = players_register(
        tournament=tournament,
        rows=[PlayerRow(line=n, name=m.name, club=m.club) for n, m in enumerate(members, 1)],
    )
    for player, member in zip(players, members, strict=True):
        player.member = member
    Player.objects.bulk_update(players, ["member"])
    number = (competition.evenings.aggregate(n=Max("number"))["n"] or 0) + 1
    CompetitionEvening.objects.create(competition=competition, tournament=tournament, number=number)
    return tournament
