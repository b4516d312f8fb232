"""Tonight's new names against the register: a new name near a member's name ("Jan de Vries"
typed while "J. de Vries" is a member) is asked about before anyone is created, with the rule
of ``season.matching`` that the file import's questions use; every other new name is asked
whether it is a member or a guest of the club (a guest unless answered otherwise: a name not
in the register is most often someone brought along). Then the check-in itself
(``evening_check_in``): tonight's tournament with the last evening's settings, and its
players, the members ticked and the new names, who join the register as members or as guests
(``Member.guest``: known again next time, never ranked in a competition)."""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User
from django.db import models, transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournament.errors import PlacedProblem, Refused
from tournament.models import Competition, Member, Player, Tournament
from tournament.names import folded
from tournament.players.importing import PlayerRow
from tournament.players.services import players_register
from tournament.season.matching import MemberIndex
from tournament.season.numbering import evening_attach
from tournament.season.services import SeasonRefusal, member_create
from tournament.tournaments.services import tournament_create

# The answers "no, a new member" and "no, a guest" to "do you mean ...?" (any other answer is
# the member's id).
NEW_MEMBER = "new"
NEW_GUEST = "new-guest"
# The answers to "member or guest?" for a new name near nobody in the register.
MEMBER = "member"
GUEST = "guest"


class CheckInRefusal(models.TextChoices):
    DATE_MISSING = "evening_date_missing", gettext_lazy("Give the date of the evening.")
    DATE_FAR = (
        "evening_date_far",
        gettext_lazy(
            "The date of the evening must lie within a year of today: from %(first)s to %(last)s."
        ),
    )


def _years_from(day: datetime.date, years: int) -> datetime.date:
    """The same day ``years`` later (29 February: the 28th in a year without it)."""
    try:
        return day.replace(year=day.year + years)
    except ValueError:
        return day.replace(year=day.year + years, day=28)


def evening_date_check(day: datetime.date | None, *, today: datetime.date) -> datetime.date:
    """The evening's date, or a refusal naming the date: tonight's evening has one, and it
    lies within a year of ``today`` (an evening typed in afterwards, or ahead; 31-12-9999 or
    2062 for 2026 is a slip of the keyboard)."""
    if day is None:
        raise Refused.because(CheckInRefusal.DATE_MISSING, field=_("date"))
    first, last = _years_from(today, -1), _years_from(today, 1)
    if not first <= day <= last:
        message = str(CheckInRefusal.DATE_FAR.label) % {
            "first": date_format(first, "SHORT_DATE_FORMAT"),
            "last": date_format(last, "SHORT_DATE_FORMAT"),
        }
        raise Refused(
            [PlacedProblem(code=CheckInRefusal.DATE_FAR, message=message, field=_("date"))]
        )
    return day


@dataclass(frozen=True, slots=True)
class NearQuestion:
    """A new name typed tonight, the members it may be, and the answer given so far (a
    member's id, ``NEW_MEMBER`` or empty); ``missing``: the question was on the page and came
    back without an answer."""

    name: str
    club: str
    members: list[Member]
    answer: str = ""
    missing: bool = False


@dataclass(frozen=True, slots=True)
class KindQuestion:
    """A new name near nobody in the register: a member or a guest? ``answer``: ``MEMBER``,
    ``GUEST``, or empty while the question has not been on the page yet (it is shown with
    ``GUEST`` chosen); ``missing``: it was on the page and came back without an answer."""

    name: str
    club: str
    answer: str = ""
    missing: bool = False


