"""Print the standings, with the points of every round, to a PDF."""

from pathlib import Path
from typing import Any

from django.core.management.base import CommandParser

from tournament.management.base import SiteCommand
from tournament.management.options import TOURNAMENT_SLUG_HELP, tournament_by_slug
from tournament.printing.commands import add_output_argument, printout_write
from tournament.printing.printouts import standings_printout
from tournament.venue.site_address import site_url


class Command(SiteCommand):
    help = "Write the standings (with the points of every round) as a PDF."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help=TOURNAMENT_SLUG_HELP)
        add_output_argument(parser)

    def handle(self, *args: object, slug: str, output: Path, **options: Any) -> None:
        tournament = tournament_by_slug(slug)
        printout = standings_printout(tournament)
        printout_write(
            self,
            tournament=tournament,
            printout=printout,
            output=output,
            site=site_url(club=tournament.club),
        )
