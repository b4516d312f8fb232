"""A JSON Schema problem of an uploaded file in the visitor's language.

jsonschema words its problems in English ("'name' is a required property"); the import page
speaks Dutch. Each problem is worded here from the keyword that failed and its values, in a
sentence a director can act on; a keyword this module does not know keeps jsonschema's text.
Each problem is told once: the fields missing from one place in one sentence (jsonschema
reports each missing field apart), and one problem at several places (every player without a
name) once, with those places (:func:`schema_problems`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from typing import Any, cast

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from jsonschema.exceptions import ValidationError

from tournament.errors import Place, PlacedProblem

TYPE_NAMES = {
    "string": gettext_lazy("a text"),
    "integer": gettext_lazy("a whole number"),
    "number": gettext_lazy("a number"),
    "boolean": gettext_lazy("true or false"),
    "array": gettext_lazy("a list"),
    "object": gettext_lazy("an object with fields"),
    "null": gettext_lazy("empty (null)"),
}
FORMAT_NAMES = {"date": gettext_lazy("a date (YYYY-MM-DD)")}
SHOWN = 60  # characters of a value shown in a message
SHOWN_PLACES = 5  # places in the file named for a problem found at many


def schema_problems(
    errors: Iterable[ValidationError],
    *,
    code: str,
    place_of: Callable[[list[Any]], Place],
    base: Sequence[str] = (),
) -> list[PlacedProblem]:
    """The problems of ``errors`` in the active language, each once, in the order of the file.

    A problem at one place says its path in the file (``players/3``); the same problem at
    several places is one problem that counts them and names the first few paths, and keeps
    the round, table or deal they share. ``place_of`` gives the round, table, deal and player
    of a path; ``base`` is where in the file the checked document sits (``settings/x-site``).
    """
    found: dict[str, dict[str, Place]] = {}
    for error in sorted(errors, key=_path_order):
        path = list(error.absolute_path)
        where = "/".join([*base, *map(str, path)]) or _("the file")
        found.setdefault(schema_message(error), {}).setdefault(where, place_of(path))
    problems = []
    for message, places in found.items():
        if len(places) == 1:
            ((where, place),) = places.items()
            text = f"{where}: {message}"
            if where == _("the file"):  # the sentence starts the line
                text = text[:1].upper() + text[1:]
            problems.append(PlacedProblem(code=code, message=text, **place))
            continue
        first, *others = places.values()
        shared = cast(
            Place,
            {
                key: value
                for key, value in first.items()
                if all(other.get(key) == value for other in others)
            },
        )
        paths = ", ".join(list(places)[:SHOWN_PLACES])
        if len(places) > SHOWN_PLACES:
            more = len(places) - SHOWN_PLACES
            paths = ngettext(
                "%(places)s and %(count)s more", "%(places)s and %(count)s more", more
            ) % {"places": paths, "count": more}
        text = ngettext(
            "%(problem)s, in %(count)s place: %(places)s",
            "%(problem)s, in %(count)s places: %(places)s",
            len(places),
        ) % {"problem": message, "count": len(places), "places": paths}
        if not shared:  # the sentence starts the line
            text = text[:1].upper() + text[1:]
        problems.append(PlacedProblem(code=code, message=text, **shared))
    return problems


def _path_order(error: ValidationError) -> list[tuple[int, int, str]]:
    """The order of the file: players/2 before players/10."""
    path = error.absolute_path
    return [(0, key, "") if isinstance(key, int) else (1, 0, str(key)) for key in path]


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= SHOWN else text[: SHOWN - 1] + "…"


def _types(value: Any) -> str:
    names = [str(TYPE_NAMES.get(v, v)) for v in (value if isinstance(value, list) else [value])]
    return _(" or ").join(names)


def schema_message(error: ValidationError) -> str:
    """The problem ``error`` in the active language, without its place (the caller adds it)."""
    keyword: Any = error.validator
    expected: Any = error.validator_value
    instance: Any = error.instance
    schema: Any = error.schema
    limit = {"limit": expected}
    count = expected if isinstance(expected, int) else 2
    if keyword == "required" and isinstance(instance, dict):
        # Every missing field of the place (jsonschema makes one error of each, all worded
        # alike here: schema_problems tells them once).
        missing = [name for name in expected if name not in instance]
        return ngettext(
            "the field %(name)s is missing", "the fields %(name)s are missing", len(missing)
        ) % {"name": ", ".join(missing)}
    if keyword == "additionalProperties" and isinstance(instance, dict):
        known = set(schema.get("properties", {}) if isinstance(schema, dict) else ())
        extra = sorted(name for name in instance if name not in known)
        return ngettext(
            "unknown field %(name)s (a spelling mistake?)",
            "unknown fields %(name)s (spelling mistakes?)",
            len(extra),
        ) % {"name": ", ".join(extra)}
    if keyword == "type":
        return _("must be %(type)s, not %(value)s") % {
            "type": _types(expected),
            "value": _shown(instance),
        }
    if keyword == "enum":
        return _("must be one of %(choices)s, not %(value)s") % {
            "choices": ", ".join(_shown(v) for v in expected),
            "value": _shown(instance),
        }
    if keyword == "const":
        return _("must be %(expected)s, not %(value)s") % {
            "expected": _shown(expected),
            "value": _shown(instance),
        }
    if keyword in ("minimum", "exclusiveMinimum"):
        message = _("must be at least %(limit)s, not %(value)s")
        if keyword == "exclusiveMinimum":
            message = _("must be more than %(limit)s, not %(value)s")
        return message % {"limit": expected, "value": _shown(instance)}
    if keyword in ("maximum", "exclusiveMaximum"):
        message = _("must be at most %(limit)s, not %(value)s")
        if keyword == "exclusiveMaximum":
            message = _("must be less than %(limit)s, not %(value)s")
        return message % {"limit": expected, "value": _shown(instance)}
    if keyword == "minLength":
        return (
            ngettext(
                "must have at least %(limit)s character",
                "must have at least %(limit)s characters",
                count,
            )
            % limit
        )
    if keyword == "maxLength":
        return (
            ngettext(
                "may have at most %(limit)s character",
                "may have at most %(limit)s characters",
                count,
            )
            % limit
        )
    if keyword == "minItems":
        return (
            ngettext(
                "must have at least %(limit)s item", "must have at least %(limit)s items", count
            )
            % limit
        )
    if keyword == "maxItems":
        return (
            ngettext("may have at most %(limit)s item", "may have at most %(limit)s items", count)
            % limit
        )
    if keyword == "uniqueItems":
        return _("holds the same value twice")
    if keyword == "pattern":
        return _("%(value)s does not have the form this field needs") % {"value": _shown(instance)}
    if keyword == "format":
        return _("%(value)s is not %(format)s") % {
            "value": _shown(instance),
            "format": FORMAT_NAMES.get(expected, expected),
        }
    if keyword in ("oneOf", "anyOf"):
        return _("%(value)s fits none of the forms allowed here") % {"value": _shown(instance)}
    if keyword == "minProperties":
        return (
            ngettext(
                "must have at least %(limit)s field", "must have at least %(limit)s fields", count
            )
            % limit
        )
    if keyword == "maxProperties":
        return (
            ngettext("may have at most %(limit)s field", "may have at most %(limit)s fields", count)
            % limit
        )
    return error.message
