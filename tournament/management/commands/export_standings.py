"""Write the live standings of a tournament as JSON, CSV or Excel."""

from pathlib import Path
from typing import Any

from django.core.management.base import CommandError, CommandParser
from django.utils.translation import gettext as _

from tournament.management.base import SiteCommand
from tournament.management.options import (
    FORMAT_NAMES,
    OUTPUT_HELP,
    TOURNAMENT_SLUG_HELP,
    to_standard_output,
    tournament_by_slug,
    write_output,
)
from tournament.standings.exports import StandingsExporter


class Command(SiteCommand):
    help = (
        "Write the standings (every deal entered so far counts) as json, csv or xlsx, each "
        "saying which numbers are provisional and whether they are final. The JSON follows "
        "tournament/formats/standings-v1.schema.json. CSV and Excel are in the tournament's "
        "language; Dutch CSV is separated by ';', English by ','."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help=TOURNAMENT_SLUG_HELP)
        parser.add_argument(
            "--format",
            choices=StandingsExporter.formats,
            default="json",
            help="json, csv or xlsx (default: json)",
        )
        parser.add_argument(
            "-o",
            "--output",
            type=Path,
            default=None,
            help=OUTPUT_HELP % {"suffix": ".json, .csv or .xlsx"} + "; needed for xlsx",
        )
        parser.add_argument(
            "--delimiter",
            default=None,
            help="the CSV separator instead of the language's (';' for Dutch, ',' for English; "
            "\\t for a tab)",
        )

    def handle(
        self,
        *args: object,
        slug: str,
        format: str,
        output: Path | None,
        delimiter: str | None,
        **options: Any,
    ) -> None:
        if delimiter is not None and format != "csv":
            raise CommandError(_("--delimiter is for --format csv."))
        if delimiter == "\\t":
            delimiter = "\t"
        if delimiter is not None and len(delimiter) != 1:
            raise CommandError(
                _("--delimiter is one character, not “%(given)s”.") % {"given": delimiter}
            )
        if format == "xlsx" and to_standard_output(output):
            raise CommandError(_("An Excel file cannot go to the terminal: add -o FILE.xlsx."))
        tournament = tournament_by_slug(slug)
        exported = StandingsExporter(tournament, format=format, delimiter=delimiter).render()
        what = _("the standings of “%(name)s” as %(format)s") % {
            "name": tournament.name,
            "format": FORMAT_NAMES[format],
        }
        write_output(self, exported.data, output, what=what)
