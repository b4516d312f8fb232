"""Write a club's backup: ``manage.py backup_club SLUG -o FILE`` (``docs/club-file.md``)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError, CommandParser
from django.utils.translation import gettext as _

from tournament.club_file.writing import club_backup_zip
from tournament.management.base import SiteCommand, os_reason
from tournament.management.options import to_standard_output
from tournament.models import Club


def _owner_only(path: str, flags: int) -> int:
    return os.open(path, flags, 0o600)


class Command(SiteCommand):
    help = (
        "Write everything a club has (its settings, people's roles, member register, every "
        "competition and every tournament with the site's records) as one zip: the club's "
        "backup, restored with restore_club."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="the club's short name (as in its address)")
        parser.add_argument(
            "-o",
            "--output",
            type=Path,
            required=True,
            help="the file to write (a .zip file, readable by its owner only); -: standard "
            "output, to pipe it elsewhere (ssh server ... -o - > club.zip)",
        )

    def handle(self, *args: object, slug: str, output: Path, **options: Any) -> None:
        club = Club.objects.filter(slug=slug).first()
        if club is None:
            raise CommandError(
                _("There is no club with the short name “%(slug)s”.") % {"slug": slug}
            )
        data = club_backup_zip(club)
        if to_standard_output(output):
            self._to_standard_output(data, club)
            return
        try:
            # The members' names and addresses: readable by this account only, as the site's
            # own backups are.
            with open(output, "wb", opener=_owner_only) as written:
                written.write(data)
            output.chmod(0o600)  # also when the file was there before
        except OSError as exc:
            raise CommandError(
                _("Cannot write %(file)s: %(reason)s") % {"file": output, "reason": os_reason(exc)}
            ) from exc
        self.stdout.write(
            _("Written: %(file)s (the backup of %(club)s, %(size)s kB).")
            % {"file": output, "club": club, "size": max(1, round(len(data) / 1000))}
        )

    def _to_standard_output(self, data: bytes, club: Club) -> None:
        stream = getattr(self.stdout._out, "buffer", None)  # the bytes under the text
        if stream is None or stream.isatty():
            raise CommandError(
                _(
                    "-o -: a zip does not belong on a terminal. Pipe it to a file "
                    "(… -o - > club.zip) or give a file name: -o club.zip."
                )
            )
        stream.write(data)
        stream.flush()
        self.stderr.write(
            _("Written to standard output: the backup of %(club)s, %(size)s kB.")
            % {"club": club, "size": max(1, round(len(data) / 1000))}
        )
