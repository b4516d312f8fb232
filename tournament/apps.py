from django.apps import AppConfig
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.signals import connection_created
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class TournamentConfig(AppConfig):
    name = "tournament"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from tournament.venue import readiness  # noqa: F401  (registers the checks)

        post_migrate.connect(_create_cache_table, sender=self)
        connection_created.connect(_sqlite_query_params)


# Rows per INSERT stay reasonable (an import writes 8,000 cells per statement at most).
SQLITE_QUERY_PARAMS = 32766


def _sqlite_query_params(
    sender: type[BaseDatabaseWrapper], connection: BaseDatabaseWrapper, **kwargs: object
) -> None:
    """Django assumes SQLite's old limit of 999 values per statement, so an import of 55,000
    cells took 220 INSERTs; SQLite since 3.32 takes 32,766 (and says how many it takes)."""
    if connection.vendor != "sqlite":
        return
    import sqlite3

    limit = connection.connection.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER)
    connection.features.max_query_params = min(limit, SQLITE_QUERY_PARAMS)


def _create_cache_table(using: str = "default", **kwargs: object) -> None:
    """``migrate`` also creates the database cache's table (``CACHE=database``), so no
    deployment step can forget it; with the memory cache this does nothing."""
    from django.core.management import call_command

    call_command("createcachetable", database=using, verbosity=0)
