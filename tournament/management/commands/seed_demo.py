"""Load the demo data for the README's run command: a director account and a demo tournament."""

import json
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from tournament.models import Tournament
from tournament.services.portable import tournament_import

DEMO_USERNAME = "directeur"
DEMO_PASSWORD = "bollen-demo-2026"  # noqa: S105 - the printed password of a local demo
DEMO_FILE = Path(settings.BASE_DIR) / "seeds" / "demo-tournament.json"


class Command(BaseCommand):
    help = "Create the demo director account and load the demo tournament if they are missing."

    @transaction.atomic
    def handle(self, *args, **options) -> None:
        user_model = get_user_model()
        director = user_model.objects.filter(username=DEMO_USERNAME).first()
        if director is None:
            director = user_model.objects.create_superuser(
                username=DEMO_USERNAME, password=DEMO_PASSWORD
            )
        document = json.loads(DEMO_FILE.read_text(encoding="utf-8"))
        tournament = Tournament.objects.filter(name=document["name"]).first()
        if tournament is None:
            tournament = tournament_import(document=document, director=director)
            self.stdout.write(f"Loaded the demo tournament '{tournament.name}'.")
        self.stdout.write(
            f"Demo director account: username '{DEMO_USERNAME}', password '{DEMO_PASSWORD}'"
        )
