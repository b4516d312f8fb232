"""Writing the site's own records into the portable file (``site_export``): the ``x-site``
record of a tournament, with its team, every sheet's history in the file's seat order, the
confirmations and the table links. What the record is: ``tournament_file.site``.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db.models import Count

from tournament.models import (
    Player,
    SheetVersion,
    Table,
    TableLink,
)
from tournament.models import Tournament as TournamentModel
from tournament.tournament_file.site import SITE_VERSION, version_turned


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


def _time(value: datetime.datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _name(user: User | None) -> str | None:
    return user.get_username() if user is not None else None


def _drop_none(record: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in record.items() if value is not None}


def site_export(*, tournament: TournamentModel, members: bool = True) -> dict[str, Any]:
    """The ``x-site`` record of a tournament: team, sheet history, confirmations, links, and
    (``members``) the member each player is."""
    record: dict[str, Any] = {
        "version": SITE_VERSION,
        "club": {"slug": tournament.club.slug, "name": tournament.club.name},
        "first_dealer_rule": tournament.first_dealer_rule,
    }
    if tournament.finished_at is not None:
        record["finished"] = _drop_none(
            {"at": _time(tournament.finished_at), "by": _name(tournament.finished_by)}
        )
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
    linked = site_members(tournament) if members else []
    if linked:
        record["members"] = linked
    hidden = Player.objects.filter(tournament=tournament, public_consent=False).order_by("pk")
    if hidden:
        record["not_public"] = [player.file_id for player in hidden]
    return record


def site_members(tournament: TournamentModel) -> list[dict[str, Any]]:
    """Which member of the club's register each player is: the member's id and when the record
    was made (together they name one record of one database: a restore finds the member again
    however they were renamed since), and their name, club and number as they were, to ask
    about them where the register has no such member."""
    players = (
        Player.objects.filter(tournament=tournament, member__isnull=False)
        .select_related("member")
        .order_by("pk")
    )
    return [
        {
            "player": player.file_id,
            "id": member.pk,
            "created_at": _time(member.created_at),
            "name": member.name,
            **({"club": member.club} if member.club else {}),
            **({"number": member.number} if member.number else {}),
            **({"guest": True} if member.guest else {}),
        }
        for player in players
        if (member := player.member) is not None
    ]
