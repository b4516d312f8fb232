"""Who came to which evening of a competition: the members by evening (in the season's order,
as ``selectors.evenings_standings`` numbers them), a mark per evening, the count per member and
per evening; the guests apart. As a page, an xlsx/csv download with the marks as numbers (1 for
present, empty for absent, so that a spreadsheet adds them up), and the sign-in list for the
next evening.

A member is anyone in the register who is not a guest: the ones who came at least once, and the
active ones who have not come yet (their row is the secretary's question). A guest is a guest
of the register who played an evening, or a player tied to nobody in the register (grouped by
the name as typed, the same folded name on two evenings being one line).
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.formats import date_format
from django.utils.text import slugify
from django.utils.translation import get_language, pgettext
from django.utils.translation import gettext as _

from tournament.exports.base import (
    CSV_TYPE,
    XLSX_TYPE,
    ExportFile,
    Rows,
    csv_delimiter,
    render_csv,
    render_xlsx,
)
from tournament.models import Competition, Member
from tournament.names import folded, name_sort_key
from tournament.season.selectors import evenings_standings, members_listed

# Empty lines for guests at the end of the sign-in list.
GUEST_LINES = 6


@dataclass(frozen=True, slots=True)
class AttendedEvening:
    """An evening as the overview heads its column: its number in the season, name and date."""

    number: int
    name: str
    date: datetime.date | None
    slug: str

    def label(self) -> str:
        return _("E%(number)s") % {"number": self.number}

    def described(self) -> str:
        """ "Evening 2, 14-10-2026 (Clubavond oktober)": the key to ``label``."""
        evening = _("Evening %(number)s") % {"number": self.number}
        if self.date is not None:
            evening = f"{evening}, {date_format(self.date, 'SHORT_DATE_FORMAT')}"
        return f"{evening} ({self.name})"


@dataclass(frozen=True, slots=True)
class AttendanceLine:
    """One person's line: ``present`` per evening in the season's order; ``member`` is
    ``None`` for a player tied to nobody in the register."""

    name: str
    club: str
    member: Member | None
    present: tuple[bool, ...]

    @property
    def count(self) -> int:
        return sum(self.present)


@dataclass(frozen=True, slots=True)
class Attendance:
    competition: Competition
    evenings: list[AttendedEvening]
    members: list[AttendanceLine]
    guests: list[AttendanceLine]

    @property
    def members_per_evening(self) -> list[int]:
        return _per_evening(self.members, len(self.evenings))

    @property
    def guests_per_evening(self) -> list[int]:
        return _per_evening(self.guests, len(self.evenings))

    @property
    def total_per_evening(self) -> list[int]:
        return [
            m + g for m, g in zip(self.members_per_evening, self.guests_per_evening, strict=True)
        ]


def _per_evening(lines: list[AttendanceLine], evenings: int) -> list[int]:
    return [sum(line.present[i] for line in lines) for i in range(evenings)]


def attendance_of(competition: Competition) -> Attendance:
    """The attendance of every evening of ``competition`` (the season's evenings in its order,
    each evening's players as its standings hold them)."""
    played = evenings_standings(competition)
    evenings = [
        AttendedEvening(e.number, e.tournament.name, e.tournament.date, e.tournament.slug)
        for e in played
    ]
    came: dict[int, set[int]] = {}  # member -> evening indexes
    unlinked: dict[str, tuple[str, str, set[int]]] = {}  # folded name -> name, club, evenings
    for index, evening in enumerate(played):
        for player in evening.players.values():
            if player.member_id is not None:
                came.setdefault(player.member_id, set()).add(index)
            else:
                key = folded(player.name)
                unlinked.setdefault(key, (player.name, player.club, set()))[2].add(index)
    register = Member.objects.filter(register=competition.club)
    people = {m.pk: m for m in register.filter(pk__in=came)}
    # A player tied to a member of another register (never made by the site) still came.
    people |= {m.pk: m for m in Member.objects.filter(pk__in=came.keys() - people.keys())}
    members: list[AttendanceLine] = []
    guests: list[AttendanceLine] = []
    for member in people.values():
        line = _line(member.name, member.club, member, came[member.pk], len(evenings))
        (guests if member.guest else members).append(line)
    for member in members_listed(competition.club, active_only=True):
        if not member.guest and member.pk not in came:
            members.append(_line(member.name, member.club, member, set(), len(evenings)))
    for name, club, indexes in unlinked.values():
        guests.append(_line(name, club, None, indexes, len(evenings)))
    members.sort(key=lambda line: name_sort_key(line.name))
    guests.sort(key=lambda line: name_sort_key(line.name))
    return Attendance(competition, evenings, members, guests)


def _line(
    name: str, club: str, member: Member | None, indexes: set[int], evenings: int
) -> AttendanceLine:
    return AttendanceLine(name, club, member, tuple(i in indexes for i in range(evenings)))


def attendance_rows(attendance: Attendance, *, csv: bool = False) -> list[tuple[str, Rows]]:
    """The download's tables: name, club, each evening (1: present, empty: absent) and the
    count. The workbook has the members' sheet (their count per evening, the guests' and the
    total below, and the key to the evenings) and the guests' sheet; the CSV is one table, the
    guests after the members with "yes" in the column "Guest"."""
    evenings = attendance.evenings
    labels = [
        f"{e.label()} ({date_format(e.date, 'SHORT_DATE_FORMAT')})" if e.date else e.label()
        for e in evenings
    ]

    def cells(line: AttendanceLine) -> list[int | None]:
        return [1 if here else None for here in line.present]

    if csv:
        header = [_("Name"), _("Club"), _("Guest"), *labels, _("Evenings")]
        rows = [
            [line.name, line.club, _("yes") if guest else "", *cells(line), line.count]
            for guest, lines in ((False, attendance.members), (True, attendance.guests))
            for line in lines
        ]
        return [(_("Attendance"), Rows(header=header, rows=rows))]
    header = [_("Name"), _("Club"), *labels, _("Evenings")]
    title = f"{attendance.competition}: {_('Attendance')}"
    notes: list[Sequence[Any]] = [
        [_("Members present"), None, *attendance.members_per_evening],
        [_("Guests present"), None, *attendance.guests_per_evening],
        [_("Total present"), None, *attendance.total_per_evening],
        [],
        *[[e.label(), e.described()] for e in evenings],
    ]
    members = Rows(
        header=header,
        rows=[[line.name, line.club, *cells(line), line.count] for line in attendance.members],
        title=title,
        notes=notes,
    )
    guests = Rows(
        header=header,
        rows=[[line.name, line.club, *cells(line), line.count] for line in attendance.guests],
        title=f"{attendance.competition}: {_('Guests')}",
        notes=[[_("Guests present"), None, *attendance.guests_per_evening]],
    )
    return [(_("Attendance"), members), (_("Guests"), guests)]


class AttendanceExporter:
    """The attendance as csv or xlsx."""

    identifier = "attendance"
    formats = ("csv", "xlsx")

    def __init__(self, attendance: Attendance, *, format: str) -> None:
        if format not in self.formats:
            raise ValueError(f"Unknown format {format!r}; use one of {self.formats}.")
        self.attendance = attendance
        self.format = format

    def render(self) -> ExportFile:
        slug = self.attendance.competition.slug
        name = slugify(pgettext("file name", "attendance"))
        if self.format == "csv":
            ((_title, rows),) = attendance_rows(self.attendance, csv=True)
            data = render_csv(rows, delimiter=csv_delimiter(get_language() or "nl"))
            return ExportFile(f"{slug}-{name}.csv", CSV_TYPE, data)
        title = f"{self.attendance.competition}: {_('Attendance')}"
        data = render_xlsx(title, attendance_rows(self.attendance))
        return ExportFile(f"{slug}-{name}.xlsx", XLSX_TYPE, data)


@dataclass(frozen=True, slots=True)
class SignInList:
    """The list to sign at the door of the next evening: the club's active members (not the
    guests) in Dutch list order, with empty lines for guests at the end."""

    competition: Competition
    number: int
    members: list[Member]
    guest_lines: int = GUEST_LINES

    @property
    def guest_range(self) -> range:
        return range(self.guest_lines)


def sign_in_list(competition: Competition) -> SignInList:
    members = [m for m in members_listed(competition.club, active_only=True) if not m.guest]
    return SignInList(competition, competition.evenings.count() + 1, members)
