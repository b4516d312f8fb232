"""The bounds of a tournament file, checked before its shape and its rules: sizes a real event
never reaches, numbers the database can hold, text people can read, and settings and rounds
that agree with each other.

The same bounds hold on SQLite and PostgreSQL: what one database would refuse with an error
(a round number over 32767, an integer over 2^31, a NUL character) is refused here first, as a
problem with its place, on both.
"""

from __future__ import annotations

import datetime
import math
from typing import Any, TypeGuard

from django.utils.translation import gettext as _

from tournament.errors import FileCode, PlacedProblem
from tournament.text import HIDDEN_CHARACTER, text_hidden_character, text_normalised

PLAYERS_MAX = 2000
ROUNDS_MAX = 100
TABLES_MAX = PLAYERS_MAX // 3 + 1
PENALTIES_MAX = 66  # one per player per deal at a table of 6
DEPTH_MAX = 32  # the file's own nesting is 9 deep; its site record a few more
INTEGER_MAX = 2**31 - 1  # the database's integer
PLACE_MAX = 200
# The settings the site stores in a field that cannot be empty: present means a value.
SETTINGS_NOT_NULL = (
    "place",
    "table_sizes",
    "prefer_size",
    "rounds_planned",
    "tiebreaks",
    "language",
    "public",
    "confirmation_rule",
    "count_unconfirmed",
    "seating_balance",
    "clubs_apart_first_round",
    "prize_places",
    "prize_last_place",
    "apart",
)
PRIZE_MAX = 1000  # places a tournament announces at most


def _problem(code: FileCode, message: str, **place: Any) -> PlacedProblem:
    return PlacedProblem(code=code, message=message, **place)


def _limit(message: str, **place: Any) -> PlacedProblem:
    return _problem(FileCode.LIMIT, message, **place)


def file_limits_check(document: Any) -> list[PlacedProblem]:
    """Problems of a file's size and values that must be refused before anything else reads
    it: too many players, rounds or tables, nesting too deep, numbers the database cannot hold,
    invisible characters. The counts come first, so a huge file is refused without a walk."""
    if not isinstance(document, dict):
        return []  # the schema says what it should be
    problems = []
    players, rounds = document.get("players"), document.get("rounds")
    if isinstance(players, list) and len(players) > PLAYERS_MAX:
        problems.append(
            _limit(
                _("The file has %(count)s players; at most %(max)s are allowed.")
                % {"count": len(players), "max": PLAYERS_MAX}
            )
        )
    if isinstance(rounds, list) and len(rounds) > ROUNDS_MAX:
        problems.append(
            _limit(
                _("The file has %(count)s rounds; at most %(max)s are allowed.")
                % {"count": len(rounds), "max": ROUNDS_MAX}
            )
        )
    for index, round_ in enumerate(rounds if isinstance(rounds, list) else []):
        tables = round_.get("tables") if isinstance(round_, dict) else None
        if isinstance(tables, list) and len(tables) > TABLES_MAX:
            problems.append(
                _limit(
                    _("The round has %(count)s tables; at most %(max)s are allowed.")
                    % {"count": len(tables), "max": TABLES_MAX},
                    round=index + 1,
                )
            )
    if problems:
        return problems
    problems += _walk(document)
    if problems:
        return problems
    return _check_values(document)


