"""The member register as a download (xlsx or csv): name, club, member number, active, guest,
in Dutch list order, for the club's directors and admins (as the register's page)."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
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
from tournament.models import Club, Member
from tournament.permissions import DIRECTOR, club_required
from tournament.season.selectors import members_listed


def member_number(number: str) -> int | str:
    """A member number of digits alone as a number (it sorts and filters as one); anything
    else, and a number with a leading zero that a number would lose, as the register has it."""
    if number.isascii() and number.isdigit() and not (len(number) > 1 and number[0] == "0"):
        return int(number)
    return number


def register_rows(members: list[Member]) -> Rows:
    header = [_("Name"), _("Club"), _("Member number"), _("Active"), _("Guest")]
    rows = [
        [
            m.name,
            m.club,
            member_number(m.number) if m.number else None,
            _("yes") if m.active else _("no"),
            _("yes") if m.guest else _("no"),
        ]
        for m in members
    ]
    return Rows(header=header, rows=rows)


class RegisterExporter:
    """A club's register as csv or xlsx."""

    identifier = "register"
    formats = ("csv", "xlsx")

    def __init__(self, club: Club, *, format: str) -> None:
        if format not in self.formats:
            raise ValueError(f"Unknown format {format!r}; use one of {self.formats}.")
        self.club = club
        self.format = format

    def render(self) -> ExportFile:
        rows = register_rows(members_listed(self.club))
        what = pgettext("file name", "member register")  # (outside the f-string: makemessages)
        name = f"{self.club.slug}-{slugify(what)}"
        if self.format == "csv":
            data = render_csv(rows, delimiter=csv_delimiter(get_language() or "nl"))
            return ExportFile(f"{name}.csv", CSV_TYPE, data)
        title = f"{_('Member register')}: {self.club}"
        titled = Rows(header=rows.header, rows=rows.rows, title=title)
        return ExportFile(f"{name}.xlsx", XLSX_TYPE, render_xlsx(title, [(_("Register"), titled)]))


@club_required(DIRECTOR)
def member_list_download(request: HttpRequest, club: Club, fmt: str) -> HttpResponse:
    """The current club's register as a file."""
    if fmt not in RegisterExporter.formats:
        raise Http404
    return RegisterExporter(club, format=fmt).render().response()
