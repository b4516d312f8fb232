"""What the ``print_*`` commands share: finding the round, the address of the QR codes, and
writing the PDF. The printouts themselves are the site's (``tournament.printing.printouts``)."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from tournament.models import Tournament
from tournament.printing.printouts import Printout, current_round
from tournament.printing.render import printout_pdf
from tournament.text import manage_command, os_reason


def add_output_argument(parser: CommandParser) -> None:
    parser.add_argument("-o", "--output", type=Path, required=True, help="the PDF file to write")


def add_round_argument(parser: CommandParser) -> None:
    parser.add_argument(
        "--round",
        type=int,
        default=None,
        help="the round's number (default: the current round, the last one seated or playing)",
    )


def round_number(tournament: Tournament, number: int | None) -> int:
    """The round asked for, checked; without one the current round."""
    if number is None:
        current = current_round(tournament)
        if current is None:
            raise CommandError(
                _("%(slug)s has no round that is seated or being played; give one with --round N.")
                % {"slug": tournament.slug}
            )
        return current.number
    numbers = list(tournament.rounds.order_by("number").values_list("number", flat=True))
    if number not in numbers:
        if not numbers:
            raise CommandError(
                _("%(slug)s has no round %(number)s: it has no rounds yet.")
                % {"slug": tournament.slug, "number": number}
            )
        raise CommandError(
            _("%(slug)s has no round %(number)s (its rounds: %(rounds)s).")
            % {"slug": tournament.slug, "number": number, "rounds": ", ".join(map(str, numbers))}
        )
    return number


def printout_write(
    command: BaseCommand, *, tournament: Tournament, printout: Printout, output: Path, site: str
) -> None:
    try:
        pdf = printout_pdf(printout, tournament=tournament, base_url=site + "/")
    except ValueError as exc:
        # Without DEBUG the stylesheet comes from the collected static files (whitenoise's
        # manifest); a checkout that never collected them cannot print.
        if "staticfiles manifest" not in str(exc):
            raise
        raise CommandError(
            _(
                "The static files have not been collected: run `%(command)s collectstatic "
                "--noinput` first (or set DEBUG=1)."
            )
            % {"command": manage_command()}
        ) from exc
    try:
        output.write_bytes(pdf)
    except OSError as exc:
        raise CommandError(
            _("Cannot write %(file)s: %(reason)s") % {"file": output, "reason": os_reason(exc)}
        ) from exc
    command.stdout.write(_("Written: %(file)s.") % {"file": output})
