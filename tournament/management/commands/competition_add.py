"""Add a tournament to a competition as its next evening and match its players to members."""

from typing import Any

from django.core.management.base import CommandError, CommandParser
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament.errors import Refused
from tournament.management.base import SiteCommand
from tournament.management.options import (
    COMPETITION_SLUG_HELP,
    TOURNAMENT_SLUG_HELP,
    competition_by_slug,
    tournament_by_slug,
)
from tournament.season.services import competition_add


class Command(SiteCommand):
    help = (
        "Add a tournament as the competition's next evening. Its players are matched to the "
        "register by name and club; near matches wait on the site's questions page."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help=COMPETITION_SLUG_HELP)
        parser.add_argument(
            "--tournament", required=True, metavar="SLUG", help=TOURNAMENT_SLUG_HELP
        )

    def handle(self, *args: object, slug: str, tournament: str, **options: Any) -> None:
        competition = competition_by_slug(slug)
        try:
            evening = competition_add(
                competition=competition, tournament=tournament_by_slug(tournament)
            )
        except Refused as refused:
            raise CommandError("\n".join(refused.lines())) from None
        asked = evening.tournament.players.filter(member=None).count()
        self.stdout.write(
            _("Evening %(number)s: %(name)s")
            % {"number": evening.number, "name": evening.tournament.name}
        )
        if asked:
            self.stdout.write(
                ngettext(
                    "%(count)s player may be a member already: answer on the site.",
                    "%(count)s players may be members already: answer on the site.",
                    asked,
                )
                % {"count": asked}
            )
