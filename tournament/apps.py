from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class TournamentConfig(AppConfig):
    name = "tournament"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from tournament.venue import readiness  # noqa: F401  (registers the checks)

        post_migrate.connect(_create_cache_table, sender=self)


def _create_cache_table(using: str = "default", **kwargs) -> None:
    """``migrate`` also creates the database cache's table (``CACHE=database``), so no
    deployment step can forget it; with the memory cache this does nothing."""
    from django.core.management import call_command

    call_command("createcachetable", database=using, verbosity=0)
