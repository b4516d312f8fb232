"""Create a competition, its register members and evenings from a competition file."""

from pathlib import Path
from typing import Any

from django.core.management.base import CommandParser
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament.clubs.commands import add_club_argument, club_option
from tournament.errors import Refused
from tournament.management.base import SiteCommand
from tournament.season.file_import import competition_import
from tournament.tournament_file.reading import tournament_file_parse


class Command(SiteCommand):
    help = (
        "Create a competition from a competition file: its members join the register (or are "
        "matched to members it has), every evening becomes a tournament. The whole file is "
        "checked first; on any problem nothing is stored. Prints the competition's slug last."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path, help="the competition file (.json)")
        add_club_argument(parser)

    def handle(self, *args: object, file: Path, club: str | None, **options: Any) -> None:
        owner = club_option(club)
        raw = self.file_bytes(file)
        try:
            outcome = competition_import(document=tournament_file_parse(raw), club=owner)
        except Refused as exc:
            raise self.refused(exc, file) from exc
        competition = outcome.competition
        evenings = competition.evenings.count()
        self.stdout.write(
            ngettext(
                "Imported “%(name)s” with %(count)s evening.",
                "Imported “%(name)s” with %(count)s evenings.",
                evenings,
            )
            % {"name": competition, "count": evenings}
        )
        for note in outcome.notes:
            self.stdout.write(_("Note: %(note)s") % {"note": note})
        self.stdout.write(competition.slug)
