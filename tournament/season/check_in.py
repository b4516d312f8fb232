"""Tonight's new names against the register: a new name near a member's name ("Jan de Vries"
typed while "J. de Vries" is a member) is asked about before anyone is created, with the rule
of ``season.matching`` that the file import's questions use. Then the check-in itself
(``evening_check_in``): tonight's tournament with the last evening's settings, and its
players, the members ticked and the new names."""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Max

from tournament.errors import PlacedProblem, Refused
from tournament.models import Competition, CompetitionEvening, Member, Player, Tournament
from tournament.names import folded
from tournament.players.importing import PlayerRow
from tournament.players.services import players_register
from tournament.season.matching import MemberIndex
from tournament.season.services import SeasonRefusal, member_create
from tournament.tournaments.services import tournament_create

# The answer "no, a new member" (any other answer is the member's id).
NEW_MEMBER = "new"


@dataclass(frozen=True, slots=True)
class NearQuestion:
    """A new name typed tonight, the members it may be, and the answer given so far (a
    member's id, ``NEW_MEMBER`` or empty)."""

    name: str
    club: str
    members: list[Member]
    answer: str = ""


@dataclass(slots=True)
class NewNames:
    """Tonight's new names sorted out: ``members`` (answered "yes, that one"), ``new_people``
    (no near member, or answered "no, a new member"); ``asked``: every new name near a
    member, with its answer; ``open``: whether one of them is not answered yet."""

    members: list[Member] = field(default_factory=list)
    new_people: list[tuple[str, str]] = field(default_factory=list)
    asked: list[NearQuestion] = field(default_factory=list)

    @property
    def open(self) -> bool:
        return any(not question.answer for question in self.asked)


def new_names_sorted(
    rows: Sequence[tuple[str, str]], *, answers: Mapping[str, str], register: Sequence[Member]
) -> NewNames:
    """Sort tonight's new names by the register and the answers given (by folded name)."""
    index = MemberIndex(register)
    result = NewNames()
    for name, club in rows:
        near = index.close(name)
        if not near:
            result.new_people.append((name, club))
            continue
        answer = answers.get(folded(name), "")
        chosen = [m for m in near if str(m.pk) == answer]
        if answer != NEW_MEMBER and not chosen:
            answer = ""
        result.asked.append(NearQuestion(name=name, club=club, members=near, answer=answer))
        if answer == NEW_MEMBER:
            result.new_people.append((name, club))
        elif chosen:
            result.members.append(chosen[0])
    return result


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
        member_create(register=competition.club, name=name, club=club)
        for name, club in check_in.new_people
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
