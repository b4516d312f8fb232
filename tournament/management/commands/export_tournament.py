"""Write a tournament as a portable tournament file (version 1)."""

from typing import Any

from django.utils.translation import gettext as _

from tournament.management.options import (
    TOURNAMENT_SLUG_HELP,
    PortableFileCommand,
    tournament_by_slug,
)
from tournament.tournament_file.exporting import tournament_export


class Command(PortableFileCommand):
    help = (
        "Write a tournament as a v1 tournament file (to standard output, or -o FILE): the "
        "backup, with the site's records (sheet history, confirmations, table links, team)."
    )
    slug_help = TOURNAMENT_SLUG_HELP
    no_site_help = (
        "leave out the site's records (the table links' secrets, usernames and addresses): for "
        "handing the tournament to someone else"
    )

    def document(self, slug: str, *, site: bool) -> dict[str, Any]:
        return tournament_export(tournament=tournament_by_slug(slug), site=site)

    def what(self, document: dict[str, Any]) -> str:
        return _("the tournament file of “%(name)s”") % {"name": document["name"]}
