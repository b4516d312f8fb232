"""Print a round's seating list (by table, and "where do I sit" by name) to a PDF."""

from tournament.management.options import RoundPrintoutCommand
from tournament.models import Tournament
from tournament.printing.printouts import Printout, seating_printout


class Command(RoundPrintoutCommand):
    help = (
        "Write a round's seating list as a PDF (default: the current round). With the public "
        "pages on, its QR code opens them at the address for phones (said when written)."
    )

    def printout(self, tournament: Tournament, number: int, *, site: str) -> Printout | None:
        return seating_printout(tournament, number, site=site)

    def qr_codes(self, printout: Printout) -> int:
        return 1 if printout.context.get("public_qr") else 0
