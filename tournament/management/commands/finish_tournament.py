"""Finish a tournament from the command line, as its director's "Finish the tournament" does
(``--reopen``: open it again). Refused, naming everything still open, when it cannot finish."""

from typing import Any

from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from tournament.errors import Refused
from tournament.management.options import TOURNAMENT_SLUG_HELP, tournament_by_slug
from tournament.tournaments.finish import tournament_finish, tournament_reopen


class Command(BaseCommand):
    help = (
        "Finish a tournament: its standings become final and it becomes read-only, with a "
        "final backup. Refused, listing what is still open (unfinished tables, unconfirmed "
        "sheets, a seating not published), when it cannot. --reopen opens it again."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help=TOURNAMENT_SLUG_HELP)
        parser.add_argument(
            "--reopen", action="store_true", help="open a finished tournament again"
        )
        parser.add_argument(
            "--by",
            metavar="USERNAME",
            help="the account recorded as finishing or reopening it (default: none)",
        )

    def handle(
        self, *args: object, slug: str, reopen: bool, by: str | None, **options: Any
    ) -> None:
        tournament = tournament_by_slug(slug)
        user = None
        if by is not None:
            user = User.objects.filter(username=by).first()
            if user is None:
                raise CommandError(_("No account is called “%(name)s”.") % {"name": by})
        if reopen:
            if not tournament.finished:
                self.stdout.write(
                    _("%(name)s is not finished: nothing to reopen.") % {"name": tournament.name}
                )
                return
            tournament_reopen(tournament=tournament, by_user=user)
            self.stdout.write(_("%(name)s is open again.") % {"name": tournament.name})
            return
        if tournament.finished:
            self.stdout.write(
                _("%(name)s was finished already, at %(at)s.")
                % {"name": tournament.name, "at": f"{tournament.finished_at:%Y-%m-%d %H:%M}"}
            )
            return
        try:
            finished = tournament_finish(tournament=tournament, by_user=user)
        except Refused as refused:
            lines = "\n".join(f"  {line}" for line in refused.lines())
            raise CommandError(
                _("%(name)s cannot be finished yet; still open:") % {"name": tournament.name}
                + "\n"
                + lines
            ) from None
        self.stdout.write(
            _(
                "%(name)s is finished: its standings are final. The final backup is written to "
                "the backup folder."
            )
            % {"name": finished.name}
        )
