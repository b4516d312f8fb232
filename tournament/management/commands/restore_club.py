"""Restore a club's backup into a new, empty club: ``manage.py restore_club FILE --club SLUG``
(``docs/club-file.md``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import CommandError, CommandParser
from django.core.validators import validate_slug
from django.db import transaction
from django.utils.translation import gettext as _

from tournament.club_file.reading import club_backup_read
from tournament.club_file.restoring import ClubRestoreRefusal, club_is_empty, club_restore
from tournament.clubs.services import RESERVED_SLUGS
from tournament.errors import Refused
from tournament.management.base import SiteCommand
from tournament.models import Club


class Command(SiteCommand):
    help = (
        "Restore a club's backup (the zip backup_club or the club's page wrote) into a new club "
        "of this short name, or into an existing club that is still empty. The whole file is "
        "checked first; on any problem nothing is stored (no club is made either)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, help="the club's backup (.zip)")
        parser.add_argument(
            "--club",
            required=True,
            metavar="SHORT-NAME",
            help="the club to restore into: a new short name makes a new club; an existing "
            "club must have no tournaments, competitions or members yet",
        )

    def handle(self, *args: object, file: Path, club: str, **options: Any) -> None:
        try:
            validate_slug(club)
        except ValidationError:
            raise CommandError(
                _("--club %(slug)s: a short name is letters, digits, - and _.") % {"slug": club}
            ) from None
        if club in RESERVED_SLUGS:
            raise CommandError(_("--club %(slug)s: that short name is taken.") % {"slug": club})
        try:
            existing = Club.objects.filter(slug=club).first()
            if existing is not None and not club_is_empty(existing):
                raise Refused.because(ClubRestoreRefusal.NOT_EMPTY)  # before the file is read
            backup = club_backup_read(self.file_bytes(file))
            with transaction.atomic():  # a new club is made only with everything of the file
                target = Club.objects.filter(slug=club).first()
                if target is None:
                    target = Club.objects.create(slug=club)
                restored = club_restore(backup=backup, club=target)
        except Refused as exc:
            raise self.refused(exc, file, restored=True) from exc
        self.stdout.write(
            _(
                "Restored into %(club)s (tournaments: %(tournaments)s, competitions: "
                "%(competitions)s, members: %(members)s)."
            )
            % {
                "club": restored.club,
                "tournaments": len(restored.tournaments),
                "competitions": len(restored.competitions),
                "members": restored.club.members.count(),
            }
        )
        for note in restored.notes:
            self.stdout.write(_("Note: %(note)s") % {"note": note})
        self.stdout.write(restored.club.slug)
