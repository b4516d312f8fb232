"""Write a competition's season standings as JSON, CSV or the season workbook."""

from pathlib import Path
from typing import Any

from django.core.management.base import CommandError, CommandParser
from django.utils.translation import gettext as _

from tournament.management.base import SiteCommand
from tournament.management.options import (
    COMPETITION_SLUG_HELP,
    FORMAT_NAMES,
    OUTPUT_HELP,
    competition_by_slug,
    to_standard_output,
    write_output,
)
from tournament.season.exports import SeasonExporter


class Command(SiteCommand):
    help = (
        "Write the season standings: json (points = the sum over the counted evenings, the "
        "evenings in date order, the guests apart; competition-standings-v1.schema.json), csv "
        "(every evening's points a number), or xlsx (standings with the rule and the key to the "
        "evenings, one sheet per evening, statistics; needs -o FILE)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help=COMPETITION_SLUG_HELP)
        parser.add_argument(
            "--format",
            choices=SeasonExporter.formats,
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

    def handle(
        self, *args: object, slug: str, format: str, output: Path | None, **options: Any
    ) -> None:
        if format == "xlsx" and to_standard_output(output):
            raise CommandError(_("An Excel file cannot go to the terminal: add -o FILE.xlsx."))
        competition = competition_by_slug(slug)
        exported = SeasonExporter.of(competition, format=format).render()
        what = _("the season standings of “%(name)s” as %(format)s") % {
            "name": competition.name,
            "format": FORMAT_NAMES[format],
        }
        write_output(self, exported.data, output, what=what)
