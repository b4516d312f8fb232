"""The base of the site's ``manage.py`` commands, light enough for every one of them (also
``serve`` and ``compile_translations``): ``SiteCommand``, whose mistakes in the arguments speak
the active language as the rest of what a command prints does, and the words for a file that
cannot be read or written and for a moment."""

from __future__ import annotations

import datetime
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament.text import os_reason

if TYPE_CHECKING:
    from tournament.errors import Refused

__all__ = ["SiteCommand", "argparse_message", "moment_text", "os_reason"]


def moment_text(moment: datetime.datetime) -> str:
    """A moment as the site's pages show it (``5 december 2026, 09:12``): in the site's time
    zone, in the active language."""
    return date_format(timezone.localtime(moment), "j F Y, H:i")


def _unquoted(text: str) -> str:
    return text[1:-1] if len(text) > 1 and text[0] == text[-1] and text[0] in "'\"" else text


def argparse_message(message: str) -> str:
    """argparse's English error (its own gettext domain, which the site does not translate)
    in the active language, for the mistakes people make: an option or argument left out, one
    too many, a value that is not a number or not one of the choices. Others stay as they are."""
    if found := re.fullmatch(r"the following arguments are required: (.+)", message):
        return _("Required, but not given: %(names)s.") % {"names": found[1]}
    if found := re.fullmatch(r"unrecognized arguments: (.+)", message):
        given = found[1]
        return ngettext(
            "Unknown argument: %(given)s.", "Unknown arguments: %(given)s.", len(given.split())
        ) % {"given": given}
    found = re.fullmatch(r"argument ([^:]+): (.+)", message)
    if found is None:
        return message
    name, problem = found[1], found[2]
    if problem == "expected one argument":
        return _("%(name)s needs a value.") % {"name": name}
    if value := re.fullmatch(r"invalid (int|float) value: (.+)", problem):
        words = (
            _("%(name)s must be a whole number, not “%(value)s”.")
            if value[1] == "int"
            else _("%(name)s must be a number, not “%(value)s”.")
        )
        return words % {"name": name, "value": _unquoted(value[2])}
    if choice := re.fullmatch(r"invalid choice: (.+) \(choose from (.+)\)", problem):
        return _("%(name)s: “%(value)s” is not one of the choices (%(choices)s).") % {
            "name": name,
            "value": _unquoted(choice[1]),
            "choices": ", ".join(_unquoted(c) for c in choice[2].split(", ")),
        }
    return message


class SiteCommandParser(CommandParser):
    """Django's parser, with argparse's errors in the active language (see
    ``argparse_message``)."""

    def error(self, message: str) -> NoReturn:
        message = argparse_message(message)
        if not self.called_from_command_line:
            raise CommandError(message)
        usage = self.format_usage().rstrip()
        if usage.startswith("usage: "):
            translated = _("Usage: %(usage)s") % {"usage": ""}
            # argparse lines the usage's next lines up under its first, after "usage: ".
            indent = " " * (len(translated) - len("usage: "))
            usage = translated + usage.removeprefix("usage: ").replace("\n", "\n" + indent)
        sys.stderr.write(f"{usage}\n")
        self.exit(2, f"{self.prog}: {message}\n")


class SiteCommand(BaseCommand):
    """The site's commands: what they print, their mistakes in the arguments too, speaks the
    active language."""

    def create_parser(self, prog_name: str, subcommand: str, **kwargs: Any) -> CommandParser:
        parser = super().create_parser(prog_name, subcommand, **kwargs)
        # Django makes the parser itself (there is no class to give it): the same parser, with
        # the errors above.
        parser.__class__ = SiteCommandParser
        return parser

    def file_bytes(self, file: Path) -> bytes:
        """The whole of ``file``, or the command stops saying why it cannot be read."""
        try:
            return file.read_bytes()
        except OSError as exc:
            raise CommandError(
                _("Cannot read %(file)s: %(reason)s") % {"file": file, "reason": os_reason(exc)}
            ) from exc

    def refused(self, exc: Refused, file: Path, *, restored: bool = False) -> CommandError:
        """Every problem of ``file`` on standard error, and the error that ends the command."""
        for line in exc.lines():
            self.stderr.write(line)
        message = (
            ngettext(
                "%(file)s: %(count)s problem; nothing was restored.",
                "%(file)s: %(count)s problems; nothing was restored.",
                exc.total,
            )
            if restored
            else ngettext(
                "%(file)s: %(count)s problem; nothing was imported.",
                "%(file)s: %(count)s problems; nothing was imported.",
                exc.total,
            )
        )
        return CommandError(message % {"file": file, "count": exc.total})
