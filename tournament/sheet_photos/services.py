"""Reading an uploaded photo of a paper score sheet into its table's sheet, as a photo waiting
to be checked (``sheets.photo_input``); nothing of it counts until a person saves the sheet.

``sheet_photo_upload`` takes one photo and either stores it (the ``SheetPhoto`` with what was
read) or refuses it with the reason, nothing stored: not an image or too large
(``images``), too many photos lately (``venue.costly``), unreadable (``tournament.photos``),
another tournament's, round's or table's sheet, a sheet that may not change now, a file read
before, or a table that keeps as many photos as it may.

What costs nothing comes first: the file's header, the page's own refusals (a table link's
closed round or confirmed sheet) and a file read before are refused before anything is
counted. Everything costly (decoding, re-encoding and reading) runs in the costly section, each
attempt counted against the limits, refused or not: a sender refused by the limits costs a
few queries, nothing decoded.

A table keeps at most ``MAX_PHOTOS_PER_TABLE`` photos: to make room, the oldest ones set aside
without ever being saved (a newer photo took their place) are dropped; when every kept one is
saved with a version or waiting, a new one is refused.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.contrib.auth.models import AnonymousUser, User
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from tournament.adapter import table_sheet
from tournament.errors import FinishedRefusal, PlacedProblem, Refused
from tournament.models import (
    CostlyWork,
    Round,
    SheetPhoto,
    SheetVersion,
    Table,
    TableLink,
    Tournament,
)
from tournament.sheet_photos.images import photo_checked, photo_jpeg, photo_probed
from tournament.sheets.confirmations import sheet_is_confirmed
from tournament.sheets.content import SheetContent
from tournament.sheets.locks import sheet_locked
from tournament.sheets.photo_input import (
    PhotoReadingJson,
    box_key,
    photo_cells,
    photo_marks,
    photo_over,
)
from tournament.sheets.table_links import LinkRefusal, table_link_closed_reason
from tournament.venue.costly import costly

if TYPE_CHECKING:
    from tournament.photos.reading import PhotoProblem, SheetPhotoReading

MAX_PHOTOS_PER_TABLE = 12
"""Photos one table keeps: a sheet is photographed once or twice, a dispute a few times more.
Each is some 800 kB in the database and in every club backup."""


class PhotoPlaceRefusal(models.TextChoices):
    """Why a photo that was read is not stored: it is not the sheet this page takes."""

    UNREADABLE = "photo_unreadable", gettext_lazy("The photo cannot be read.")
    OTHER_TOURNAMENT = (
        "photo_other_tournament",
        gettext_lazy("This is a score sheet of another tournament."),
    )
    OTHER_ROUND = (
        "photo_other_round",
        gettext_lazy(
            "This is the sheet of round %(round)s, table %(table)s: upload it on the page of "
            "round %(round)s."
        ),
    )
    OTHER_TABLE = (
        "photo_other_table",
        gettext_lazy(
            "This is the sheet of table %(table)s (round %(round)s), not of this table: send it "
            "through that table's own link, or give it to the tournament director."
        ),
    )
    ROUND_COMPLETE = (
        "photo_round_complete",
        gettext_lazy(
            "Round %(round)s is complete: every sheet of it is counted, and its photos are no "
            "longer read. Correct a sheet on its own page."
        ),
    )
    NOT_PUBLISHED = (
        "photo_round_draft",
        gettext_lazy(
            "Round %(round)s is not published yet: publish its seating first, then upload its "
            "sheets."
        ),
    )
    NOTHING_READ = (
        "photo_nothing_read",
        gettext_lazy(
            "No digits were read on the sheet of table %(table)s: is it filled in, and is the "
            "whole sheet in the photo?"
        ),
    )
    ALREADY_READ = (
        "photo_already_read",
        gettext_lazy(
            "This photo was read before, as the sheet of table %(table)s (round %(round)s); "
            "it is not stored again."
        ),
    )
    TABLE_FULL = (
        "photo_table_full",
        gettext_lazy(
            "Table %(table)s keeps %(max)s photos already, each saved with a version of its "
            "sheet or waiting to be checked; no more are kept. Type any change on the sheet's "
            "page."
        ),
    )


@dataclass(frozen=True, slots=True)
class PhotoUpload:
    """One uploaded photo: its bytes and file name (for the messages), who sent it, and the
    page it came from: a round page (``round_number``) or a table's link (``link``)."""

    tournament: Tournament
    name: str
    data: bytes
    by_user: User | AnonymousUser
    round_number: int | None = None
    link: TableLink | None = None


