"""A pasted list for the register: one member a line, "name; club; member number" (a tab or a
semicolon between them, as the tournament's "Paste a list"), each line checked before anything
is stored. A name near a member's or an earlier line's (the rule of ``season.matching`` that
the check-in asks about) is a warning: the line is added unless it is left out."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from tournament.models import Member
from tournament.players.importing import PlayerRow, check_rows, parse_pasted
from tournament.season.matching import MemberIndex, member_key
from tournament.text import text_normalised

NUMBER_MAX = 40


@dataclass
class MemberRow:
    """One line of a pasted register list, with what is wrong with it (``problems``: the line
    is left out) and what to look at (``warnings``: a name near someone's)."""

    line: int
    name: str
    club: str = ""
    number: str = ""
    problems: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def members_parse(text: str) -> list[MemberRow]:
    """The lines of ``text``: the tournament's paste rule for name and club, and the member
    number after a second separator of the same kind."""
    rows = []
    for row in parse_pasted(text):
        raw = text.splitlines()[row.line - 1]
        separator = "\t" if "\t" in raw else ";"
        club, _sep, number = row.club.partition(separator)
        rows.append(MemberRow(line=row.line, name=row.name, club=club.strip(), number=number))
    return rows


def members_check(rows: Iterable[MemberRow], *, register: Iterable[Member]) -> list[MemberRow]:
    """Name every problem of every line: the tournament's checks of name and club, and a
    member (name and club, or member number) in the register already or twice in the list."""
    rows = list(rows)
    checked = check_rows(
        [PlayerRow(line=r.line, name=r.name, club=r.club) for r in rows], existing=()
    )
    register = list(register)
    keys = {member_key(m.name, m.club): m for m in register}
    numbers = {m.number: m for m in register if m.number}
    seen_numbers: dict[str, int] = {}
    for row, player in zip(rows, checked, strict=True):
        row.name, row.club, row.number = player.name, player.club, text_normalised(row.number)
        row.problems = list(player.problems)
        same = keys.get(member_key(row.name, row.club))
        if row.name and same is not None:
            row.problems.append(_("In the register already."))
        if len(row.number) > NUMBER_MAX:
            row.problems.append(
                _("The member number is longer than %(max)s characters.") % {"max": NUMBER_MAX}
            )
        elif row.number in numbers:
            row.problems.append(
                _("Member number %(number)s is %(name)s's.")
                % {"number": row.number, "name": numbers[row.number].name}
            )
        elif row.number in seen_numbers:
            row.problems.append(
                _("The same member number as line %(line)s.") % {"line": seen_numbers[row.number]}
            )
        if row.number:
            seen_numbers.setdefault(row.number, row.line)
    _warn_near(rows, register)
    return rows


def _warn_near(rows: list[MemberRow], register: list[Member]) -> None:
    """Warn at each good line whose name is near a member's or an earlier good line's."""
    members = MemberIndex(register)
    pasted = MemberIndex(())
    lines: dict[int, int] = {}  # id of a pasted line's stand-in member -> its line
    for row in rows:
        if not row.ok:
            continue
        for member in members.close(row.name):
            row.warnings.append(
                _(
                    "Close to %(member)s in the register: if that is the same person, leave "
                    "this line out."
                )
                % {"member": member}
            )
        for other in pasted.close(row.name):
            row.warnings.append(
                _(
                    "Close to %(name)s of line %(line)s: if that is the same person, leave one "
                    "of the two out."
                )
                % {"name": other.name, "line": lines[id(other)]}
            )
        stand_in = Member(name=row.name, club=row.club)
        lines[id(stand_in)] = row.line
        pasted.add(stand_in)
