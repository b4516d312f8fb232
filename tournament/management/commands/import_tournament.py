"""Create a tournament from a portable tournament file (version 1)."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tournament.problems import ProblemsError
from tournament.services.portable import tournament_import
from tournament.services.portable_check import tournament_file_parse


class Command(BaseCommand):
    help = (
        "Create a tournament from a v1 tournament file. The whole file is checked first; "
        "on any problem nothing is stored. Prints the new tournament's slug last."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("file", type=Path, help="the tournament file (.json)")
        parser.add_argument(
            "--slug", default=None, help="restore under this short name (it must be free)"
        )

    def handle(self, *args, file: Path, slug: str | None, **options) -> None:
        try:
            raw = file.read_bytes()
        except OSError as exc:
            raise CommandError(f"Cannot read {file}: {exc.strerror}") from exc
        try:
            tournament = tournament_import(document=tournament_file_parse(raw), slug=slug)
        except ProblemsError as exc:
            for line in exc.lines():
                self.stderr.write(line)
            noun = "problem" if exc.total == 1 else "problems"
            raise CommandError(f"{file}: {exc.total} {noun}; nothing was imported.") from exc
        self.stdout.write(f"Imported '{tournament.name}'.")
        self.stdout.write(tournament.slug)
