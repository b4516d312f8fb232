"""What a sheet page shows of the table's waiting photo (``photo_input``): the straightened
page beside the grid, the boxes to look at (marked in the grid and listed, each with its
player and deal), and the script's settings for zooming onto the box that has focus."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypedDict

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament.errors import deal_name
from tournament.models import SheetPhoto, Table
from tournament.sheets.content import SheetContent
from tournament.sheets.forms import SheetForm
from tournament.sheets.photo_input import PhotoBox, photo_marks, photo_rects

if TYPE_CHECKING:
    from tournament.sheets.table_page import TablePage

PAGE_MM = (297.0, 210.0)
"""The printed sheet: A4 landscape, as the straightened page shows it."""


class PhotoMark(TypedDict):
    deal: int
    seat: int
    kind: str
    why: str
    saved: int | None
    rect: list[float] | None
    text: str
    box_id: str


def _why(mark: PhotoBox) -> str:
    if mark["saved"] is not None:
        return _("the photo differs from the saved sheet (saved: %(saved)s)") % {
            "saved": mark["saved"]
        }
    return _("not sure of the photo's digit")


def _mark_text(mark: PhotoBox, players: tuple[str, ...]) -> str:
    what = _("bid") if mark["kind"] == "bid" else _("tricks")
    deal = deal_name(mark["deal"])
    return f"{deal[:1].upper()}{deal[1:]}, {players[mark['seat']]}, {what}: {_why(mark)}"


def photo_context(sheet: TablePage, form: SheetForm, photo_url: str) -> dict[str, Any]:
    """The waiting photo as the page shows it; the marked boxes get ``data-photo`` (why) and a
    title, so the grid says it without the script too."""
    photo = sheet.photo
    assert photo is not None  # the caller asks only when one waits
    counted = SheetContent.of_sheet(sheet.stored.sheet)
    marks = photo_marks(photo.reading, counted)
    listed: list[PhotoMark] = []
    for mark in marks:
        cell = form.cell_form(mark["deal"], mark["seat"])
        field = cell[mark["kind"]]
        text = _mark_text(mark, sheet.players)
        widget = cell.fields[mark["kind"]].widget
        widget.attrs["data-photo"] = mark["why"]
        widget.attrs["title"] = _why(mark)
        listed.append({**mark, "text": text, "box_id": field.id_for_label})
    differs = sum(1 for m in marks if m["why"] == "differs")
    return {
        "pk": photo.pk,
        "url": photo_url,
        "uploaded_by": photo.uploaded_by,
        "created_at": photo.created_at,
        "via": photo.get_via_display(),
        "marks": listed,
        "differs": differs,
        "counted": bool(counted.cells),
        "to_check": ngettext("%(count)s box to check", "%(count)s boxes to check", len(marks))
        % {"count": len(marks)},
        "config": {
            "id": photo.pk,
            "url": photo_url,
            "pxPerMm": photo.px_per_mm,
            "pageMm": list(PAGE_MM),
            "boxes": photo_rects(photo.reading),
            "marks": [
                {
                    "deal": m["deal"],
                    "seat": m["seat"],
                    "kind": m["kind"],
                    "why": m["why"],
                    "saved": m["saved"],
                }
                for m in listed
            ],
            "messages": {
                "waiting": _(
                    "Read from a photo, not saved yet: check the marked boxes, then save."
                ),
                "bid": _("bid"),
                "tricks": _("tricks"),
                "box_doubt": _("digit not sure"),
                "box_differs": _("photo differs, saved: %(saved)s"),
                "checked": _("checked"),
                "progress": _("%(checked)s of %(total)s checked"),
                "all_checked": _("All boxes checked: save the sheet."),
                "saved": _("Saved: the photo is kept with this version of the sheet."),
                "saved_title": _("Photo of the sheet: saved with version %(number)s"),
                "save": _("Save"),
                "zoom": _("The photo at box: %(box)s"),
            },
        },
    }


def photo_kept(*, table: Table, photo_id: int) -> bool:
    """Whether the photo a page showed waiting (``photo_id``) is kept with a version of the
    table's sheet now: the page's save counted it (a save that counted nothing new and held
    the rest back leaves it waiting)."""
    return SheetPhoto.objects.filter(pk=photo_id, table=table, version__isnull=False).exists()
