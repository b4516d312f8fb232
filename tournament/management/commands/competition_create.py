"""Create a competition (a season of evenings); its slug is the last line printed."""

from typing import Any

from django.core.management.base import CommandError, CommandParser
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament.clubs.commands import add_club_argument, club_option
from tournament.errors import Refused
from tournament.management.base import SiteCommand
from tournament.management.options import tournament_by_slug
from tournament.models import Competition
from tournament.season.services import CompetitionSettings, competition_create


class Command(SiteCommand):
    help = (
        "Create a competition over tournament evenings: all evenings count, or the best K; "
        "members below the minimum of evenings are listed unranked. Prints the slug last."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--name", required=True, help="the competition's name")
        parser.add_argument("--season", default="", help="the season, e.g. 2026-2027")
        parser.add_argument(
            "--tournament",
            action="append",
            default=[],
            metavar="SLUG",
            help="a tournament that is an evening of it (repeat for more, in date order)",
        )
        parser.add_argument(
            "--best",
            type=int,
            default=None,
            metavar="K",
            help="count each member's best K evenings (default: all)",
        )
        parser.add_argument(
            "--min-evenings",
            type=int,
            default=0,
            metavar="M",
            help="members with fewer evenings are listed unranked (default: 0)",
        )
        parser.add_argument(
            "--ranking",
            choices=[choice.value for choice in Competition.Ranking],
            default=Competition.Ranking.BEST.value,
            help="best: the total of the best K evenings (the default); average: the average "
            "points per evening played",
        )
        parser.add_argument(
            "--public", action="store_true", help="show the season standings on a public page"
        )
        parser.add_argument(
            "--season-seating",
            action="store_true",
            help="round 1 of a new evening seats members away from those they met most this season",
        )
        add_club_argument(parser)

    def handle(
        self, *args: object, name: str, tournament: list[str], club: str | None, **options: Any
    ) -> None:
        if not name.strip():
            raise CommandError(_("--name is empty: give the competition a name."))
        tournaments = [tournament_by_slug(slug) for slug in tournament]
        owner = tournaments[0].club if tournaments and club is None else club_option(club)
        settings = CompetitionSettings(
            name=name,
            season=options["season"],
            best=options["best"],
            min_evenings=options["min_evenings"],
            ranking=Competition.Ranking(options["ranking"]),
            public=options["public"],
            season_seating=options["season_seating"],
        )
        try:
            competition = competition_create(club=owner, settings=settings, tournaments=tournaments)
        except Refused as refused:
            raise CommandError("\n".join(refused.lines())) from None
        evenings = competition.evenings.count()
        self.stdout.write(
            ngettext("%(name)s (%(count)s evening)", "%(name)s (%(count)s evenings)", evenings)
            % {"name": competition, "count": evenings}
        )
        self.stdout.write(competition.slug)
