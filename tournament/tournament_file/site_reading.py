"""Checking the site's records of a tournament file (``settings["x-site"]``, see
``portable_site``) as strictly as the rest: every problem with its round, table and place in the
file, before anything is stored."""

from __future__ import annotations

import ipaddress
import json
import uuid
from collections import Counter
from functools import cache
from typing import Any, TypedDict

from django.utils.translation import gettext as _
from jsonschema import Draft202012Validator

from scoring.checks import check_sheet
from scoring.sheet import Sheet
from tournament.errors import FileCode, Place, PlacedProblem, rule_message
from tournament.tournament_file.schema_messages import schema_problems
from tournament.tournament_file.site import (
    SITE_KEY,
    SITE_SCHEMA_PATH,
    parse_time,
    penalties_from_file,
    sheet_file_deals,
    version_sheet,
)


@cache
def _validator() -> Draft202012Validator:
    schema = json.loads(SITE_SCHEMA_PATH.read_text(encoding="utf-8"))
    return Draft202012Validator(schema)


class TablePlace(TypedDict, total=False):
    """The round and table a problem of the record concerns, where known."""

    round: int
    table: int


class _Problems:
    """Collects the problems of the ``x-site`` record, each placed at its round and table."""

    def __init__(self) -> None:
        self.found: list[PlacedProblem] = []

    def add(
        self,
        message: str,
        *,
        where: str,
        round: int | None = None,
        table: int | None = None,
        deal: int | None = None,
        player: str | None = None,
    ) -> None:
        self.found.append(
            PlacedProblem(
                code=FileCode.SITE,
                message=f"{where}: {message}",
                round=round,
                table=table,
                deal=deal,
                player=player,
                field=where,
            )
        )


def site_check(document: dict[str, Any]) -> list[PlacedProblem]:
    """Every problem of the file's ``x-site`` record (none when it has none). ``document`` has
    passed the v1 schema."""
    record = document.get("settings", {}).get(SITE_KEY)
    if record is None:
        return []
    shape = schema_problems(
        _validator().iter_errors(record),
        code=FileCode.SITE,
        place_of=lambda path: _table_place(record, path),
        base=("settings", SITE_KEY),
    )
    if shape:
        return shape
    problems = _Problems()
    base = f"settings/{SITE_KEY}"

    tables = {(r["number"], t["number"]): t for r in document["rounds"] for t in r["tables"]}
    names = {p["id"]: f"{p['name']} ({p['id']})" for p in document["players"]}
    seen_places = Counter((t["round"], t["table"]) for t in record.get("tables", []))
    token_count = Counter(
        link["token"] for t in record.get("tables", []) for link in t.get("links", [])
    )
    _check_rounds(problems, record, {r["number"] for r in document["rounds"]}, base)
    _check_members(problems, record, set(names), base)
    for index, player in enumerate(record.get("not_public", [])):
        if player not in names:
            problems.add(
                _("the file has no player %(id)s.") % {"id": player},
                where=f"{base}/not_public/{index}",
                player=player,
            )
    finished = record.get("finished")
    if finished is not None and parse_time(finished["at"]) is None:
        problems.add(
            _("%(key)s must be a date and time (ISO 8601).") % {"key": "at"},
            where=f"{base}/finished/at",
        )
    for index, entry in enumerate(record.get("tables", [])):
        place: TablePlace = {"round": entry["round"], "table": entry["table"]}
        where = f"{base}/tables/{index}"
        table = tables.get((entry["round"], entry["table"]))
        if table is None:
            problems.add(_("the file has no such table in this round."), where=where, **place)
            continue
        if seen_places[entry["round"], entry["table"]] > 1:
            problems.add(_("this table is listed more than once."), where=where, **place)
        first = entry.get("first_dealer")
        if first is not None and first >= len(table["seats"]):
            problems.add(
                _("first_dealer %(row)s is not a row of this table of %(n)s seats (0 to %(last)s).")
                % {"row": first, "n": len(table["seats"]), "last": len(table["seats"]) - 1},
                where=f"{where}/first_dealer",
                **place,
            )
        _check_versions(problems, entry, table, names, where, place)
        _check_links(problems, entry, token_count, where, place)
    return problems.found


def _table_place(record: dict[str, Any], path: list[Any]) -> Place:
    """The round and table of a path in the record (tables/3/...), where it says them."""
    place: Place = {}
    if len(path) >= 2 and path[0] == "tables" and isinstance(path[1], int):
        tables = record.get("tables")
        item = tables[path[1]] if isinstance(tables, list) and path[1] < len(tables) else None
        if isinstance(item, dict):
            if isinstance(item.get("round"), int):
                place["round"] = item["round"]
            if isinstance(item.get("table"), int):
                place["table"] = item["table"]
    return place


def _check_rounds(
    problems: _Problems, record: dict[str, Any], numbers: set[int], base: str
) -> None:
    """The closed rounds: rounds of the file, each once, with the time it was closed."""
    listed = Counter(item["round"] for item in record.get("rounds", []))
    for index, item in enumerate(record.get("rounds", [])):
        where = f"{base}/rounds/{index}"
        number = item["round"]
        if number not in numbers:
            problems.add(_("the file has no round %(round)s.") % {"round": number}, where=where)
            continue
        if listed[number] > 1:
            problems.add(_("this round is listed more than once."), where=where, round=number)
        if parse_time(item["closed_at"]) is None:
            problems.add(
                _("%(key)s must be a date and time (ISO 8601).") % {"key": "closed_at"},
                where=where,
                round=number,
            )


