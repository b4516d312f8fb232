"""Text typed or uploaded by people: names, clubs, places.

Text is kept in Unicode NFC with single spaces and nothing around it. Characters that cannot
be seen are refused, because they break files (a control character is illegal in an Excel
cell; PostgreSQL refuses NUL) or make one name look like another (a right-to-left override, a
zero-width space): control characters, bidirectional controls and zero-width characters.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

# Bidirectional controls (embeddings, overrides, isolates, marks) and zero-width characters.
_INVISIBLE = "\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff"
_HIDDEN = re.compile(f"[\\x00-\\x1f\\x7f-\\x9f{_INVISIBLE}]")

HIDDEN_CHARACTER = _(
    "The text contains an invisible or control character (such as a tab, a zero-width space or "
    "a right-to-left mark); type it again without it."
)


def text_normalised(text: str) -> str:
    """NFC, with every run of spaces one space and none around it."""
    return " ".join(unicodedata.normalize("NFC", text).split())


def text_hidden_character(text: str) -> str | None:
    """The first character of ``text`` that may not be in a name, or ``None``."""
    found = _HIDDEN.search(text)
    return found.group() if found else None


def validate_visible(text: str) -> None:
    """A form validator: refuses text with a character :func:`text_hidden_character` finds."""
    if text_hidden_character(text) is not None:
        raise ValidationError(HIDDEN_CHARACTER, code="hidden_character")


class VisibleTextField(forms.CharField):
    """A line of text as people see it: refused with a hidden character, else normalised."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("strip", False)
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> str:
        value = super().to_python(value)
        validate_visible(value)
        return text_normalised(value)


ID_MAX = 2**63 - 1  # the largest key either database holds


def posted_id(value: object) -> int | None:
    """A key sent in a form or an address (``"17"``) as a number; ``None`` for anything else:
    an empty value, "abc", "²" (a digit to ``str.isdigit``, not to ``int``), or a number no
    key can be (SQLite fails on one over 2**63)."""
    if not isinstance(value, str) or not value.isascii() or not value.isdigit():
        return None
    number = int(value)
    return number if 0 < number <= ID_MAX else None
