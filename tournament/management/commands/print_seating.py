"""Print a round's seating list (by table, and "where do I sit" by name) to a PDF."""

from tournament.management.options import RoundPrintoutCommand
from tournament.models import Tournament
from tournament.printing.printouts import Printout, seating_printout


class Command(RoundPrintoutCommand):
    help = "Write a round's seating list as a PDF (default: the current round)."

    def printout(self, tournament: Tournament, number: int, *, site: str) -> Printout | None:
        return seating_printout(tournament, number, site=site)