def _check_members(
    problems: _Problems, record: dict[str, Any], players: set[str], base: str
) -> None:
    """The members the players are: players of the file, each once, each member once."""
    members = record.get("members", [])
    player_count = Counter(item["player"] for item in members)
    id_count = Counter(item["id"] for item in members)
    for index, item in enumerate(members):
        where = f"{base}/members/{index}"
        if item["player"] not in players:
            problems.add(
                _("the file has no player %(id)s.") % {"id": item["player"]},
                where=where,
                player=item["player"],
            )
        elif player_count[item["player"]] > 1:
            problems.add(
                _("this player is listed more than once."), where=where, player=item["player"]
            )
        if id_count[item["id"]] > 1:
            problems.add(
                _("the member %(id)s is listed for more than one player.") % {"id": item["id"]},
                where=where,
                player=item["player"],
            )
        if parse_time(item["created_at"]) is None:
            problems.add(
                _("%(key)s must be a date and time (ISO 8601).") % {"key": "created_at"},
                where=where,
                player=item["player"],
            )


def _check_versions(
    problems: _Problems,
    entry: dict[str, Any],
    table: dict[str, Any],
    names: dict[str, str],
    where: str,
    place: TablePlace,
) -> None:
    versions = entry.get("versions", [])
    n_seats = len(table["seats"])
    players = tuple(names.get(pid, pid) for pid in table["seats"])
    numbers = Counter(v["number"] for v in versions if v["number"] is not None)
    keys = Counter(v["key"] for v in versions if "key" in v)
    latest: tuple[int, Sheet] | None = None
    for index, version in enumerate(versions):
        at = f"{where}/versions/{index}"
        label = (
            _("version %(number)s") % {"number": version["number"]}
            if version["number"] is not None
            else _("conflict record %(index)s") % {"index": index + 1}
        )

        def bad(
            message: str,
            deal: int | None = None,
            player: str | None = None,
            at: str = at,
            label: str = label,
        ) -> None:
            problems.add(f"{label}: {message}", where=at, deal=deal, player=player, **place)

        if version["number"] is not None and numbers[version["number"]] > 1:
            bad(_("this version number appears more than once."))
        if "key" in version:
            try:
                uuid.UUID(version["key"])
            except ValueError:
                bad(_("key must be a UUID."))
            if keys[version["key"]] > 1:
                bad(_("this submission key appears more than once."))
        if "ip" in version:
            try:
                ipaddress.ip_address(version["ip"])
            except ValueError:
                bad(_("ip must be an IPv4 or IPv6 address."))
        if "saved_at" in version and parse_time(version["saved_at"]) is None:
            bad(_("%(key)s must be a date and time (ISO 8601).") % {"key": "saved_at"})
        confirmation = version.get("confirmation")
        if confirmation is not None:
            if version["number"] is None:
                bad(_("a conflict record cannot be confirmed."))
            if "at" in confirmation and parse_time(confirmation["at"]) is None:
                bad(_("%(key)s must be a date and time (ISO 8601).") % {"key": "confirmation.at"})
        restored = version.get("restored_from")
        if restored is not None and restored >= index:
            bad(_("restored_from must name an earlier entry of this table's list."))
        shape_ok = all(len(row) == n_seats for row in version["cells"]) and all(
            seat < n_seats for _deal, seat in penalties_from_file(version.get("penalties", []))
        )
        if not shape_ok:
            bad(
                _("the cells or penalties do not fit the %(n)s seats of this table.")
                % {"n": n_seats}
            )
            continue
        sheet = version_sheet(version, n_seats)
        for problem in check_sheet(sheet):
            player = players[problem.seat] if problem.seat is not None else None
            bad(rule_message(problem), deal=problem.deal, player=player)
        if version["number"] is not None and (latest is None or version["number"] > latest[0]):
            latest = (version["number"], sheet)
    if latest is not None:
        seats = table["seats"]
        in_file = (
            table.get("deals", []),
            sorted((p["player"], p["deal"]) for p in table.get("penalties", [])),
        )
        in_version = (
            sheet_file_deals(latest[1]),
            sorted((seats[p.seat], p.deal) for p in latest[1].penalties),
        )
        if in_file != in_version:
            problems.add(
                _("the latest version (%(number)s) is not the sheet this file holds for the table.")
                % {"number": latest[0]},
                where=f"{where}/versions",
                **place,
            )


def _check_links(
    problems: _Problems,
    entry: dict[str, Any],
    token_count: Counter[str],
    where: str,
    place: TablePlace,
) -> None:
    active = 0
    for index, link in enumerate(entry.get("links", [])):
        at = f"{where}/links/{index}"
        if token_count[link["token"]] > 1:
            problems.add(_("this token is used by more than one link."), where=at, **place)
        for key in ("created_at", "revoked_at"):
            if key in link and parse_time(link[key]) is None:
                problems.add(
                    _("%(key)s must be a date and time (ISO 8601).") % {"key": key},
                    where=at,
                    **place,
                )
        if "revoked_at" not in link:
            active += 1
    if active > 1:
        problems.add(
            _("a table has at most one link that is not revoked; this one has %(n)s.")
            % {"n": active},
            where=f"{where}/links",
            **place,
        )
