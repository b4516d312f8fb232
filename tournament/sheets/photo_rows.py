"""The photos of a round's or a table's sheets, as the pages list them (without their bytes)."""

from __future__ import annotations

from typing import TypedDict

from django.db.models import QuerySet

from tournament.models import Round, SheetPhoto, Table


class PhotoRow(TypedDict):
    """One kept photo: where it came from and what became of it (``state``: ``waiting`` to be
    checked, ``kept`` with ``version``, or ``set_aside`` by a newer photo)."""

    pk: int
    table: int
    round: int
    created_at: object
    uploaded_by: str
    via: str
    state: str
    version: int | None


def _rows(photos: QuerySet[SheetPhoto]) -> list[PhotoRow]:
    rows: list[PhotoRow] = []
    for photo in photos.defer("photo", "page", "reading").select_related(
        "table__round", "uploaded_by", "version"
    ):
        state = "kept" if photo.version_id else "set_aside" if photo.set_aside_at else "waiting"
        rows.append(
            {
                "pk": photo.pk,
                "table": photo.table.number,
                "round": photo.table.round.number,
                "created_at": photo.created_at,
                "uploaded_by": photo.uploaded_by.get_username() if photo.uploaded_by else "",
                "via": photo.get_via_display(),
                "state": state,
                "version": photo.version.number if photo.version else None,
            }
        )
    return rows


def round_photo_rows(round_: Round) -> list[PhotoRow]:
    """Every photo of the round's sheets, by table, newest first within a table."""
    return _rows(
        SheetPhoto.objects.filter(table__round=round_).order_by("table__number", "-created_at")
    )


def table_photo_rows(table: Table) -> list[PhotoRow]:
    """Every photo of one table's sheet, newest first."""
    return _rows(SheetPhoto.objects.filter(table=table).order_by("-created_at"))


def round_waiting_tables(round_: Round) -> list[int]:
    """The numbers of the round's tables whose sheet has a photo waiting to be checked (a table
    has one at most: a newer photo sets the waiting one aside), in table order."""
    return list(
        SheetPhoto.objects.filter(
            table__round=round_, version__isnull=True, set_aside_at__isnull=True
        )
        .order_by("table__number")
        .values_list("table__number", flat=True)
        .distinct()
    )
