"""Finish a tournament from the command line, as its director's "Finish the tournament" does
(``--reopen``: open it again). Refused, naming everything still open, when it cannot finish."""

from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.core.management.base import CommandError, CommandParser
from django.utils.translation import gettext as _

from tournament.errors import Refused
from tournament.management.base import SiteCommand, moment_text
from tournament.management.options import TOURNAMENT_SLUG_HELP, tournament_by_slug
from tournament.models import Tournament, TournamentFinish
from tournament.text import manage_command
from tournament.tournaments.finish import tournament_finish, tournament_reopen


class Command(SiteCommand):
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
        if tournament.finished_at is not None:
            self.stdout.write(
                _("%(name)s was finished already, on %(at)s.")
                % {"name": tournament.name, "at": moment_text(tournament.finished_at)}
            )
            return
        try:
            finished = tournament_finish(tournament=tournament, by_user=user)
        except Refused as refused:
            raise CommandError(
                _("%(name)s cannot be finished yet; still open:") % {"name": tournament.name}
                + "".join(f"\n  {line}" for line in open_lines(refused))
            ) from None
        self.stdout.write(
            _("%(name)s is finished: its standings are final.") % {"name": finished.name}
        )
        self.stdout.write(final_backup_line(finished))


def open_lines(refused: Refused) -> list[str]:
    """What is open, a line each, with its round (and table) in front."""
    return refused.lines()


def final_backup_line(tournament: Tournament) -> str:
    """Where the final backup of a finish is, or what to do when it could not be written."""
    finish = (
        TournamentFinish.objects.filter(
            tournament=tournament, action=TournamentFinish.Action.FINISHED
        )
        .order_by("-at", "-pk")
        .first()
    )
    if finish is not None and finish.backup:
        path = Path(settings.BACKUP_DIR) / tournament.slug / finish.backup
        return _("The final backup: %(file)s") % {"file": path}
    return _(
        "The final backup could not be written (the server's log says why). Make one with: "
        "%(command)s export_tournament %(slug)s -o %(slug)s.json"
    ) % {"command": manage_command(), "slug": tournament.slug}
