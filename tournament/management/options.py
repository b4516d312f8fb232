"""What the ``manage.py`` commands share: the tournament or competition a slug names, writing
to ``-o FILE`` or standard output, the commands that write a portable file and those that
print one round."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournament.models import Competition, Tournament
from tournament.printing.commands import (
    add_output_argument,
    add_round_argument,
    printout_write,
    round_number,
    site_for_qr_codes,
)
from tournament.printing.printouts import Printout


def tournament_by_slug(slug: str) -> Tournament:
    try:
        return Tournament.objects.get(slug=slug)
    except Tournament.DoesNotExist:
        raise CommandError(f"There is no tournament with the slug {slug!r}.") from None


def competition_by_slug(slug: str) -> Competition:
    try:
        return Competition.objects.get(slug=slug)
    except Competition.DoesNotExist:
        raise CommandError(f"There is no competition with the slug {slug!r}.") from None


def write_output(command: BaseCommand, data: bytes, output: Path | None) -> None:
    """``data`` to the file ``output``, or to standard output without one."""
    if output is None:
        command.stdout.write(data.decode("utf-8"), ending="")
        return
    try:
        output.write_bytes(data)
    except OSError as exc:
        raise CommandError(f"Cannot write {output}: {exc.strerror}") from exc


class PortableFileCommand(BaseCommand):
    """``<command> SLUG [-o FILE] [--no-site]``: a portable file (JSON) of what the slug names,
    with the site's records unless ``--no-site``."""

    no_site_help: str

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("-o", "--output", type=Path, default=None)
        parser.add_argument("--no-site", action="store_true", help=self.no_site_help)

    def handle(
        self, *args: Any, slug: str, output: Path | None, no_site: bool, **options: Any
    ) -> None:
        document = self.document(slug, site=not no_site)
        data = json.dumps(document, ensure_ascii=False, indent=2).encode("utf-8") + b"\n"
        write_output(self, data, output)

    def document(self, slug: str, *, site: bool) -> dict[str, Any]:
        raise NotImplementedError


class RoundPrintoutCommand(BaseCommand):
    """``<command> SLUG [--round N] -o FILE``: one round's printout as a PDF, its QR codes
    opening the club's address for phones."""

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        add_round_argument(parser)
        add_output_argument(parser)

    def handle(
        self, *args: Any, slug: str, round: int | None, output: Path, **options: Any
    ) -> None:
        tournament = tournament_by_slug(slug)
        number = round_number(tournament, round)
        site = site_for_qr_codes(self, tournament)
        printout = self.printout(tournament, number, site=site)
        if printout is None:
            raise CommandError(f"Round {number} of {slug} has no tables: seat it first.")
        printout_write(self, tournament=tournament, printout=printout, output=output, site=site)

    def printout(self, tournament: Tournament, number: int, *, site: str) -> Printout | None:
        raise NotImplementedError
