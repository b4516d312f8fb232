"""Print a round's score sheets to a PDF, with each table's QR code, as the print page does."""

from tournament.management.options import RoundPrintoutCommand
from tournament.models import Tournament
from tournament.printing.printouts import Printout, sheets_printout


class Command(RoundPrintoutCommand):
    help = (
        "Write a round's score sheets as a PDF (default: the current round). Their QR codes "
        "open the address for phones (said when written); tables without a link get one."
    )

    def printout(self, tournament: Tournament, number: int, *, site: str) -> Printout | None:
        return sheets_printout(tournament, number, site=site, by_user=None)

    def qr_codes(self, printout: Printout) -> int:
        forms = printout.context.get("forms")
        return len(forms) if isinstance(forms, list) else 0
