"""Compile the .po translation catalogues to .mo files.

Django's own ``compilemessages`` needs GNU gettext's ``msgfmt``; a fresh machine may not have
it, so set-up compiles with polib (pure Python) instead.
"""

from pathlib import Path
from typing import Any

import polib
from django.conf import settings
from django.core.management.base import CommandError
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament.management.base import SiteCommand, os_reason


class Command(SiteCommand):
    help = "Compile the translation catalogues (locale/*/LC_MESSAGES/*.po) to .mo files."

    def handle(self, *args: object, **options: Any) -> None:
        compiled = 0
        for locale_dir in settings.LOCALE_PATHS:
            for po_path in sorted(Path(locale_dir).glob("*/LC_MESSAGES/*.po")):
                mo_path = po_path.with_suffix(".mo")
                if mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
                    continue
                try:
                    catalogue = polib.pofile(str(po_path))
                except OSError as exc:
                    raise CommandError(
                        _("Cannot read the translation file %(file)s: %(reason)s")
                        % {"file": po_path, "reason": os_reason(exc)}
                    ) from exc
                _refuse_duplicates(po_path, catalogue)
                catalogue.save_as_mofile(str(mo_path))
                compiled += 1
        if compiled:
            self.stdout.write(
                ngettext(
                    "Compiled %(count)s translation catalogue.",
                    "Compiled %(count)s translation catalogues.",
                    compiled,
                )
                % {"count": compiled}
            )


def _refuse_duplicates(po_path: Path, catalogue: polib.POFile) -> None:
    """GNU msgfmt refuses a catalogue with a message defined twice; so does this (polib would
    silently keep one of the two translations)."""
    seen: dict[tuple[str | None, str], int | None] = {}
    for entry in catalogue:
        key = (entry.msgctxt, entry.msgid)
        if key in seen:
            raise CommandError(
                _(
                    "%(file)s:%(line)s: the message “%(message)s” is defined twice (first at "
                    "line %(first)s); keep one of the two."
                )
                % {
                    "file": po_path,
                    "line": entry.linenum,
                    "message": entry.msgid,
                    "first": seen[key],
                }
            )
        seen[key] = entry.linenum
