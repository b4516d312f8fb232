"""Create a tournament from a portable tournament file (version 1), or restore a backup."""

from pathlib import Path
from typing import Any

from django.core.management.base import CommandError, CommandParser
from django.utils.translation import gettext as _

from tournament.clubs.commands import add_club_argument, club_option
from tournament.errors import Refused
from tournament.management.base import SiteCommand, moment_text
from tournament.models import Tournament
from tournament.tournament_file.importing import tournament_restore
from tournament.tournament_file.reading import tournament_file_parse


class Command(SiteCommand):
    help = (
        "Create a tournament from a v1 tournament file (a backup restores its sheet history, "
        "confirmations, table links and team too). The whole file is checked first; on any "
        "problem nothing is stored. Prints the new tournament's slug last."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, help="the tournament file (.json)")
        parser.add_argument(
            "--slug", default=None, help="restore under this short name (it must be free)"
        )
        parser.add_argument(
            "--replace",
            action="store_true",
            help="with --slug: delete the tournament that has this short name now and restore "
            "the file in its place, in one step (nothing is deleted if the file is refused)",
        )
        add_club_argument(parser)

    def handle(
        self,
        *args: object,
        file: Path,
        slug: str | None,
        replace: bool,
        club: str | None,
        **options: Any,
    ) -> None:
        if replace and slug is None:
            raise CommandError(
                _("--replace needs --slug: the short name of the tournament to replace.")
            )
        raw = self.file_bytes(file)
        replaced = Tournament.objects.filter(slug=slug).select_related("club").first()
        # Replacing: in the replaced tournament's club, unless --club says otherwise.
        owner = replaced.club if replace and replaced and club is None else club_option(club)
        try:
            outcome = tournament_restore(
                document=tournament_file_parse(raw), club=owner, slug=slug, replace=replace
            )
        except Refused as exc:
            raise self.refused(exc, file) from exc
        tournament = outcome.tournament
        if outcome.replaced:
            self.stdout.write(
                _("Deleted the tournament that had the short name %(slug)s.") % {"slug": slug}
            )
        if outcome.replaced_finished_at is not None:
            self.stdout.write(
                _("It had been finished on %(at)s; its final backup stays in the backup folder.")
                % {"at": moment_text(outcome.replaced_finished_at)}
            )
        self.stdout.write(_("Imported “%(name)s”.") % {"name": tournament.name})
        for note in outcome.notes:
            self.stdout.write(_("Note: %(note)s") % {"note": note})
        self.stdout.write(tournament.slug)
