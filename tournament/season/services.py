"""A club's season: its register, its competitions and their evenings, and matching an
evening's players to the register of the evening's club. Merging two members is in
``season.merge``; the evening's check-in in ``season.check_in``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from django.db import models, transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.season import SeasonError, SeasonRule
from tournament.errors import PlacedProblem, Refused, refuse_bad_lines
from tournament.models import (
    Club,
    Competition,
    CompetitionEvening,
    EveningRemoval,
    Member,
    MemberQuestion,
    Player,
    Tournament,
)
from tournament.models.season import competition_title
from tournament.players.importing import PlayerRow, check_rows
from tournament.season.matching import MemberIndex, member_key
from tournament.season.numbering import evening_attach
from tournament.season.register import MemberRow, members_check
from tournament.text import HIDDEN_CHARACTER, text_hidden_character, text_normalised


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
    OTHER_CLUB = (
        "evening_other_club",
        gettext_lazy("That tournament is another club's: only the club's own can be evenings."),
    )
    MEMBER_OTHER_CLUB = (
        "member_other_club",
        gettext_lazy("That member is in another club's register."),
    )
    NAME_EMPTY = "competition_name_empty", gettext_lazy("Give the competition a name.")
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


def _visible(text: str, *, label: str) -> str:
    """A short text (a member number, a competition's name) tidied, or refused with the
    character it may not hold (a control character, a right-to-left override)."""
    if text_hidden_character(text) is not None:
        raise Refused(
            [PlacedProblem(code="hidden_character", message=str(HIDDEN_CHARACTER), field=label)]
        )
    return text_normalised(text)


def _check_unique(
    register: Club, name: str, club: str, number: str, *, exclude: int | None = None
) -> None:
    others = Member.objects.filter(register=register)
    if exclude:
        others = others.exclude(pk=exclude)
    key = member_key(name, club)
    if any(member_key(n, c) == key for n, c in others.values_list("name", "club")):
        raise Refused.because(SeasonRefusal.MEMBER_TWICE, field=name)
    if number and others.filter(number=number).exists():
        raise Refused.because(SeasonRefusal.NUMBER_TAKEN, field=number)


@transaction.atomic
def member_create(
    *, register: Club, name: str, club: str = "", number: str = "", guest: bool = False
) -> Member:
    """Add a person to ``register``, a member or a ``guest`` (refused when the same name and
    club are there)."""
    name, club = _checked_text(name, club, label=name or _("new member"))
    number = _visible(number, label=_("member number"))
    _check_unique(register, name, club, number)
    return Member.objects.create(
        register=register, name=name, club=club, number=number, guest=guest
    )


@transaction.atomic
def members_add(*, register: Club, rows: Sequence[MemberRow]) -> list[Member]:
    """Add a pasted list to ``register``: every line, or none when any line is wrong (checked
    again here: the register may have changed since the preview)."""
    checked = members_check(rows, register=Member.objects.filter(register=register))
    refuse_bad_lines(checked, code="member_row")
    return Member.objects.bulk_create(
        [
            Member(register=register, name=row.name, club=row.club, number=row.number)
            for row in checked
        ]
    )


@transaction.atomic
def member_update(*, member: Member, name: str, club: str, number: str, active: bool) -> Member:
    name, club = _checked_text(name, club, label=member.name)
    number = _visible(number, label=_("member number"))
    _check_unique(member.register, name, club, number, exclude=member.pk)
    member.name, member.club, member.number, member.active = name, club, number, active
    member.save()
    return member


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
    ranking: Competition.Ranking = Competition.Ranking.BEST
    public: bool = False
    season_seating: bool = False

    def rule(self) -> SeasonRule:
        try:
            return SeasonRule(best=self.best, min_evenings=self.min_evenings)
        except SeasonError:
            raise Refused.because(SeasonRefusal.RULE) from None

    def texts(self) -> tuple[str, str]:
        """The name and the season tidied, or refused when they hold a hidden character."""
        name = _visible(self.name, label=_("name"))
        if not name:
            raise Refused.because(SeasonRefusal.NAME_EMPTY)
        return name, _visible(self.season, label=_("season"))


@transaction.atomic
def competition_create(
    *,
    club: Club,
    settings: CompetitionSettings,
    tournaments: Sequence[Tournament] = (),
    guests: bool = False,
) -> Competition:
    """A new competition of ``club``, with its first evenings when given: a season built from
    past tournaments, whose players not in the register join it as members (as ``guests``
    when told)."""
    settings.rule()
    name, season = settings.texts()
    competition = Competition.objects.create(
        club=club,
        slug=competition_unique_slug(competition_title(name, season)),
        name=name,
        season=season,
        best=settings.best,
        min_evenings=settings.min_evenings,
        ranking=settings.ranking,
        public=settings.public,
        season_seating=settings.season_seating,
    )
    for tournament in tournaments:
        competition_add(competition=competition, tournament=tournament, guests=guests)
    return competition


@transaction.atomic
def competition_update(*, competition: Competition, settings: CompetitionSettings) -> Competition:
    settings.rule()
    competition.name, competition.season = settings.texts()
    competition.best = settings.best
    competition.min_evenings = settings.min_evenings
    competition.ranking = settings.ranking
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
def players_match(*, tournament: Tournament, guests: bool = False) -> MatchReport:
    """Tie the tournament's unmatched players to the register: the same name and club is the
    same member; a near match is asked about (a ``MemberQuestion``); anyone else joins the
    register, as a new member or, with ``guests``, as a guest."""
    report = MatchReport()
    register = tournament.club
    index = MemberIndex(Member.objects.filter(register=register))
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
        member = Member.objects.create(
            register=register, name=player.name, club=player.club, guest=guests
        )
        index.add(member)
        player.member = member
        player.save(update_fields=["member"])
        taken.add(member.pk)
        report.created.append(member)
    return report


@transaction.atomic
def question_answer(*, player: Player, member: Member | None, guest: bool = False) -> Member:
    """The director's answer for a near match (or for a player tied to nobody): ``member`` is
    the same person, or ``None``: a different person, who joins the register as a member or,
    with ``guest``, as a guest."""
    register = player.tournament.club
    if member is not None:
        if member.register_id != register.pk:
            raise Refused.because(SeasonRefusal.MEMBER_OTHER_CLUB, field=member.name)
        if Player.objects.filter(tournament_id=player.tournament_id, member=member).exists():
            raise Refused.because(SeasonRefusal.MEMBER_PLAYS, field=member.name)
    else:
        member = Member.objects.create(
            register=register, name=player.name, club=player.club, guest=guest
        )
    player.member = member
    player.save(update_fields=["member"])
    player.member_questions.all().delete()
    return member


def evening_addable(*, competition: Competition, tournament: Tournament) -> None:
    """Refuse a tournament that cannot become an evening of ``competition`` (another club's,
    or one of its evenings already); the caller holds the competition's lock."""
    if tournament.club_id != competition.club_id:
        raise Refused.because(SeasonRefusal.OTHER_CLUB, field=tournament.name)
    if competition.evenings.filter(tournament=tournament).exists():
        raise Refused.because(SeasonRefusal.EVENING_TWICE, field=tournament.name)


def _evening_add(*, competition: Competition, tournament: Tournament) -> CompetitionEvening:
    """``tournament`` an evening of ``competition``, numbered by its date; an undo offered for
    it (it was taken out before) is done with. The caller runs in a transaction."""
    Competition.objects.select_for_update().filter(pk=competition.pk).first()
    evening_addable(competition=competition, tournament=tournament)
    evening = evening_attach(competition=competition, tournament=tournament)
    EveningRemoval.objects.filter(competition=competition, tournament=tournament).delete()
    return evening


@transaction.atomic
def competition_add(
    *, competition: Competition, tournament: Tournament, match: bool = True, guests: bool = False
) -> CompetitionEvening:
    """Add a played (or imported) tournament as an evening, numbered by its date, and match
    its players to the register (``match``; an evening put back keeps its players' links as
    they were), the names not in it joining as members or as ``guests``. An undo offered for
    it (it was taken out before) is done with."""
    evening = _evening_add(competition=competition, tournament=tournament)
    if match:
        players_match(tournament=tournament, guests=guests)
    return evening


@dataclass(frozen=True, slots=True)
class EveningAdded:
    """A played tournament added as an evening, and how its players were matched."""

    evening: CompetitionEvening
    matched: MatchReport


@transaction.atomic
def competition_add_played(
    *, competition: Competition, tournament: Tournament, guests: bool = True
) -> EveningAdded:
    """The site's "add a played tournament": ``competition_add`` telling who joined the
    register; the names not in it join as guests (as at the check-in) unless ``guests`` is
    false."""
    evening = _evening_add(competition=competition, tournament=tournament)
    return EveningAdded(
        evening=evening, matched=players_match(tournament=tournament, guests=guests)
    )
