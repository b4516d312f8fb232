"""A JSON Schema problem of an uploaded file in the visitor's language.

jsonschema words its problems in English ("'name' is a required property"); the import page
speaks Dutch. Each problem is worded here from the keyword that failed and its values, in a
sentence a director can act on; a keyword this module does not know keeps jsonschema's text.
"""

from __future__ import annotations

import json
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from jsonschema.exceptions import ValidationError

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
    if keyword == "required" and isinstance(instance, dict):
        missing = [name for name in expected if name not in instance]
        return _("the field %(name)s is missing") % {"name": ", ".join(missing)}
    if keyword == "additionalProperties" and isinstance(instance, dict):
        known = set(schema.get("properties", {}) if isinstance(schema, dict) else ())
        extra = sorted(name for name in instance if name not in known)
        return _("unknown field %(name)s (a spelling mistake?)") % {"name": ", ".join(extra)}
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
        return _("must have at least %(limit)s characters") % {"limit": expected}
    if keyword == "maxLength":
        return _("may have at most %(limit)s characters") % {"limit": expected}
    if keyword == "minItems":
        return _("must have at least %(limit)s items") % {"limit": expected}
    if keyword == "maxItems":
        return _("may have at most %(limit)s items") % {"limit": expected}
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
        return _("must have at least %(limit)s fields") % {"limit": expected}
    if keyword == "maxProperties":
        return _("may have at most %(limit)s fields") % {"limit": expected}
    return error.message
