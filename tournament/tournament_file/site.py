"""The site's own records in the portable tournament file: what a backup needs beyond v1.

A v1 file holds the tournament (settings, players, seating, every sheet as it stands). A backup
must also give back what the site keeps around it: every sheet's history (``SheetVersion``,
conflict records included), the confirmations, the table links with their tokens (so printed QR
codes keep working after a restore) and the team by username. They travel in
``settings["x-site"]`` (see ``docs/tournament-file.md``): the v1 schema closes every object of
the file except ``settings``, so this is the one place where a v1 file may carry more and still
be a valid v1 file for every tool that reads one. Its own schema is
``formats/tournament-v1-site.schema.json``; the check is ``portable_site_check``.

Accounts and passwords are not in the file: names are restored onto the accounts of the same
username that exist in the database; the others are reported, never created.

The first dealer: v1 says ``seats[0]`` deals deal 1, while the site keeps the rows as printed
and stores the seat the table drew (``Table.first_dealer_seat``). So a table whose first dealer
is row k is written *turned* (``seats_turned``): its seats, every deal's bids and tricks, and
here every version's cells and penalty seats start at row k, so the file's own checks hold and
another tool reads a correct sheet. ``x-site`` keeps the rule and each table's drawn row, and
the restore turns the rows back (``seats_turned_back``) into their printed order.
"""

from __future__ import annotations

import datetime
import secrets
import uuid
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db.models import Count
from django.utils import timezone
from django.utils.translation import gettext as _

from scoring.sheet import Sheet
from tournament.adapter import sheet_from_cells
from tournament.models import (
    SheetConfirmation,
    SheetVersion,
    Table,
    TableLink,
)
from tournament.models import Tournament as TournamentModel

SITE_KEY = "x-site"
SITE_VERSION = 1
TOKEN_BYTES = 32  # as ``table_links`` makes them (it cannot be imported here: import cycle)
SITE_SCHEMA_PATH = (
    Path(__file__).resolve().parent.parent / "formats" / "tournament-v1-site.schema.json"
)


T = TypeVar("T")


def seats_turned(row: Sequence[T], first: int) -> list[T]:
    """A table's row of values per seat (its seats, a deal's bids) in the file's order, which
    starts with the first dealer (row ``first`` of the printed sheet)."""
    return [*row[first:], *row[:first]]


def seats_turned_back(row: Sequence[T], first: int) -> list[T]:
    """The inverse of ``seats_turned``: a row of the file back in the printed order."""
    cut = (len(row) - first) % len(row) if row else 0
    return [*row[cut:], *row[:cut]]


def version_turned(
    cells: Sequence[Sequence[Any]],
    penalties: Sequence[Sequence[int]],
    first: int,
    n_seats: int,
    *,
    back: bool,
) -> tuple[list[list[Any]], list[list[int]]]:
    """A version's ``cells`` (one row per deal) and ``[seat, deal]`` penalties in the file's
    order (or, with ``back``, from the file's order into the printed one)."""
    turn = seats_turned_back if back else seats_turned
    shift = first if back else -first
    return (
        [turn(row, first) for row in cells],
        [[(seat + shift) % n_seats, deal] for seat, deal in penalties],
    )


def table_first_dealers(tournament: TournamentModel) -> dict[int, tuple[int, int | None]]:
    """``{table id: (turn, drawn)}``: the row that deals deal 1 as the sheets read it (0 when
    none was drawn, or when the drawn row is beyond the table's seats) and the drawn row as
    stored (``None``: not drawn)."""
    rows = (
        Table.objects.filter(round__tournament=tournament)
        .annotate(n_seats=Count("seats"))
        .values_list("pk", "first_dealer_seat", "n_seats")
    )
    return {
        pk: (drawn, drawn) if drawn is not None and drawn < n else (0, None if drawn is None else 0)
        for pk, drawn, n in rows
    }


def sheet_file_deals(sheet: Sheet) -> list[dict[str, Any]]:
    """The ``deals`` a v1 file holds for a sheet: complete bid rows only, and a deal whose
    tricks are not all in has ``tricks: []`` and is the last one."""
    deals = []
    for deal in sheet.deals:
        if any(bid is None for bid in deal.bids):
            break  # bidding still under way
        tricks = [] if any(t is None for t in deal.tricks) else list(deal.tricks)
        deals.append({"bids": list(deal.bids), "tricks": tricks})
        if not tricks:
            break
    return deals


