"""Restore a club's backup into a new, empty club: ``manage.py restore_club FILE --club SLUG``
(``docs/club-file.md``). On a site of several clubs a new club needs its first club admin,
``--admin USERNAME``, as ``club_create`` gives one: without it nobody but the server's
operator could open the club."""

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
from tournament.management.commands.club_create import (
    admin_account,
    admin_announce,
    username_checked,
)
from tournament.models import Club, ClubRole


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
        parser.add_argument(
            "--admin",
            metavar="USERNAME",
            help="a club admin of the club (an existing account, or a new one with a generated "
            "password, printed once); needed for a new club on a site of several clubs",
        )

    def handle(
        self, *args: object, file: Path, club: str, admin: str | None, **options: Any
    ) -> None:
        try:
            validate_slug(club)
        except ValidationError:
            raise CommandError(
                _("--club %(slug)s: a short name is letters, digits, - and _.") % {"slug": club}
            ) from None
        if club in RESERVED_SLUGS:
            raise CommandError(_("--club %(slug)s: that short name is taken.") % {"slug": club})
        if admin is not None:
            username_checked(admin)
        elif Club.objects.exclude(slug=club).exists() and not Club.objects.filter(slug=club):
            raise CommandError(
                _(
                    "--club %(slug)s is a new club on a site of several clubs: give it its first "
                    "club admin, --admin USERNAME (an existing account or a new one)."
                )
                % {"slug": club}
            )
        password = None
        try:
            existing = Club.objects.filter(slug=club).first()
            if existing is not None and not club_is_empty(existing):
                raise Refused.because(ClubRestoreRefusal.NOT_EMPTY)  # before the file is read
            backup = club_backup_read(self.file_bytes(file))
            with transaction.atomic():  # a new club is made only with everything of the file
                target = Club.objects.filter(slug=club).first()
                if target is None:
                    target = Club.objects.create(slug=club)
                if admin is not None:  # before the restore: the backup's teams may name them
                    user, password = admin_account(admin)
                    ClubRole.objects.update_or_create(
                        club=target, user=user, defaults={"role": ClubRole.Role.ADMIN}
                    )
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
        if admin is not None:
            admin_announce(self, admin, password)
        self.stdout.write(restored.club.slug)