@dataclass(frozen=True, slots=True)
class PhotoRead:
    """A photo stored: its table, how many boxes a person must look at, in how many the photo
    differs from the sheet as counted, whether it equals that sheet (then it is kept with its
    version at once: nothing to check), and whether it took an earlier waiting photo's place."""

    photo: SheetPhoto
    table: Table
    to_check: int
    differs: int
    kept: bool
    replaced: bool
    saved_before: bool


def _refusal(code: PhotoPlaceRefusal | LinkRefusal | FinishedRefusal, **params: object) -> Refused:
    message = str(code.label) % params if params else str(code.label)
    return Refused([PlacedProblem(code=str(code), message=message)])


def reading_json(reading: SheetPhotoReading) -> PhotoReadingJson:
    """What the reader said, as ``SheetPhoto.reading`` keeps it: its printed rows (from 1) as
    the sheet's seat indexes (from 0)."""
    return {
        "deals": [dict(d) for d in reading.deals],
        "uncertain": [[deal, row - 1, kind] for deal, row, kind in reading.uncertain],
        "boxes": {
            box_key(deal, row - 1, kind): list(rect)
            for (deal, row, kind), rect in reading.boxes.items()
        },
    }


def _read(upload: PhotoUpload) -> tuple[bytes, SheetPhotoReading]:
    """The photo to keep (decoded, upright, re-encoded) and what it reads as, as this
    machine's costly job counted for the sender (a table link's photo: for the link);
    ``Refused`` when it cannot be, or is not a sheet of this tournament."""
    # Imported here: the reader brings OpenCV and NumPy, which a server process loads only
    # once it reads its first photo, not for every page.
    from tournament.photos.reading import PhotoProblem, read_sheet_photo

    tournament = upload.tournament

    def work() -> tuple[bytes, SheetPhotoReading | PhotoProblem]:
        kept = photo_jpeg(photo_checked(upload.data))
        return kept, read_sheet_photo(tournament, upload.data)

    kept, result = costly(
        upload.by_user, work, club=tournament.club, kind=CostlyWork.Kind.PHOTO, link=upload.link
    )
    if isinstance(result, PhotoProblem):
        raise Refused([PlacedProblem(code=PhotoPlaceRefusal.UNREADABLE, message=result.message)])
    return kept, result


def _refuse_before_reading(upload: PhotoUpload) -> None:
    """What the page refuses whatever the photo shows, before it costs anything: a finished
    tournament, a draft or complete round, and through a table's link its closed round or
    confirmed sheet. (Asked again under the table's lock once the photo is read.)"""
    if upload.link is not None:
        _refuse_closed(upload, upload.link.table)
        return
    if upload.tournament.finished_at is not None:
        raise _refusal(FinishedRefusal.FINISHED)
    if upload.round_number is None:
        return
    state = (
        Round.objects.with_state()
        .filter(tournament=upload.tournament, number=upload.round_number)
        .values_list("progress", flat=True)
        .first()
    )
    if state == Round.State.DRAFT:
        raise _refusal(PhotoPlaceRefusal.NOT_PUBLISHED, round=upload.round_number)
    if state == Round.State.COMPLETE:  # the reader refuses its sheets too
        raise _refusal(PhotoPlaceRefusal.ROUND_COMPLETE, round=upload.round_number)


def _refuse_seen(upload: PhotoUpload, digest: str) -> None:
    """The same file was read and kept before (on this page's tournament; through a link, for
    its table): it says nothing new, and is neither read nor stored again."""
    seen = SheetPhoto.objects.filter(sha256=digest)
    if upload.link is not None:
        seen = seen.filter(table_id=upload.link.table_id)
    else:
        seen = seen.filter(table__round__tournament=upload.tournament)
    first = seen.select_related("table__round").defer("photo", "page").first()
    if first is not None:
        raise _refusal(
            PhotoPlaceRefusal.ALREADY_READ, table=first.table.number, round=first.table.round.number
        )


def _refuse_elsewhere(upload: PhotoUpload, table: Table) -> None:
    """A sheet this page does not take: another tournament's, round's or table's."""
    place = {"round": table.round.number, "table": table.number}
    if table.round.tournament_id != upload.tournament.pk:
        raise _refusal(PhotoPlaceRefusal.OTHER_TOURNAMENT)
    if upload.link is not None and upload.link.table_id != table.pk:
        raise _refusal(PhotoPlaceRefusal.OTHER_TABLE, **place)
    if upload.round_number is not None and table.round.number != upload.round_number:
        raise _refusal(PhotoPlaceRefusal.OTHER_ROUND, **place)


