"""Read photographed score sheets: per photo the table, every box's digits and the boxes to look
at, as JSON (what the round page's "Photos of score sheets" fills the sheets with)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import CommandParser
from django.utils.translation import gettext as _

from tournament.management.base import SiteCommand
from tournament.management.options import TOURNAMENT_SLUG_HELP, tournament_by_slug
from tournament.photos.reading import PhotoProblem, read_sheet_photo
from tournament.text import os_reason


class Command(SiteCommand):
    help = (
        "Read photos (or scans) of a tournament's printed score sheets and print, as JSON, one "
        'object per file: {"file", "round", "table", "deals": [{"deal", "bids", "tricks"}], '
        '"uncertain": [[deal, row, "bid"|"tricks"]]} (rows as printed, null for an empty box), '
        'or {"file", "problem"} when the photo cannot be read. Nothing is stored.'
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help=TOURNAMENT_SLUG_HELP)
        parser.add_argument(
            "files", nargs="+", type=Path, metavar="FILE", help="a photo of a score sheet"
        )

    def handle(self, *args: Any, slug: str, files: list[Path], **options: Any) -> None:
        tournament = tournament_by_slug(slug)
        results = []
        for file in files:
            try:
                data = file.read_bytes()
            except OSError as exc:
                problem = PhotoProblem(
                    _("Cannot read %(file)s: %(reason)s") % {"file": file, "reason": os_reason(exc)}
                )
                results.append(problem.as_json(str(file)))
                continue
            results.append(read_sheet_photo(tournament, data).as_json(str(file)))
        self.stdout.write(json.dumps(results, ensure_ascii=False, indent=1))
