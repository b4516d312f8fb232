"""Print a round's seating list (by table, and "where do I sit" by name) to a PDF."""

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
from tournament.printing.printouts import seating_printout


class Command(BaseCommand):
    help = "Write a round's seating list as a PDF (default: the current round)."

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
        printout = seating_printout(tournament, number, site=site)
        if printout is None:
            raise CommandError(f"Round {number} of {slug} has no tables: seat it first.")
        printout_write(self, tournament=tournament, printout=printout, output=output, site=site)
