"""Add a tournament to a competition as its next evening and match its players to members."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournament.errors import Refused
from tournament.management.options import competition_by_slug, tournament_by_slug
from tournament.season.services import competition_add


class Command(BaseCommand):
    help = (
        "Add a tournament as the competition's next evening. Its players are matched to the "
        "register by name and club; near matches wait on the site's questions page."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("--tournament", required=True, metavar="SLUG")

    def handle(self, *args: object, slug: str, tournament: str, **options: Any) -> None:
        competition = competition_by_slug(slug)
        try:
            evening = competition_add(
                competition=competition, tournament=tournament_by_slug(tournament)
            )
        except Refused as refused:
            raise CommandError("\n".join(refused.lines())) from None
        asked = evening.tournament.players.filter(member=None).count()
        self.stdout.write(f"Evening {evening.number}: {evening.tournament.name}")
        if asked:
            self.stdout.write(f"{asked} players may be members already: answer on the site.")
