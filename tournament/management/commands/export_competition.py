"""Write a competition as a portable competition file (``docs/competition-file.md``)."""

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from tournament.management.commands.competition_add import competition_by_slug
from tournament.management.commands.export_tournament import write_output
from tournament.season.file_export import competition_export


class Command(BaseCommand):
    help = (
        "Write a competition as a competition file (to standard output, or -o FILE): its "
        "settings, the member register and every evening as a v1 tournament file."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("-o", "--output", type=Path, default=None)
        parser.add_argument(
            "--no-site",
            action="store_true",
            help="leave out each evening's site records (sheet history, confirmations, table "
            "links, team): for handing the season to someone else",
        )

    def handle(
        self, *args: object, slug: str, output: Path | None, no_site: bool, **options: Any
    ) -> None:
        document = competition_export(competition=competition_by_slug(slug), site=not no_site)
        data = json.dumps(document, ensure_ascii=False, indent=2).encode("utf-8") + b"\n"
        write_output(self, data, output)
