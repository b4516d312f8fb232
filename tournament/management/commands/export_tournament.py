"""Write a tournament as a portable tournament file (version 1)."""

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournament.models import Tournament
from tournament.tournament_file.exporting import tournament_export


def tournament_by_slug(slug: str) -> Tournament:
    try:
        return Tournament.objects.get(slug=slug)
    except Tournament.DoesNotExist:
        raise CommandError(f"There is no tournament with the slug {slug!r}.") from None


def write_output(command: BaseCommand, data: bytes, output: Path | None) -> None:
    if output is None:
        command.stdout.write(data.decode("utf-8"), ending="")
        return
    try:
        output.write_bytes(data)
    except OSError as exc:
        raise CommandError(f"Cannot write {output}: {exc.strerror}") from exc


class Command(BaseCommand):
    help = (
        "Write a tournament as a v1 tournament file (to standard output, or -o FILE): the "
        "backup, with the site's records (sheet history, confirmations, table links, team)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("-o", "--output", type=Path, default=None)
        parser.add_argument(
            "--no-site",
            action="store_true",
            help="leave out the site's records (the table links' secrets, usernames and "
            "addresses): for handing the tournament to someone else",
        )

    def handle(
        self, *args: object, slug: str, output: Path | None, no_site: bool, **options: Any
    ) -> None:
        document = tournament_export(tournament=tournament_by_slug(slug), site=not no_site)
        data = json.dumps(document, ensure_ascii=False, indent=2).encode("utf-8") + b"\n"
        write_output(self, data, output)
