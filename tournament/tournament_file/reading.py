"""Checking a portable tournament file (version 1) before anything of it is stored.

The whole file is checked: first its shape against the JSON Schema, then every rule of the game
on every sheet. All problems are reported with their round, table, deal and player.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import fastjsonschema
from django.conf import settings as django_settings
from django.utils.translation import gettext as _
from jsonschema import Draft202012Validator

from scoring.errors import ScoringError
from scoring.sheet import DealEntry, Penalty, Sheet, check_sheet
from scoring.standings import TieBreak
from tournament.errors import FileCode, Place, PlacedProblem, Refused, place_rule_problem
from tournament.models import Tournament
from tournament.tournament_file.limits import PRIZE_MAX, file_consistency_check, file_limits_check
from tournament.tournament_file.schema_messages import schema_problems
from tournament.tournament_file.site_reading import site_check

CONFIRMATION_RULES = tuple(Tournament.ConfirmationRule.values)
SCHEMA_PATH = Path(__file__).resolve().parent.parent / "formats" / "tournament-v1.schema.json"


@cache
def _schema() -> dict[str, Any]:
    schema: dict[str, Any] = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    return schema


@cache
def _validator() -> Draft202012Validator:
    return Draft202012Validator(_schema(), format_checker=Draft202012Validator.FORMAT_CHECKER)


@cache
def _fast_validator() -> Callable[[Any], Any]:
    """The schema compiled to Python: about 35 times faster on a large valid file, but it stops
    at the first problem, so a file it refuses is checked again to list every problem."""
    return fastjsonschema.compile(_schema())


def tournament_file_parse(raw: bytes | str) -> Any:
    """Parse the JSON text of a tournament file; a clear problem if it is not JSON, or too
    large or too deep to be a tournament."""
    if len(raw) > django_settings.IMPORT_MAX_BYTES:
        raise Refused(
            [
                PlacedProblem(
                    code=FileCode.TOO_LARGE,
                    message=_("The file is too large (%(size)s MB; at most %(max)s MB).")
                    % {
                        "size": round(len(raw) / 1e6, 1),
                        "max": django_settings.IMPORT_MAX_BYTES // 1_000_000,
                    },
                )
            ]
        )
    try:
        return json.loads(raw)
    except RecursionError as exc:
        message = _("The file is nested too deep to be a tournament file.")
        raise Refused([PlacedProblem(code=FileCode.LIMIT, message=message)]) from exc
    except UnicodeDecodeError as exc:
        message = _(
            "The file is not UTF-8 text (byte %(position)s cannot be read): save it as UTF-8."
        ) % {"position": exc.start + 1}
        raise Refused([PlacedProblem(code=FileCode.JSON, message=message)]) from exc
    except json.JSONDecodeError as exc:
        if not exc.doc.strip():
            message = _("The file is empty: it holds no tournament.")
        else:
            message = _("The file is not valid JSON (line %(line)s, column %(col)s): %(why)s.") % {
                "line": exc.lineno,
                "col": exc.colno,
                "why": json_error_reason(exc.msg),
            }
        raise Refused([PlacedProblem(code=FileCode.JSON, message=message)]) from exc
    except ValueError as exc:  # an integer of thousands of digits
        message = _("The file holds a number far larger than any in a tournament.")
        raise Refused([PlacedProblem(code=FileCode.LIMIT, message=message)]) from exc


def json_error_reason(msg: str) -> str:
    """What the ``json`` module's (English) message means, in the active language."""
    if msg == "Expecting value":
        return _("a value is expected there (a comma too many, or text that is not JSON?)")
    if msg.startswith("Expecting property name"):
        return _("a field name in double quotes is expected there (a comma too many?)")
    if msg == "Expecting ',' delimiter":
        return _("a comma is missing there")
    if msg == "Expecting ':' delimiter":
        return _("a colon is missing after the field name")
    if msg == "Extra data":
        return _("there is more after the end of the JSON")
    if msg.startswith("Unterminated string"):
        return _("a text has no closing double quote")
    if msg.startswith("Invalid control character"):
        return _("a text holds a line break or a tab")
    if msg.startswith("Invalid \\u") or msg.startswith("Invalid \\escape"):
        return _("a backslash in a text is not followed by what JSON allows")
    return _("the JSON is broken there")


def _player_label(item: Any, index: int) -> str:
    """How a problem names the player at ``players/<index>``: by its id, else (the id missing
    or wrong) by its name, else by its place in the list (counted from 1, as rounds are)."""
    fields = item if isinstance(item, dict) else {}
    for key in ("id", "name"):
        value = fields.get(key)
        if isinstance(value, str) and value.strip():
            return value[:64]
    return str(index + 1)