def _refuse_closed(upload: PhotoUpload, table: Table) -> None:
    """A sheet that may not change now through this page (under the table's lock)."""
    if upload.tournament.finished_at is not None:
        raise _refusal(FinishedRefusal.FINISHED)
    if not table.round.published:
        raise _refusal(PhotoPlaceRefusal.NOT_PUBLISHED, round=table.round.number)
    if upload.link is None:
        return  # the team corrects a closed or complete round's sheet on its page
    closed = table_link_closed_reason(table)
    if closed is not None:
        raise _refusal(closed)
    if sheet_is_confirmed(table):
        raise _refusal(LinkRefusal.CONFIRMED)


def sheet_photo_upload(*, upload: PhotoUpload) -> PhotoRead:
    """Read ``upload`` and store it as its table's waiting photo (or, when it equals the sheet
    as counted, kept with that version); ``Refused``, nothing stored, otherwise."""
    photo_probed(upload.data)
    _refuse_before_reading(upload)
    digest = hashlib.sha256(upload.data).hexdigest()
    _refuse_seen(upload, digest)
    kept_photo, reading = _read(upload)
    _refuse_elsewhere(upload, reading.table)
    with sheet_locked(reading.table) as table:
        table.round.tournament = upload.tournament
        _refuse_closed(upload, table)
        _refuse_seen(upload, digest)  # the same file sent twice at once: kept once
        return _stored(upload, table, reading, (kept_photo, digest))


def _make_room(table: Table) -> None:
    """Room for one more of ``table``'s photos (``MAX_PHOTOS_PER_TABLE``): the oldest set
    aside without a version are dropped; ``Refused`` when those are not enough."""
    photos = SheetPhoto.objects.filter(table=table)
    over = photos.count() + 1 - MAX_PHOTOS_PER_TABLE
    if over <= 0:
        return
    spare = list(
        photos.filter(version__isnull=True, set_aside_at__isnull=False)
        .order_by("created_at", "pk")
        .values_list("pk", flat=True)[:over]
    )
    if len(spare) < over:
        raise _refusal(PhotoPlaceRefusal.TABLE_FULL, table=table.number, max=MAX_PHOTOS_PER_TABLE)
    SheetPhoto.objects.filter(pk__in=spare).delete()


def _stored(
    upload: PhotoUpload, table: Table, reading: SheetPhotoReading, files: tuple[bytes, str]
) -> PhotoRead:
    """``reading`` stored as ``table``'s photo; ``files``: the photo to keep and the upload's
    SHA-256."""
    kept_photo, digest = files
    read = reading_json(reading)
    counted = SheetContent.of_sheet(table_sheet(table).sheet)
    if not photo_cells(read, counted.n_seats):
        raise _refusal(PhotoPlaceRefusal.NOTHING_READ, table=table.number)
    _make_room(table)
    marks = photo_marks(read, counted)
    # The sheet as it stands: a save, or version 0 (as a tournament file brought it).
    latest = SheetVersion.objects.current(table).first()
    kept = latest is not None and bool(counted.cells) and photo_over(counted, read) == counted
    replaced = SheetPhoto.objects.filter(
        table=table, version__isnull=True, set_aside_at__isnull=True
    ).update(set_aside_at=timezone.now())
    user = upload.by_user
    photo = SheetPhoto.objects.create(
        table=table,
        uploaded_by=user if isinstance(user, User) and user.is_authenticated else None,
        via=SheetPhoto.Via.TABLE_LINK if upload.link else SheetPhoto.Via.ROUND_PAGE,
        photo=kept_photo,
        page=reading.page_jpeg,
        px_per_mm=reading.px_per_mm,
        reading=read,
        version=latest if kept else None,
        sha256=digest,
    )
    return PhotoRead(
        photo=photo,
        table=table,
        to_check=0 if kept else len(marks),
        differs=sum(1 for m in marks if m["why"] == "differs"),
        kept=kept,
        replaced=bool(replaced),
        saved_before=bool(counted.cells),
    )


def photo_outcome_text(name: str, read: PhotoRead) -> str:
    """What became of one photo, in a sentence that names its file."""
    table = read.table.number
    if read.kept:
        text = _(
            "table %(table)s: the photo equals the saved sheet; it is kept with version "
            "%(version)s."
        ) % {"table": table, "version": read.photo.version.number if read.photo.version else 0}
    else:
        text = _("table %(table)s filled in from the photo, %(boxes)s to check.") % {
            "table": table,
            "boxes": _photo_boxes(read.to_check),
        }
        if read.saved_before and read.differs:
            text += " " + _(
                "Its sheet was saved before and the photo differs from it: the saved sheet "
                "changes only when someone checks the photo and saves."
            )
    if read.replaced:
        text += " " + _("It takes the place of an earlier photo of this table (which is kept).")
    return f"{name}: {text}"


def _photo_boxes(count: int) -> str:
    return ngettext("%(count)s box", "%(count)s boxes", count) % {"count": count}
