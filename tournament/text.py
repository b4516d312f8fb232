"""Text typed or uploaded by people: names, clubs, places.

Text is kept in Unicode NFC with single spaces and nothing around it. Characters that cannot
be seen are refused, because they break files (a control character is illegal in an Excel
cell; PostgreSQL refuses NUL) or make one name look like another (a right-to-left override, a
zero-width space): every control and format character (Unicode's categories Cc and Cf: the
bidirectional controls, zero-width characters, the soft hyphen, the invisible tags), private
and unassigned ones, line and paragraph separators, and the few letters and marks that show as
nothing (the Hangul fillers, the combining grapheme joiner, variation selectors).

Also the commands that messages tell an operator to type: a checkout's (``make run``,
``.venv/bin/python manage.py``) or an installed package's (``bollen serve``, ``bollen manage``).
"""

from __future__ import annotations

import errno
import re
import unicodedata
from typing import Any

from django import forms
from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

# Unicode categories of characters that show as nothing: control, format (bidirectional
# controls, zero-width characters, the soft hyphen, tags), surrogates, private use, unassigned,
# line and paragraph separators.
_HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
# Letters and marks of other categories that show as nothing: the Hangul fillers, the
# combining grapheme joiner, the Mongolian vowel separator, variation selectors.
_BLANK = re.compile(
    "[\u034f\u115f\u1160\u180b-\u180f\u3164\uffa0\ufe00-\ufe0f\U000e0100-\U000e01ef]"
)

HIDDEN_CHARACTER = _(
    "The text contains an invisible or control character (such as a tab, a zero-width space or "
    "a right-to-left mark); type it again without it."
)


def text_normalised(text: str) -> str:
    """NFC, with every run of spaces one space and none around it."""
    return " ".join(unicodedata.normalize("NFC", text).split())


def text_hidden_character(text: str) -> str | None:
    """The first character of ``text`` that may not be in a name, or ``None``."""
    if text.isascii():  # the common case: only the ASCII controls can be in it
        return next((c for c in text if c < " " or c == "\x7f"), None)
    blank = _BLANK.search(text)
    for index, character in enumerate(text):
        if blank is not None and index == blank.start():
            return character
        if unicodedata.category(character) in _HIDDEN_CATEGORIES:
            return character
    return None


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


def manage_command() -> str:
    """What runs a ``manage.py`` command here, to put before its name in a message."""
    return ".venv/bin/python manage.py" if settings.CHECKOUT else "bollen manage"


def serve_command() -> str:
    """What starts the site here (``BIND=HOST:PORT`` before it chooses the address)."""
    return "make run" if settings.CHECKOUT else "bollen serve"


def settings_file() -> str:
    """The settings file this site reads (``.env`` in a checkout, ``bollen.env`` in the data
    folder, or ``ENV_FILE``), to name in advice; the environment when there is none."""
    env_file = getattr(settings, "ENV_FILE", None)
    if env_file is None:
        return gettext("the environment")
    return ".env" if settings.CHECKOUT else str(env_file)


ID_MAX = 2**63 - 1  # the largest key either database holds


def posted_id(value: object) -> int | None:
    """A key sent in a form or an address (``"17"``) as a number; ``None`` for anything else:
    an empty value, "abc", "²" (a digit to ``str.isdigit``, not to ``int``), or a number no
    key can be (SQLite fails on one over 2**63)."""
    if not isinstance(value, str) or not value.isascii() or not value.isdigit():
        return None
    number = int(value)
    return number if 0 < number <= ID_MAX else None


def os_reason(exc: OSError) -> str:
    """Why a file could not be read or written, in the active language for the common causes
    (the operating system's own words, in English, otherwise)."""
    if exc.errno == errno.ENOENT:
        return gettext("there is no such file or folder")
    if exc.errno in (errno.EACCES, errno.EPERM):
        return gettext("you have no permission for it")
    if exc.errno == errno.EISDIR:
        return gettext("that is a folder, not a file")
    if exc.errno == errno.ENOTDIR:
        return gettext("a part of the path is not a folder")
    if exc.errno == errno.ENOSPC:
        return gettext("the disk is full")
    if exc.errno == errno.EROFS:
        return gettext("the disk is read-only")
    return exc.strerror or str(exc)