def _schema_place(document: Any, path: list[Any]) -> Place:
    """Turn a JSON path like rounds/0/tables/2/deals/3 into round, table, deal numbers."""
    place: Place = {}
    node = document
    # A problem of the whole file (a key missing at the top) has an empty path.
    for key, nxt in zip(path, [*path[1:], None][: len(path)], strict=True):
        if isinstance(node, dict):
            node = node.get(key)
        elif isinstance(node, list) and isinstance(key, int) and key < len(node):
            node = node[key]
        else:
            node = None
        if isinstance(nxt, int) and isinstance(node, list):
            item = node[nxt] if nxt < len(node) else None
            number = item.get("number") if isinstance(item, dict) else None
            if key == "rounds":
                place["round"] = number if isinstance(number, int) else nxt + 1
            elif key == "tables":
                place["table"] = number if isinstance(number, int) else nxt + 1
            elif key == "deals":
                place["deal"] = nxt + 1
            elif key == "players":
                place["player"] = _player_label(item, nxt)
    return place


def _check_schema(document: Any) -> list[PlacedProblem]:
    try:
        _fast_validator()(document)
    except fastjsonschema.JsonSchemaException:
        pass
    else:
        return []
    return schema_problems(
        _validator().iter_errors(document),
        code=FileCode.SCHEMA,
        place_of=lambda path: _schema_place(document, path),
    )


def _check_settings(settings: dict[str, Any]) -> list[PlacedProblem]:
    problems = []

    def bad(message: str) -> None:
        problems.append(PlacedProblem(code=FileCode.SETTING, message=message, field="settings"))

    prefer = settings.get("prefer_size")
    if prefer is not None and (not isinstance(prefer, int) or not 3 <= prefer <= 6):
        bad(_("settings.prefer_size must be a table size from 3 to 6."))
    planned = settings.get("rounds_planned")
    if planned is not None and (not isinstance(planned, int) or not 1 <= planned <= 50):
        bad(_("settings.rounds_planned must be a whole number from 1 to 50."))
    tiebreaks = settings.get("tiebreaks")
    if tiebreaks is not None:
        valid = {str(t) for t in TieBreak}
        if (
            not isinstance(tiebreaks, list)
            or not tiebreaks
            or len(set(map(str, tiebreaks))) != len(tiebreaks)
            or not all(isinstance(t, str) and t in valid for t in tiebreaks)
        ):
            bad(
                _("settings.tiebreaks must list some of: %s, each once.") % ", ".join(sorted(valid))
            )
    language = settings.get("language")
    if language is not None and language not in ("nl", "en"):
        bad(_("settings.language must be nl or en."))
    rule = settings.get("confirmation_rule")
    if rule is not None and rule not in CONFIRMATION_RULES:
        bad(_("settings.confirmation_rule must be one of: %s.") % ", ".join(CONFIRMATION_RULES))
    count = settings.get("count_unconfirmed")
    if count is not None and not isinstance(count, bool):
        bad(_("settings.count_unconfirmed must be true or false."))
    balance = settings.get("seating_balance")
    if balance is not None and balance not in Tournament.SeatingBalance.values:
        bad(
            _("settings.seating_balance must be one of: %s.")
            % ", ".join(Tournament.SeatingBalance.values)
        )
    clubs_apart = settings.get("clubs_apart_first_round")
    if clubs_apart is not None and not isinstance(clubs_apart, bool):
        bad(_("settings.clubs_apart_first_round must be true or false."))
    places = settings.get("prize_places")
    if places is not None and (
        not isinstance(places, int) or isinstance(places, bool) or not 0 <= places <= PRIZE_MAX
    ):
        bad(_("settings.prize_places must be a whole number from 0 to %s.") % PRIZE_MAX)
    last_place = settings.get("prize_last_place")
    if last_place is not None and not isinstance(last_place, bool):
        bad(_("settings.prize_last_place must be true or false."))
    apart = settings.get("apart")
    if apart is not None and (
        not isinstance(apart, list)
        or not all(
            isinstance(pair, list) and len(pair) == 2 and all(isinstance(p, str) for p in pair)
            for pair in apart
        )
    ):
        bad(_("settings.apart must be a list of pairs of player ids."))
    for key in ("withdrawn", "joined"):
        value = settings.get(key)
        if value is not None and (
            not isinstance(value, dict)
            or not all(isinstance(v, int) and v >= 1 for v in value.values())
        ):
            bad(_("settings.%s must map player ids to round numbers.") % key)
    return problems


def _check_apart_pairs(apart: Any, names: dict[str, str]) -> list[PlacedProblem]:
    """The pairs kept apart name players of the file, two different ones each."""
    if not isinstance(apart, list) or not all(
        isinstance(pair, list) and len(pair) == 2 and all(isinstance(p, str) for p in pair)
        for pair in apart
    ):
        return []  # absent, or wrongly shaped: _check_settings says so
    problems = []
    for a, b in apart:
        unknown = [pid for pid in (a, b) if pid not in names]
        for pid in unknown:
            problems.append(
                PlacedProblem(
                    code=FileCode.UNKNOWN_PLAYER,
                    message=_("settings.%(key)s names an unknown player id %(id)s.")
                    % {"key": "apart", "id": pid},
                    field="settings",
                )
            )
        if not unknown and a == b:
            problems.append(
                PlacedProblem(
                    code=FileCode.SETTING,
                    message=_("settings.apart keeps %(name)s apart from themselves.")
                    % {"name": names[a]},
                    field="settings",
                )
            )
    return problems