@dataclass(slots=True)
class NewNames:
    """Tonight's new names sorted out: ``members`` (answered "yes, that one"), ``new_people``
    (answered "member") and ``new_guests`` (answered "guest"); ``asked``: every new name near
    a member, with its answer; ``kinds``: every other new name, member or guest; ``open``:
    whether one of them is not answered yet (nobody is created before every one is)."""

    members: list[Member] = field(default_factory=list)
    new_people: list[tuple[str, str]] = field(default_factory=list)
    new_guests: list[tuple[str, str]] = field(default_factory=list)
    asked: list[NearQuestion] = field(default_factory=list)
    kinds: list[KindQuestion] = field(default_factory=list)

    @property
    def open(self) -> bool:
        answers = [q.answer for q in self.asked] + [q.answer for q in self.kinds]
        return not all(answers)

    @property
    def missing(self) -> list[NearQuestion | KindQuestion]:
        """The questions that were on the page and came back without an answer."""
        questions: list[NearQuestion | KindQuestion] = [*self.asked, *self.kinds]
        return [q for q in questions if q.missing]


def new_names_sorted(
    rows: Sequence[tuple[str, str]],
    *,
    answers: Mapping[str, str],
    register: Sequence[Member],
    kinds: Mapping[str, str] | None = None,
) -> NewNames:
    """Sort tonight's new names by the register and the answers given (both by folded name:
    ``answers`` to "do you mean ...?", ``kinds`` to "member or guest?"; an empty answer: the
    question was on the page and left open)."""
    index = MemberIndex(register)
    kinds = kinds or {}
    result = NewNames()
    for name, club in rows:
        near = index.close(name)
        if not near:
            given = kinds.get(folded(name))  # None: not on the page yet
            kind = given if given in (MEMBER, GUEST) else None
            result.kinds.append(
                KindQuestion(
                    name=name, club=club, answer=kind or "", missing=given is not None and not kind
                )
            )
            if kind == MEMBER:
                result.new_people.append((name, club))
            elif kind == GUEST:
                result.new_guests.append((name, club))
            continue
        given = answers.get(folded(name))  # None: not on the page yet
        answer = given or ""
        chosen = [m for m in near if str(m.pk) == answer]
        if answer not in (NEW_MEMBER, NEW_GUEST) and not chosen:
            answer = ""
        missing = given is not None and not answer
        result.asked.append(
            NearQuestion(name=name, club=club, members=near, answer=answer, missing=missing)
        )
        if answer == NEW_MEMBER:
            result.new_people.append((name, club))
        elif answer == NEW_GUEST:
            result.new_guests.append((name, club))
        elif chosen:
            result.members.append(chosen[0])
    return result


@dataclass(frozen=True, slots=True)
class CheckIn:
    """Tonight's evening: who is here (of the register, members and guests known already) and
    new names, ``new_people`` joining the register as members and ``new_guests`` as guests."""

    name: str
    date: datetime.date | None  # refused when missing or not within a year of today
    members: Sequence[Member]
    new_people: Sequence[tuple[str, str]] = ()
    new_guests: Sequence[tuple[str, str]] = ()


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
    members ticked and the new names, who join the register (as members or as guests). All
    or nothing."""
    date = evening_date_check(check_in.date, today=timezone.localdate())
    typed = [(row, False) for row in check_in.new_people] + [
        (row, True) for row in check_in.new_guests
    ]
    new_members = [
        member_create(register=competition.club, name=name, club=club, guest=guest)
        for (name, club), guest in typed
        if name.strip()
    ]
    if any(m.register_id != competition.club_id for m in check_in.members):
        raise Refused.because(SeasonRefusal.MEMBER_OTHER_CLUB)
    members = [*check_in.members, *new_members]
    if len(members) < 3:
        raise Refused.because(SeasonRefusal.NOBODY_CHECKED_IN)
    _check_names_once(members)
    tournament = tournament_create(
        club=competition.club,
        director=director,
        name=check_in.name.strip() or competition.name,
        date=date,
        **_evening_settings(competition),
    )
    players = players_register(
        tournament=tournament,
        rows=[PlayerRow(line=n, name=m.name, club=m.club) for n, m in enumerate(members, 1)],
    )
    for player, member in zip(players, members, strict=True):
        player.member = member
    Player.objects.bulk_update(players, ["member"])
    evening_attach(competition=competition, tournament=tournament)  # numbered by its date
    return tournament