def parse_time(value: str) -> datetime.datetime | None:
    try:
        moment = datetime.datetime.fromisoformat(value)
    except ValueError:
        return None
    if timezone.is_naive(moment):
        moment = timezone.make_aware(moment, datetime.UTC)
    return moment


def _checked_time(value: str) -> datetime.datetime:
    """A time of a checked file (the check refused one that is not a date and time)."""
    moment = parse_time(value)
    assert moment is not None, f"{value!r} passed the file's check"
    return moment


def version_sheet(version: dict[str, Any], n_seats: int) -> Sheet:
    cells = {
        (deal, seat): (pair[0], pair[1])
        for deal, row in enumerate(version["cells"], start=1)
        for seat, pair in enumerate(row)
    }
    penalties = sorted((seat, deal) for seat, deal in version.get("penalties", []))
    return sheet_from_cells(n_seats, cells, penalties)


# ---- export ----


def _time(value: datetime.datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _name(user: User | None) -> str | None:
    return user.get_username() if user is not None else None


def _drop_none(record: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in record.items() if value is not None}


def site_export(*, tournament: TournamentModel) -> dict[str, Any]:
    """The ``x-site`` record of a tournament: team, sheet history, confirmations, links."""
    record: dict[str, Any] = {
        "version": SITE_VERSION,
        "first_dealer_rule": tournament.first_dealer_rule,
    }
    closed = tournament.rounds.filter(closed_at__isnull=False).order_by("number")
    if closed:
        record["rounds"] = [{"round": r.number, "closed_at": _time(r.closed_at)} for r in closed]
    team = {
        "directors": sorted(u.get_username() for u in tournament.directors.all()),
        "scorers": sorted(u.get_username() for u in tournament.scorers.all()),
    }
    record["team"] = {role: names for role, names in team.items() if names}

    places = dict(
        Table.objects.filter(round__tournament=tournament).values_list("pk", "round__number")
    )
    numbers = dict(Table.objects.filter(round__tournament=tournament).values_list("pk", "number"))
    seats = dict(
        Table.objects.filter(round__tournament=tournament)
        .annotate(n=Count("seats"))
        .values_list("pk", "n")
    )
    first_dealers = table_first_dealers(tournament)
    tables: dict[int, dict[str, Any]] = {}

    def entry(table_id: int) -> dict[str, Any]:
        if table_id not in tables:
            tables[table_id] = {"round": places[table_id], "table": numbers[table_id]}
            drawn = first_dealers[table_id][1]
            if drawn is not None:
                tables[table_id]["first_dealer"] = drawn
        return tables[table_id]

    for table_id, (_turn, drawn) in first_dealers.items():
        if drawn is not None:
            entry(table_id)

    versions = (
        SheetVersion.objects.filter(table__round__tournament=tournament)
        .select_related("user", "confirmation__user")
        .order_by("table_id", "created_at", "pk")
    )
    saved = {v.table_id for v in versions if v.number is not None and v.number > 0}
    index_of: dict[int, int] = {}
    for version in versions:
        if version.number == 0 and version.table_id not in saved:
            continue  # the sheet as imported, never saved since: the file's deals are it
        listed = entry(version.table_id).setdefault("versions", [])
        index_of[version.pk] = len(listed)
        confirmation = getattr(version, "confirmation", None)
        cells, penalties = version_turned(
            version.cells,
            version.penalties,
            first_dealers[version.table_id][0],
            seats[version.table_id],
            back=False,
        )
        listed.append(
            {"number": version.number}  # None: a conflict record, kept without a number
            | _drop_none(
                {
                    "base": version.base_number,
                    "cells": cells,
                    "penalties": penalties,
                    "via": version.via,
                    "saved_by": _name(version.user),
                    "saved_at": _time(version.created_at),
                    "ip": version.ip,
                    "key": str(version.idempotency_key) if version.idempotency_key else None,
                    "restored_from": (
                        index_of.get(version.restored_from_id)
                        if version.restored_from_id is not None
                        else None
                    ),
                    "confirmation": _drop_none(
                        {
                            "method": confirmation.method,
                            "by": _name(confirmation.user),
                            "at": _time(confirmation.created_at),
                        }
                    )
                    if confirmation is not None
                    else None,
                }
            )
        )
    links = (
        TableLink.objects.filter(table__round__tournament=tournament)
        .select_related("created_by")
        .order_by("table_id", "created_at", "pk")
    )
    for link in links:
        entry(link.table_id).setdefault("links", []).append(
            _drop_none(
                {
                    "token": link.token,
                    "created_at": _time(link.created_at),
                    "created_by": _name(link.created_by),
                    "revoked_at": _time(link.revoked_at),
                }
            )
        )
    record["tables"] = sorted(tables.values(), key=lambda t: (t["round"], t["table"]))
    return record


# ---- restoring ----


def _record(document: dict[str, Any]) -> dict[str, Any]:
    return document.get("settings", {}).get(SITE_KEY) or {}


def site_first_dealer_rule(document: dict[str, Any]) -> str:
    """The tournament's first-dealer rule the checked file holds; a file without the site's
    records (or without the rule) is a plain v1 file: the site decides, seats[0] deals first."""
    rule: str = _record(document).get("first_dealer_rule", TournamentModel.FirstDealerRule.SITE)
    return rule


def site_first_dealers(document: dict[str, Any]) -> dict[tuple[int, int], int]:
    """``{(round, table): row}``: the tables of the checked file whose first dealer was drawn,
    with the drawn row of the printed sheet (the file's seats start with that player)."""
    return {
        (entry["round"], entry["table"]): entry["first_dealer"]
        for entry in _record(document).get("tables", [])
        if entry.get("first_dealer") is not None
    }


def site_closed_rounds(document: dict[str, Any]) -> dict[int, datetime.datetime | None]:
    """``{round number: closed at}``: the rounds the director had closed."""
    return {
        item["round"]: parse_time(item["closed_at"]) for item in _record(document).get("rounds", [])
    }


@dataclass
class SiteRestored:
    """What restoring the ``x-site`` record did not do as the file says, in plain sentences."""

    notes: list[str] = field(default_factory=list)


def site_restore(*, tournament: TournamentModel, document: dict[str, Any]) -> SiteRestored:
    """Store the checked ``x-site`` record of ``document`` on the freshly imported
    ``tournament`` (inside the import's transaction)."""
    outcome = SiteRestored()
    record = document.get("settings", {}).get(SITE_KEY)
    if record is None:
        return outcome
    users = _accounts(record)
    missing: dict[str, list[str]] = defaultdict(list)

    def account(name: str | None, role: str) -> User | None:
        if name is None:
            return None
        user = users.get(name)
        if user is None and role not in missing[name]:
            missing[name].append(role)
        return user

    team = record.get("team", {})
    for name in team.get("directors", []):
        if (user := account(name, _("team: co-director"))) is not None:
            tournament.directors.add(user)
    for name in team.get("scorers", []):
        if (user := account(name, _("team: scorer"))) is not None:
            tournament.scorers.add(user)

    table_of = {(r, t): (pk, n, first) for pk, r, t, n, first in _tables_with_seats(tournament)}
    in_use = _tokens_in_use(record)
    versions: list[tuple[SheetVersion, dict[str, Any], list[SheetVersion]]] = []
    confirmations: list[tuple[SheetConfirmation, dict[str, Any]]] = []
    links: list[tuple[TableLink, dict[str, Any]]] = []
    for entry in record.get("tables", []):
        table_id, n_seats, first = table_of[entry["round"], entry["table"]]
        of_table: list[SheetVersion] = []
        for item in entry.get("versions", []):
            cells, penalties = version_turned(
                item["cells"], item.get("penalties", []), first or 0, n_seats, back=True
            )
            version = SheetVersion(
                table_id=table_id,
                number=item["number"],
                base_number=item.get("base", 0),
                cells=cells,
                penalties=penalties,
                via=item.get("via", SheetVersion.Via.DIRECTOR),
                user=account(item.get("saved_by"), _("saved a sheet")),
                ip=item.get("ip"),
                idempotency_key=uuid.UUID(item["key"]) if "key" in item else None,
            )
            of_table.append(version)
            versions.append((version, item, of_table))
        for item in entry.get("links", []):
            token = item["token"]
            if token in in_use:
                other = in_use[token]
                if "revoked_at" not in item:
                    outcome.notes.append(
                        _(
                            "Round %(round)s, table %(table)s: its table link is still in use by "
                            "“%(other)s” (%(slug)s) in this database, so this tournament got a "
                            "new link for that table; the printed QR code keeps opening "
                            "“%(other)s”."
                        )
                        % {
                            "round": entry["round"],
                            "table": entry["table"],
                            "other": other.name,
                            "slug": other.slug,
                        }
                    )
                token = secrets.token_urlsafe(TOKEN_BYTES)
            links.append(
                (
                    TableLink(
                        table_id=table_id,
                        token=token,
                        created_by=account(item.get("created_by"), _("made a table link")),
                        revoked_at=parse_time(item["revoked_at"]) if "revoked_at" in item else None,
                    ),
                    item,
                )
            )

    SheetVersion.objects.bulk_create([v for v, _item, _table in versions], batch_size=1000)
    for version, item, of_table in versions:
        if item.get("restored_from") is not None:
            version.restored_from = of_table[item["restored_from"]]
        if "saved_at" in item:
            version.created_at = _checked_time(item["saved_at"])
        conf = item.get("confirmation")
        if conf is not None:
            confirmations.append(
                (
                    SheetConfirmation(
                        version=version,
                        user=account(conf.get("by"), _("confirmed a sheet")),
                        method=conf["method"],
                    ),
                    conf,
                )
            )
    if versions:
        SheetVersion.objects.bulk_update(
            [v for v, _item, _table in versions], ["restored_from", "created_at"], batch_size=500
        )
    SheetConfirmation.objects.bulk_create([c for c, _item in confirmations], batch_size=1000)
    _keep_times(SheetConfirmation, confirmations, "at")
    TableLink.objects.bulk_create([link for link, _item in links], batch_size=1000)
    _keep_times(TableLink, links, "created_at")

    if missing:
        outcome.notes.append(
            _(
                "These accounts are not in this database and were not created (a backup holds "
                "no passwords): %(names)s. Add the people again on the Team page; their "
                "saves and confirmations are kept without a name."
            )
            % {
                "names": "; ".join(
                    f"{name} ({', '.join(roles)})" for name, roles in sorted(missing.items())
                )
            }
        )
    return outcome


# The restored rows whose ``created_at`` the file gives.
Dated = TypeVar("Dated", SheetConfirmation, TableLink)


def _keep_times(model: type[Dated], rows: Sequence[tuple[Dated, dict[str, Any]]], key: str) -> None:
    """Put back the times of the file (``auto_now_add`` set them to now on insert)."""
    dated = []
    for row, item in rows:
        if key in item:
            row.created_at = _checked_time(item[key])
            dated.append(row)
    if dated:
        model.objects.bulk_update(dated, ["created_at"], batch_size=500)


def _accounts(record: dict[str, Any]) -> dict[str, User]:
    names: set[str] = set()
    team = record.get("team", {})
    names.update(team.get("directors", []), team.get("scorers", []))
    for entry in record.get("tables", []):
        for item in entry.get("versions", []):
            names.update(n for n in (item.get("saved_by"),) if n)
            names.update(n for n in (item.get("confirmation", {}).get("by"),) if n)
        names.update(link["created_by"] for link in entry.get("links", []) if "created_by" in link)
    user_model = get_user_model()
    field_name = user_model.USERNAME_FIELD
    found = user_model.objects.filter(**{f"{field_name}__in": names})
    return {user.get_username(): user for user in found}


def _tokens_in_use(record: dict[str, Any]) -> dict[str, TournamentModel]:
    tokens = [link["token"] for t in record.get("tables", []) for link in t.get("links", [])]
    taken = TableLink.objects.filter(token__in=tokens).select_related("table__round__tournament")
    return {link.token: link.table.round.tournament for link in taken}


def _tables_with_seats(
    tournament: TournamentModel,
) -> list[tuple[int, int, int, int, int | None]]:
    rows = (
        Table.objects.filter(round__tournament=tournament)
        .annotate(n_seats=Count("seats"))
        .values_list("pk", "round__number", "number", "n_seats", "first_dealer_seat")
    )
    return list(rows)
