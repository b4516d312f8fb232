"""Tonight's new names against the register: a new name near a member's name ("Jan de Vries"
typed while "J. de Vries" is a member) is asked about before anyone is created, with the rule
of ``season.matching`` that the file import's questions use."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from tournament.models import Member
from tournament.names import folded
from tournament.season.matching import MemberIndex

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
