"""Print a round's score sheets to a PDF, with each table's QR code, as the print page does;
with ``--layout`` also where every box is on each page (the sheets a photo can be read from)."""

import json
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError, CommandParser
from django.utils.translation import gettext as _

from tournament.management.options import RoundPrintoutCommand
from tournament.models import Tournament
from tournament.printing.documents import PrintedSheet
from tournament.printing.printouts import Printout, sheets_printout
from tournament.printing.sheet_layout import pages_layout
from tournament.text import os_reason


class Command(RoundPrintoutCommand):
    help = (
        "Write a round's score sheets as a PDF (default: the current round). Their QR codes "
        "open the address for phones (said when written); tables without a link get one."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        super().add_arguments(parser)
        parser.add_argument(
            "--layout",
            type=Path,
            default=None,
            help=(
                "also write, as JSON, where every bid and tricks box is on each page (in mm "
                "from the page's top-left corner)"
            ),
        )

    def handle(self, *args: Any, layout: Path | None = None, **options: Any) -> None:
        self.sheets: list[PrintedSheet] = []
        super().handle(*args, **options)
        if layout is None:
            return
        pages = pages_layout([(s.round, s.table, s.geometry) for s in self.sheets])
        try:
            layout.write_text(json.dumps({"pages": pages}, indent=1) + "\n", encoding="utf-8")
        except OSError as exc:
            raise CommandError(
                _("Cannot write %(file)s: %(reason)s") % {"file": layout, "reason": os_reason(exc)}
            ) from exc
        self.stdout.write(_("Written: %(file)s.") % {"file": layout})

    def printout(self, tournament: Tournament, number: int, *, site: str) -> Printout | None:
        printout = sheets_printout(tournament, number, site=site, by_user=None)
        forms = printout.context.get("forms") if printout else None
        self.sheets = forms if isinstance(forms, list) else []
        return printout

    def qr_codes(self, printout: Printout) -> int:
        forms = printout.context.get("forms")
        return len(forms) if isinstance(forms, list) else 0