def tournament_file_check(document: Any) -> None:
    """Raise ``Refused`` with every problem of the file; return quietly if it is valid."""
    problems = file_limits_check(document) or _check_schema(document)
    if problems:
        raise Refused(problems)
    problems = _check_settings(document.get("settings", {}))
    problems += file_consistency_check(document)

    names = {}
    for player, count in Counter(p["id"] for p in document["players"]).items():
        if count > 1:
            problems.append(
                PlacedProblem(
                    code=FileCode.PLAYER_ID_TWICE,
                    message=_("The player id %(id)s is used %(count)s times.")
                    % {"id": player, "count": count},
                )
            )
    for player in document["players"]:
        names[player["id"]] = f"{player['name']} ({player['id']})"
    for key in ("withdrawn", "joined"):
        for player_id in document.get("settings", {}).get(key) or {}:
            if player_id not in names:
                problems.append(
                    PlacedProblem(
                        code=FileCode.UNKNOWN_PLAYER,
                        message=_("settings.%(key)s names an unknown player id %(id)s.")
                        % {"key": key, "id": player_id},
                    )
                )

    problems += _check_apart_pairs(document.get("settings", {}).get("apart"), names)

    for number, count in Counter(r["number"] for r in document["rounds"]).items():
        if count > 1:
            problems.append(
                PlacedProblem(
                    code=FileCode.ROUND_TWICE,
                    message=_("This round number appears %(count)s times.") % {"count": count},
                    round=number,
                )
            )
    for round_ in document["rounds"]:
        problems.extend(_check_round(round_, names))
    problems.extend(site_check(document))
    if problems:
        raise Refused(problems)


def _check_round(round_: dict[str, Any], names: dict[str, str]) -> list[PlacedProblem]:
    problems = []
    number = round_["number"]
    for table_no, count in Counter(t["number"] for t in round_["tables"]).items():
        if count > 1:
            problems.append(
                PlacedProblem(
                    code=FileCode.TABLE_TWICE,
                    message=_("This table number appears %(count)s times in the round.")
                    % {"count": count},
                    round=number,
                    table=table_no,
                )
            )
    seen: dict[str, int] = {}
    for table in round_["tables"]:
        for player_id in table["seats"]:
            if player_id not in names:
                problems.append(
                    PlacedProblem(
                        code=FileCode.UNKNOWN_PLAYER,
                        message=_("The seat names an unknown player id %(id)s.")
                        % {"id": player_id},
                        round=number,
                        table=table["number"],
                    )
                )
            elif player_id in seen:
                problems.append(
                    PlacedProblem(
                        code=FileCode.PLAYER_TWICE_IN_ROUND,
                        message=_("This player already sits at table %(table)s in this round.")
                        % {"table": seen[player_id]},
                        round=number,
                        table=table["number"],
                        player=names[player_id],
                    )
                )
            else:
                seen[player_id] = table["number"]
        problems.extend(_check_table(number, table, names))
    return problems


def file_table_sheet(table: dict[str, Any]) -> Sheet:
    """The ``scoring`` sheet of a table of the file (tricks ``[]`` = deal still being played)."""
    seats = table["seats"]
    deals = []
    for deal in table.get("deals", []):
        tricks = deal["tricks"] or [None] * len(deal["bids"])
        deals.append(DealEntry(bids=tuple(deal["bids"]), tricks=tuple(tricks)))
    penalties = []
    for penalty in table.get("penalties", []):
        if penalty["player"] in seats:
            penalties.append(Penalty(seat=seats.index(penalty["player"]), deal=penalty["deal"]))
    return Sheet(n_seats=len(seats), deals=tuple(deals), penalties=tuple(penalties))


def _check_table(
    round_no: int, table: dict[str, Any], names: dict[str, str]
) -> list[PlacedProblem]:
    problems = []
    table_no = table["number"]
    seats = table["seats"]
    players = tuple(names.get(player_id, player_id) for player_id in seats)
    for index, deal in enumerate(table.get("deals", []), start=1):
        if not deal["bids"]:
            problems.append(
                PlacedProblem(
                    code=FileCode.NO_BIDS,
                    message=_("The deal has no bids; leave it out until the bidding is done."),
                    round=round_no,
                    table=table_no,
                    deal=index,
                )
            )
    for penalty in table.get("penalties", []):
        if penalty["player"] not in seats:
            problems.append(
                PlacedProblem(
                    code=FileCode.PENALTY_PLAYER,
                    message=_("A penalty bol for %(id)s, who does not sit at this table.")
                    % {"id": names.get(penalty["player"], penalty["player"])},
                    round=round_no,
                    table=table_no,
                    deal=penalty["deal"],
                )
            )
    if problems:
        return problems
    try:
        rule_problems = check_sheet(file_table_sheet(table))
    except ScoringError as exc:
        rule_problems = list(exc.problems)
    return [
        place_rule_problem(p, round=round_no, table=table_no, players=players)
        for p in rule_problems
    ]
