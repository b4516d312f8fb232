"""What the ``manage.py`` commands share: the tournament or competition a slug names, writing
to ``-o FILE`` or standard output, the commands that write a portable file and those that
print one round."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from tournament.management.base import SiteCommand, os_reason
from tournament.management.qr_address import qr_address_report
from tournament.models import Competition, Tournament
from tournament.printing.commands import (
    add_output_argument,
    add_round_argument,
    printout_write,
    round_number,
)
from tournament.printing.printouts import Printout
from tournament.venue.site_address import site_address

# The help of the arguments that several commands have. Help stays English, as Django's own
# options (--verbosity, --settings, ...) are; what a command prints speaks the active language.
TOURNAMENT_SLUG_HELP = "the tournament's short name (as in its address)"
COMPETITION_SLUG_HELP = "the competition's short name (as in its address)"
OUTPUT_HELP = "the file to write (a %(suffix)s file; default or -: standard output)"
# The export formats as a director knows them (names, not translated).
FORMAT_NAMES = {"json": "JSON", "csv": "CSV", "xlsx": "Excel"}


def tournament_by_slug(slug: str) -> Tournament:
    try:
        return Tournament.objects.get(slug=slug)
    except Tournament.DoesNotExist:
        raise CommandError(
            _("There is no tournament with the short name “%(slug)s”.") % {"slug": slug}
        ) from None


def competition_by_slug(slug: str) -> Competition:
    try:
        return Competition.objects.get(slug=slug)
    except Competition.DoesNotExist:
        raise CommandError(
            _("There is no competition with the short name “%(slug)s”.") % {"slug": slug}
        ) from None


def to_standard_output(output: Path | None) -> bool:
    """Whether ``-o`` asks for standard output: not given, or ``-o -``."""
    return output is None or str(output) == "-"


def write_output(command: BaseCommand, data: bytes, output: Path | None, *, what: str) -> None:
    """``data`` to the file ``output``, or to standard output without one; then say what was
    written (``what``: "the standings of …") and where, as the print commands do. Said on
    standard error when the data went to standard output, so that it stays only the data."""
    if output is None or to_standard_output(output):
        command.stdout.write(data.decode("utf-8"), ending="")
        command.stderr.write(_("Written to standard output: %(what)s.") % {"what": what})
        return
    try:
        output.write_bytes(data)
    except OSError as exc:
        raise CommandError(
            _("Cannot write %(file)s: %(reason)s") % {"file": output, "reason": os_reason(exc)}
        ) from exc
    command.stdout.write(_("Written: %(file)s (%(what)s).") % {"file": output, "what": what})


class PortableFileCommand(SiteCommand):
    """``<command> SLUG [-o FILE] [--no-site]``: a portable file (JSON) of what the slug names,
    with the site's records unless ``--no-site``."""

    no_site_help: str
    slug_help: str

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help=self.slug_help)
        parser.add_argument(
            "-o", "--output", type=Path, default=None, help=OUTPUT_HELP % {"suffix": ".json"}
        )
        parser.add_argument("--no-site", action="store_true", help=self.no_site_help)

    def handle(
        self, *args: Any, slug: str, output: Path | None, no_site: bool, **options: Any
    ) -> None:
        document = self.document(slug, site=not no_site)
        data = json.dumps(document, ensure_ascii=False, indent=2).encode("utf-8") + b"\n"
        what = self.what(document)
        if no_site:
            what += ", " + _("without the site's records")
        write_output(self, data, output, what=what)

    def document(self, slug: str, *, site: bool) -> dict[str, Any]:
        raise NotImplementedError

    def what(self, document: dict[str, Any]) -> str:
        """The file in words, for the line that says it is written."""
        raise NotImplementedError


class RoundPrintoutCommand(SiteCommand):
    """``<command> SLUG [--round N] -o FILE``: one round's printout as a PDF, its QR codes
    opening the club's address for phones."""

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help=TOURNAMENT_SLUG_HELP)
        add_round_argument(parser)
        add_output_argument(parser)

    def handle(
        self, *args: Any, slug: str, round: int | None, output: Path, **options: Any
    ) -> None:
        tournament = tournament_by_slug(slug)
        number = round_number(tournament, round)
        address = site_address(club=tournament.club)
        printout = self.printout(tournament, number, site=address.url)
        if printout is None:
            raise CommandError(
                _("Round %(number)s of %(slug)s has no tables: seat it first.")
                % {"number": number, "slug": slug}
            )
        printout_write(
            self, tournament=tournament, printout=printout, output=output, site=address.url
        )
        qr_address_report(self, address, codes=self.qr_codes(printout))

    def printout(self, tournament: Tournament, number: int, *, site: str) -> Printout | None:
        raise NotImplementedError

    def qr_codes(self, printout: Printout) -> int:
        """How many QR codes ``printout`` carries."""
        raise NotImplementedError