def _walk(document: Any) -> list[PlacedProblem]:
    """Every value of the file: no deeper than ``DEPTH_MAX``, integers the database holds, no
    NUL in any text (PostgreSQL stores none, not even inside a JSON field)."""
    stack: list[tuple[Any, int]] = [(document, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > DEPTH_MAX:
            return [_limit(_("The file is nested more than %(max)s deep.") % {"max": DEPTH_MAX})]
        if isinstance(node, dict):
            for key, value in node.items():
                if "\x00" in str(key):
                    return [_text_problem()]
                stack.append((value, depth + 1))
        elif isinstance(node, list):
            stack.extend((value, depth + 1) for value in node)
        elif isinstance(node, bool):
            continue
        elif isinstance(node, int) and not -INTEGER_MAX <= node <= INTEGER_MAX:
            return [
                _limit(
                    _("The file holds the number %(number)s…, larger than any in a tournament.")
                    % {"number": str(node)[:12]}
                )
            ]
        elif isinstance(node, float) and not math.isfinite(node):
            return [_limit(_("The file holds a number that is not a number."))]
        elif isinstance(node, float) and not -INTEGER_MAX <= node <= INTEGER_MAX:
            # The schema takes 9.2e18 for an integer (it has no fraction).
            return [
                _limit(
                    _("The file holds the number %(number)s…, larger than any in a tournament.")
                    % {"number": str(node)[:12]}
                )
            ]
        elif isinstance(node, str) and "\x00" in node:
            return [_text_problem()]
    return []


def _text_problem(**place: Any) -> PlacedProblem:
    return _problem(FileCode.TEXT, str(HIDDEN_CHARACTER), **place)


def _items(value: Any) -> list[Any]:
    """A list of the file as it is, anything else as no items (the schema names it)."""
    return value if isinstance(value, list) else []


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_values(document: dict[str, Any]) -> list[PlacedProblem]:
    """The values the site stores in small fields: dates, round and table numbers, texts."""
    problems = []
    date = document.get("date")
    if isinstance(date, str):
        try:
            datetime.date.fromisoformat(date)
            valid = True
        except ValueError:  # year 0, 30 February: no database holds it
            valid = False
        if not valid:
            problems.append(
                _limit(
                    _("The date %(date)s is not a date of a tournament.") % {"date": date[:20]},
                    field="date",
                )
            )
    settings = document.get("settings")
    settings = settings if isinstance(settings, dict) else {}
    texts = [
        (document.get("name"), {"field": "name"}),
        (settings.get("place"), {"field": "settings.place"}),
    ]
    for key in SETTINGS_NOT_NULL:
        if key in settings and settings[key] is None:
            problems.append(
                _problem(
                    FileCode.SETTING,
                    _("settings.%(key)s is null; leave it out or give a value.") % {"key": key},
                    field="settings",
                )
            )
    place = settings.get("place")
    if place is not None and not isinstance(place, str):
        problems.append(
            _problem(FileCode.SETTING, _("settings.place must be text."), field="settings.place")
        )
    if isinstance(place, str) and len(place) > PLACE_MAX:
        problems.append(
            _limit(
                _("settings.place is longer than %(max)s characters.") % {"max": PLACE_MAX},
                field="settings.place",
            )
        )
    for player in _items(document.get("players")):
        if isinstance(player, dict):
            label = {"player": str(player.get("id"))[:64]}
            texts += [(player.get("name"), label), (player.get("club"), label)]
    for text, where in texts:
        if isinstance(text, str) and text_hidden_character(text) is not None:
            problems.append(_text_problem(**where))
    for player in _items(document.get("players")):
        name = player.get("name") if isinstance(player, dict) else None
        if isinstance(name, str) and name and not text_normalised(name):
            problems.append(
                _problem(
                    FileCode.TEXT,
                    _("A player's name is only spaces."),
                    player=str(player.get("id"))[:64],
                )
            )
    for key in ("withdrawn", "joined"):
        value = settings.get(key)
        if isinstance(value, dict) and any(
            _is_int(n) and not 1 <= n <= ROUNDS_MAX for n in value.values()
        ):
            problems.append(
                _limit(
                    _("settings.%(key)s names a round over %(max)s.")
                    % {"key": key, "max": ROUNDS_MAX},
                    field="settings",
                )
            )
    for round_ in _items(document.get("rounds")):
        if not isinstance(round_, dict):
            continue
        number = round_.get("number")
        if _is_int(number) and not 1 <= number <= ROUNDS_MAX:
            problems.append(
                _limit(
                    _("Round number %(number)s: rounds are numbered 1 to %(max)s.")
                    % {"number": number, "max": ROUNDS_MAX}
                )
            )
            continue
        for table in _items(round_.get("tables")):
            if not isinstance(table, dict):
                continue
            table_no = table.get("number")
            if _is_int(table_no) and not 1 <= table_no <= TABLES_MAX:
                problems.append(
                    _limit(
                        _("Table number %(number)s: tables are numbered 1 to %(max)s.")
                        % {"number": table_no, "max": TABLES_MAX},
                        round=number,
                    )
                )
            penalties = table.get("penalties")
            if isinstance(penalties, list) and len(penalties) > PENALTIES_MAX:
                problems.append(
                    _limit(
                        _("The table has %(count)s penalty bollen; at most %(max)s are allowed.")
                        % {"count": len(penalties), "max": PENALTIES_MAX},
                        round=number,
                        table=table_no,
                    )
                )
    return problems


def file_consistency_check(document: dict[str, Any]) -> list[PlacedProblem]:
    """Settings and rounds that agree: the preferred size is an allowed size, and the rounds
    are numbered 1, 2, 3… without a gap. ``document`` has passed the schema."""
    problems = []
    settings = document.get("settings", {})
    sizes = settings.get("table_sizes")
    prefer = settings.get("prefer_size")
    if isinstance(sizes, list) and _is_int(prefer) and prefer not in sizes:
        problems.append(
            _problem(
                FileCode.SETTING,
                _("settings.prefer_size %(size)s is not one of settings.table_sizes.")
                % {"size": prefer},
                field="settings",
            )
        )
    numbers = sorted(r["number"] for r in document["rounds"])
    if len(set(numbers)) == len(numbers) and numbers != list(range(1, len(numbers) + 1)):
        problems.append(
            _problem(
                FileCode.ROUND_NUMBERS,
                _("The rounds are numbered %(numbers)s; they must be numbered 1 to %(count)s.")
                % {"numbers": ", ".join(map(str, numbers[:20])), "count": len(numbers)},
            )
        )
    return problems
