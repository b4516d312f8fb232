"""Finish a tournament from the command line, as its director's "Finish the tournament" does
(``--reopen``: open it again). Refused, naming everything still open, when it cannot finish."""

from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournament.errors import Refused
from tournament.management.options import tournament_by_slug
from tournament.tournaments.finish import tournament_finish, tournament_reopen


class Command(BaseCommand):
    help = (
        "Finish a tournament: its standings become final and it becomes read-only, with a "
        "final backup. Refused, listing what is still open (unfinished tables, unconfirmed "
        "sheets, a seating not published), when it cannot. --reopen opens it again."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument(
            "--reopen", action="store_true", help="Open a finished tournament again."
        )
        parser.add_argument(
            "--by",
            metavar="USERNAME",
            help="The account recorded as finishing or reopening it (default: none).",
        )

    def handle(
        self, *args: object, slug: str, reopen: bool, by: str | None, **options: Any
    ) -> None:
        tournament = tournament_by_slug(slug)
        user = None
        if by is not None:
            user = User.objects.filter(username=by).first()
            if user is None:
                raise CommandError(f"No account is called {by!r}.")
        if reopen:
            if not tournament.finished:
                self.stdout.write(f"{tournament.name} is not finished: nothing to reopen.")
                return
            tournament_reopen(tournament=tournament, by_user=user)
            self.stdout.write(f"{tournament.name} is open again.")
            return
        if tournament.finished:
            at = f"{tournament.finished_at:%Y-%m-%d %H:%M}"
            self.stdout.write(f"{tournament.name} was finished already, at {at}.")
            return
        try:
            finished = tournament_finish(tournament=tournament, by_user=user)
        except Refused as refused:
            lines = "\n".join(f"  {line}" for line in refused.lines())
            raise CommandError(
                f"{tournament.name} cannot be finished yet; still open:\n{lines}"
            ) from None
        self.stdout.write(
            f"{finished.name} is finished: its standings are final. The final backup is "
            "written to the backup folder."
        )
