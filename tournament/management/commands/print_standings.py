"""Print the standings, with the points of every round, to a PDF."""

from django.core.management.base import BaseCommand

from tournament.management.options import tournament_by_slug
from tournament.printing.commands import add_output_argument, printout_write
from tournament.printing.printouts import standings_printout
from tournament.venue.site_address import site_url


class Command(BaseCommand):
    help = "Write the standings (with the points of every round) as a PDF."

    def add_arguments(self, parser) -> None:
        parser.add_argument("slug")
        add_output_argument(parser)

    def handle(self, *args, slug, output, **options) -> None:
        tournament = tournament_by_slug(slug)
        printout = standings_printout(tournament)
        printout_write(
            self,
            tournament=tournament,
            printout=printout,
            output=output,
            site=site_url(club=tournament.club),
        )
