"""Print a round's score sheets to a PDF, with each table's QR code, as the print page does."""

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournament.management.commands.export_tournament import tournament_by_slug
from tournament.printing.commands import (
    add_output_argument,
    add_round_argument,
    printout_write,
    round_number,
    site_for_qr_codes,
)
from tournament.printing.printouts import sheets_printout


class Command(BaseCommand):
    help = (
        "Write a round's score sheets as a PDF (default: the current round). Their QR codes "
        "open the address for phones; tables without a link get one."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        add_round_argument(parser)
        add_output_argument(parser)

    def handle(
        self, *args: object, slug: str, round: int | None, output: Path, **options: Any
    ) -> None:
        tournament = tournament_by_slug(slug)
        number = round_number(tournament, round)
        site = site_for_qr_codes(self, tournament)
        printout = sheets_printout(tournament, number, site=site, by_user=None)
        if printout is None:
            raise CommandError(f"Round {number} of {slug} has no tables: seat it first.")
        printout_write(self, tournament=tournament, printout=printout, output=output, site=site)
