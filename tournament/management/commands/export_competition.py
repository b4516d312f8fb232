"""Write a competition as a portable competition file (``docs/competition-file.md``)."""

from typing import Any

from django.utils.translation import ngettext

from tournament.management.options import (
    COMPETITION_SLUG_HELP,
    PortableFileCommand,
    competition_by_slug,
)
from tournament.season.file_export import competition_export


class Command(PortableFileCommand):
    help = (
        "Write a competition as a competition file (to standard output, or -o FILE): its "
        "settings, the member register and every evening as a v1 tournament file."
    )
    slug_help = COMPETITION_SLUG_HELP
    no_site_help = (
        "leave out each evening's site records (sheet history, confirmations, table links, "
        "team): for handing the season to someone else"
    )

    def document(self, slug: str, *, site: bool) -> dict[str, Any]:
        return competition_export(competition=competition_by_slug(slug), site=site)

    def what(self, document: dict[str, Any]) -> str:
        count = len(document["evenings"])
        return ngettext(
            "the competition file of “%(name)s” with %(count)s evening",
            "the competition file of “%(name)s” with %(count)s evenings",
            count,
        ) % {"name": document["name"], "count": count}
