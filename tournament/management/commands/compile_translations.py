"""Compile the .po translation catalogues to .mo files.

Django's own ``compilemessages`` needs GNU gettext's ``msgfmt``; a fresh machine may not have
it, so set-up compiles with polib (pure Python) instead.
"""

from pathlib import Path

import polib
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError


class Command(BaseCommand):
    help = "Compile the translation catalogues (locale/*/LC_MESSAGES/*.po) to .mo files."

    def handle(self, *args, **options) -> None:
        compiled = 0
        for locale_dir in settings.LOCALE_PATHS:
            for po_path in sorted(Path(locale_dir).glob("*/LC_MESSAGES/*.po")):
                mo_path = po_path.with_suffix(".mo")
                if mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
                    continue
                try:
                    catalogue = polib.pofile(str(po_path))
                except OSError as exc:
                    raise CommandError(f"Cannot read translation file {po_path}: {exc}") from exc
                catalogue.save_as_mofile(str(mo_path))
                compiled += 1
        if compiled:
            noun = "catalogue" if compiled == 1 else "catalogues"
            self.stdout.write(f"Compiled {compiled} translation {noun}.")
