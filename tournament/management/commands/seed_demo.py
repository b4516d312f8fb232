"""Load the demo tournament for the README's run command, so a newcomer can look around.

It creates no account: ``ensure_director`` makes the director with a generated password. The
demo tournament is directed by the first superuser, if there is one (superusers direct every
tournament anyway). It goes in the site's one club; a site of several clubs (a hosted one)
gets no demo.
"""

import json
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext as _

import tournament
from tournament.clubs.services import club_sole
from tournament.management.base import SiteCommand
from tournament.models import Club, Tournament
from tournament.tournament_file.importing import tournament_import

DEMO_NAME = "demo-tournament.json"


def demo_file() -> Path:
    """The demo tournament's file: inside the package in an installed wheel (setup.py copies
    it there), else the checkout's ``seeds/``."""
    packaged = Path(tournament.__file__).resolve().parent / "seeds" / DEMO_NAME
    return packaged if packaged.is_file() else Path(settings.BASE_DIR) / "seeds" / DEMO_NAME


class Command(SiteCommand):
    help = "Load the demo tournament if it is missing."

    @transaction.atomic
    def handle(self, *args: object, **options: Any) -> None:
        document = json.loads(demo_file().read_text(encoding="utf-8"))
        if Club.objects.count() > 1:
            return
        club = club_sole()
        if Tournament.objects.filter(club=club, name=document["name"]).exists():
            return
        director = (
            get_user_model()
            .objects.filter(is_superuser=True, is_active=True)
            .order_by("pk")
            .first()
        )
        tournament = tournament_import(document=document, club=club, director=director)
        self.stdout.write(_("Loaded the demo tournament “%(name)s”.") % {"name": tournament.name})
