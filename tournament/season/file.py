"""The portable competition file (``docs/competition-file.md``): a competition's settings, the
member register and every evening as a v1 tournament document, in one JSON document.

Export writes each evening with ``tournament_file.exporting.tournament_export`` and adds which
of its players is which member. Import checks the whole file first (its own shape, then every
evening with ``tournament_file.reading.tournament_file_check``), then stores it in one
transaction with ``tournament_file.importing.tournament_restore`` per evening: a refused file
leaves nothing behind, and every problem is listed with the evening (or member) it concerns.

This module holds the file's shape and its check (``competition_file_check``);
``file_export`` writes the file and ``file_import`` stores a checked one.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any, TypeGuard

from django.db import models
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournament.errors import FileCode, PlacedProblem, Refused
from tournament.text import HIDDEN_CHARACTER, text_hidden_character
from tournament.tournament_file.reading import tournament_file_check

FORMAT = "bollen-competition"
VERSION = 1
MAX_EVENINGS = 200
MAX_MEMBERS = 20_000
MAX_TEXT = 200
SLUG = re.compile(r"^[-a-zA-Z0-9_]{1,80}$")


class SeasonFileRefusal(models.TextChoices):
    TOO_LARGE = (
        "competition_file_too_large",
        gettext_lazy("The file is too large to be imported on this site."),
    )
    MEMBER_TWICE = (
        "member_twice_in_evening",
        gettext_lazy(
            "Two members of the file are one member of the register, and both played this evening."
        ),
    )


class _Problems:
    def __init__(self) -> None:
        self.items: list[PlacedProblem] = []

    def add(self, message: str, *, where: str | None = None, code: str = FileCode.SCHEMA) -> None:
        self.items.append(PlacedProblem(code=str(code), message=message, field=where))


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _text(value: Any, *, empty: bool = True, limit: int = MAX_TEXT) -> bool:
    return (
        isinstance(value, str) and (empty or bool(value.strip())) and len(value) <= limit
    ) and "\x00" not in value


def _hidden(value: Any) -> bool:
    """A text with a character no name may hold (a control character, a right-to-left
    override): the pages refuse it, so a file may not bring it in either."""
    return isinstance(value, str) and text_hidden_character(value) is not None


def file_evening_label(index: int, item: Any) -> str:
    number = item.get("number") if isinstance(item, dict) else None
    number = number if _is_int(number) else index + 1
    tournament = item.get("tournament") if isinstance(item, dict) else None
    name = tournament.get("name") if isinstance(tournament, dict) else None
    if isinstance(name, str) and name.strip():
        return _("evening %(number)s (%(name)s)") % {"number": number, "name": name[:80]}
    return _("evening %(number)s") % {"number": number}


def _check_settings(settings: Any, problems: _Problems) -> None:
    where = _("settings")
    if not isinstance(settings, dict):
        problems.add(_("The settings must be an object."), where=where)
        return
    unknown = sorted(str(k) for k in settings if k not in _SETTING_KEYS)
    if unknown:
        problems.add(_("Unknown settings: %(keys)s.") % {"keys": ", ".join(unknown)}, where=where)
    best = settings.get("best")
    if best is not None and not (_is_int(best) and 1 <= best <= MAX_EVENINGS):
        problems.add(_("best must be empty (all evenings) or a whole number from 1."), where=where)
    minimum = settings.get("min_evenings", 0)
    if not (_is_int(minimum) and 0 <= minimum <= MAX_EVENINGS):
        problems.add(_("min_evenings must be a whole number from 0."), where=where)
    if settings.get("ranking", "best") not in ("best", "average"):
        problems.add(_("ranking must be best or average."), where=where)
    for key in ("public", "season_seating"):
        if not isinstance(settings.get(key, False), bool):
            problems.add(_("%(key)s must be true or false.") % {"key": key}, where=where)
    directors = settings.get("directors", [])
    if not (isinstance(directors, list) and all(_text(d, empty=False) for d in directors)):
        problems.add(_("directors must be a list of usernames."), where=where)


_SETTING_KEYS = {"best", "min_evenings", "ranking", "public", "season_seating", "directors"}
_MEMBER_KEYS = {"id", "name", "club", "number", "active", "guest"}
_EVENING_KEYS = {"number", "members", "questions", "tournament"}


def _check_members(members: Any, problems: _Problems) -> dict[str, dict[str, Any]]:
    """The file's members by id (the well-formed ones), problems for the others."""
    if not isinstance(members, list) or len(members) > MAX_MEMBERS:
        problems.add(
            _("members must be a list of at most %(max)s members.") % {"max": MAX_MEMBERS},
            where=_("members"),
        )
        return {}
    by_id: dict[str, dict[str, Any]] = {}
    numbers: Counter[str] = Counter()
    for n, member in enumerate(members, 1):
        where = _("member %(number)s") % {"number": n}
        if not isinstance(member, dict):
            problems.add(_("A member must be an object."), where=where)
            continue
        if isinstance(member.get("name"), str):
            where = f"{where} ({member['name'][:80]})"
        unknown = sorted(str(k) for k in member if k not in _MEMBER_KEYS)
        bad = []
        if unknown:
            bad.append(_("unknown keys %(keys)s") % {"keys": ", ".join(unknown)})
        if not _text(member.get("id"), empty=False, limit=64):
            bad.append(_("id must be a text of 1 to 64 characters"))
        if not _text(member.get("name"), empty=False):
            bad.append(_("name must be a text of 1 to 200 characters"))
        if not _text(member.get("club", "")):
            bad.append(_("club must be a text of at most 200 characters"))
        if not _text(member.get("number", ""), limit=40):
            bad.append(_("number must be a text of at most 40 characters"))
        if not isinstance(member.get("active", True), bool):
            bad.append(_("active must be true or false"))
        if not isinstance(member.get("guest", False), bool):
            bad.append(_("guest must be true or false"))
        for key in ("name", "club", "number"):
            if _hidden(member.get(key)):
                bad.append(f"{key}: {HIDDEN_CHARACTER}")
        if bad:
            problems.add("; ".join(bad) + ".", where=where)
            if _text(member.get("id"), empty=False, limit=64):
                by_id.setdefault(member["id"], member)  # known, so evenings may name it
            continue
        if member["id"] in by_id:
            problems.add(
                _("The member id %(id)s is used twice.") % {"id": member["id"]}, where=where
            )
            continue
        by_id[member["id"]] = member
        if member.get("number", "").strip():
            numbers[member["number"].strip()] += 1
    for number, count in numbers.items():
        if count > 1:
            problems.add(
                _("The member number %(number)s is given to %(count)s members.")
                % {"number": number, "count": count},
                where=_("members"),
            )
    return by_id


