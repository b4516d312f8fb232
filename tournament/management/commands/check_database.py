"""Say plainly whether the database in the settings can be reached (before serving).

``manage.py check_database`` exits 0 when the database answers and has every migration, and 1
with one paragraph naming the database (never its password) otherwise. ``make run`` and
``manage.py serve`` call it; start gunicorn after it (``check_database && gunicorn ...``).
"""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import CommandParser
from django.utils.translation import gettext as _

from tournament.management.base import SiteCommand
from tournament.venue.readiness import database_description, database_problem


class Command(SiteCommand):
    help = "Check that the database can be reached (and is migrated); a plain message if not."
    requires_system_checks = []

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--no-migrations",
            action="store_true",
            help="only check that the database answers (before running migrate)",
        )

    def handle(self, *args: object, no_migrations: bool, **options: Any) -> None:
        problem = database_problem(migrations=not no_migrations)
        if problem:
            self.stderr.write(problem)
            sys.exit(1)
        if options["verbosity"] >= 1:
            self.stdout.write(
                _("The database answers: %(where)s.") % {"where": database_description()}
            )
