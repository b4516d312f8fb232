"""Reads of the sheets: a table's versions and their history, who saved each sheet of a round and
whether it may be confirmed."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db.models import F, OuterRef, Subquery

from tournament.models import Round, SheetVersion, Table, TableLink
from tournament.sheets.content import CellChange, SheetContent, sheet_changes


@dataclass(frozen=True, slots=True)
class SheetReview:
    """Where a table's sheet stands for the director: who saved it last (at the table, through
    its link, or on the sheet page), which version, whether a director has confirmed it, and
    whether the table has a working link."""

    version: int | None = None  # None: never saved on the site (empty, or imported)
    via: str | None = None
    saved_by: str | None = None
    saved_by_id: int | None = None
    saved_at: datetime.datetime | None = None
    confirmed_by: str | None = None
    confirmed_how: str | None = None
    confirmed_at: datetime.datetime | None = None
    link_active: bool = False

    @property
    def at_table(self) -> bool:
        return self.via == SheetVersion.Via.TABLE_LINK

    @property
    def confirmed(self) -> bool:
        return self.confirmed_at is not None


def round_sheet_reviews(round_: Round) -> dict[int, SheetReview]:
    """The review state of every table of a round, by table number (three queries)."""
    current = SheetVersion.objects.current(OuterRef("pk"))
    tables = list(
        Table.objects.filter(round=round_)
        .annotate(current=Subquery(current.values("pk")))
        .values_list("pk", "number", "current")
    )
    versions = SheetVersion.objects.filter(
        pk__in=[current for _pk, _number, current in tables if current], number__gt=0
    ).select_related("user", "confirmation__user")  # saves: version 0 is nobody's
    linked = set(
        TableLink.objects.filter(table__round=round_, revoked_at__isnull=True).values_list(
            "table_id", flat=True
        )
    )
    by_table = {v.table_id: v for v in versions}
    reviews = {}
    for table_id, number, _current in tables:
        version = by_table.get(table_id)
        confirmation = getattr(version, "confirmation", None) if version else None
        reviews[number] = SheetReview(
            version=version.number if version else None,
            via=version.via if version else None,
            saved_by=version.user.get_username() if version and version.user else None,
            saved_by_id=version.user_id if version else None,
            saved_at=version.created_at if version else None,
            confirmed_by=(
                confirmation.user.get_username() if confirmation and confirmation.user else None
            ),
            confirmed_how=confirmation.get_method_display() if confirmation else None,
            confirmed_at=confirmation.created_at if confirmation else None,
            link_active=table_id in linked,
        )
    return reviews


def sheet_state_tag(table_id: int) -> str:
    """A tag of where a table's sheet stands: its version and its held input, in one query.
    It changes with every save (a new version, or held input replaced); the sheet page's idle
    poll sends it back as ``If-None-Match``."""
    current = SheetVersion.objects.current(OuterRef("pk"))
    row = (
        Table.objects.filter(pk=table_id)
        .annotate(version=Subquery(current.values("number")), draft_at=F("sheet_draft__updated_at"))
        .values_list("version", "draft_at")
        .first()
    )
    version, draft_at = row if row is not None else (None, None)
    return f'"v{version or 0}-{draft_at.isoformat() if draft_at else ""}"'


def sheet_latest_version(table: Table) -> SheetVersion | None:
    """The sheet's current version, with its saver, when it is a save; ``None`` if never
    saved on the site (version 0, the sheet as imported, is not a save)."""
    current = SheetVersion.objects.current(table).select_related("user").first()
    return current if current is not None and current.is_save else None


def sheet_version_number(table: Table) -> int:
    """The table's sheet version now (0 before the first save)."""
    return version_number(sheet_latest_version(table))


def version_number(version: SheetVersion | None) -> int:
    """The number of ``version``, a table's latest version (0 for none: the sheet as imported or
    blank). Only conflict records have no number, and they are never a table's latest version."""
    return (version.number or 0) if version is not None else 0


def sheet_versions(table: Table) -> list[SheetVersion]:
    """Every version and conflict record of the table's sheet, oldest first."""
    return list(SheetVersion.objects.filter(table=table).select_related("user", "restored_from"))


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One version (or conflict record) of a sheet and what it changed."""

    version: SheetVersion
    changes: list[CellChange]


def sheet_history_entries(table: Table) -> list[HistoryEntry]:
    """Every version and conflict record of the sheet, newest first, each with what it changed:
    a version against the one before it, a conflict record against the version it started
    from. Version 0 (the sheet as imported) is listed once the sheet was saved on the site."""
    n_seats = len(table_seat_ids(table))
    versions = sheet_versions(table)
    by_number = {v.number: v for v in versions if v.number is not None}
    if max(by_number, default=0) == 0:
        versions = [v for v in versions if v.number is None]
    blank = SheetContent.build(n_seats, {})
    entries, previous = [], blank
    for version in versions:
        content = SheetContent.of_version(version, n_seats)
        if version.number is None:
            base = by_number.get(version.base_number)
            before = SheetContent.of_version(base, n_seats) if base else blank
        else:
            before, previous = previous, content
        entries.append(HistoryEntry(version, sheet_changes(before, content)))
    entries.reverse()
    return entries


def table_seat_ids(table: Table) -> list[int]:
    return list(table.seats.order_by("position").values_list("pk", flat=True))