def _check_links(
    item: dict[str, Any],
    key: str,
    player_ids: set[str],
    member_ids: set[str],
    where: str,
    problems: _Problems,
) -> None:
    links = item.get(key, {})
    if not isinstance(links, dict):
        problems.add(_("%(key)s must be an object.") % {"key": key}, where=where)
        return
    for player, value in links.items():
        targets = value if key == "questions" else [value]
        if player not in player_ids:
            problems.add(
                _("%(key)s names the player id %(id)s, who is not in this evening.")
                % {"key": key, "id": str(player)[:64]},
                where=where,
            )
        if key == "questions" and not (isinstance(value, list) and value):
            problems.add(_("questions must list member ids."), where=where)
            continue
        for target in targets:
            if not isinstance(target, str) or target not in member_ids:
                problems.add(
                    _("%(key)s names %(id)s, which is not a member of the file.")
                    % {"key": key, "id": str(target)[:64]},
                    where=where,
                )
    if key == "members":
        for member, count in Counter(v for v in links.values() if isinstance(v, str)).items():
            if count > 1:
                problems.add(
                    _("The member %(id)s is %(count)s players of this evening.")
                    % {"id": member, "count": count},
                    where=where,
                )


def competition_file_check(document: Any) -> None:
    """Raise ``Refused`` with every problem of the competition file; quiet if it is valid."""
    problems = _Problems()
    if not isinstance(document, dict):
        problems.add(_("A competition file is a JSON object."), where=_("the file"))
        raise Refused(problems.items)
    if document.get("format") != FORMAT:
        problems.add(
            _("This is not a competition file: format must be %(format)s.") % {"format": FORMAT},
            where=_("the file"),
        )
        raise Refused(problems.items)
    if document.get("version") != VERSION:
        problems.add(
            _("This site reads version %(version)s of the competition file, not %(other)s.")
            % {"version": VERSION, "other": str(document.get("version"))[:20]},
            where=_("the file"),
        )
        raise Refused(problems.items)
    unknown = sorted(
        str(k)
        for k in document
        if k not in {"format", "version", "name", "season", "slug", "settings", "members"}
        and k != "evenings"
    )
    if unknown:
        problems.add(
            _("Unknown keys: %(keys)s.") % {"keys": ", ".join(unknown)}, where=_("the file")
        )
    if not _text(document.get("name"), empty=False):
        problems.add(_("name must be a text of 1 to 200 characters."), where=_("the file"))
    if not _text(document.get("season", ""), limit=80):
        problems.add(_("season must be a text of at most 80 characters."), where=_("the file"))
    for key in ("name", "season"):
        if _hidden(document.get(key)):
            problems.add(f"{key}: {HIDDEN_CHARACTER}", where=_("the file"))
    slug = document.get("slug")
    if slug is not None and not (isinstance(slug, str) and SLUG.match(slug)):
        problems.add(_("slug must be letters, digits, - and _ (at most 80)."), where=_("the file"))
    _check_settings(document.get("settings", {}), problems)
    members = _check_members(document.get("members", []), problems)

    evenings = document.get("evenings")
    if not isinstance(evenings, list) or len(evenings) > MAX_EVENINGS:
        problems.add(
            _("evenings must be a list of at most %(max)s evenings.") % {"max": MAX_EVENINGS},
            where=_("the file"),
        )
        raise Refused(problems.items)
    numbers: Counter[int] = Counter()
    for index, item in enumerate(evenings):
        where = file_evening_label(index, item)
        if not isinstance(item, dict):
            problems.add(_("An evening must be an object."), where=where)
            continue
        unknown = sorted(str(k) for k in item if k not in _EVENING_KEYS)
        if unknown:
            problems.add(_("Unknown keys: %(keys)s.") % {"keys": ", ".join(unknown)}, where=where)
        number = item.get("number")
        if not (_is_int(number) and 1 <= number <= 10_000):
            problems.add(_("number must be a whole number from 1."), where=where)
        else:
            numbers[number] += 1
        tournament = item.get("tournament")
        if not isinstance(tournament, dict):
            # (the v1 check cannot place a problem of a document that is not an object)
            problems.add(_("tournament must be a v1 tournament document."), where=where)
            continue
        try:
            tournament_file_check(tournament)
        except Refused as refused:
            for line in refused.lines():
                problems.items.append(PlacedProblem(code=refused.code, message=line, field=where))
            continue
        player_ids = {p["id"] for p in tournament["players"]}
        for key in ("members", "questions"):
            _check_links(item, key, player_ids, set(members), where, problems)
    for number, count in numbers.items():
        if count > 1:
            problems.add(
                _("The evening number %(number)s appears %(count)s times.")
                % {"number": number, "count": count},
                where=_("evenings"),
            )
    if problems.items:
        raise Refused(problems.items, total=len(problems.items))
