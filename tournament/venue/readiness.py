"""Checks of the site's own configuration: the secret key, and whether the database answers
(``manage.py check_database``, ``manage.py serve``)."""

from __future__ import annotations

from collections.abc import Sequence

from django.apps import AppConfig
from django.conf import settings
from django.core.checks import Error, Tags, Warning, register
from django.core.exceptions import ImproperlyConfigured
from django.db import DatabaseError, connections
from django.db.migrations.executor import MigrationExecutor
from django.utils.translation import gettext as _

from tournament.text import manage_command, settings_file

NO_KEY_MESSAGE = (
    "SECRET_KEY is not set. Set it in the environment or in .env (a long random string), or let "
    "the site keep one in the file .secret_key (SECRET_KEY_FILE), or set DEBUG=1 for development."
)


def secret_key_set() -> bool:
    try:
        return bool(settings.SECRET_KEY)
    except ImproperlyConfigured:  # Django refuses to hand out an empty key
        return False


def secret_key_message() -> str:
    problem = getattr(settings, "SECRET_KEY_PROBLEM", "")
    return f"SECRET_KEY is not set. {problem}" if problem else NO_KEY_MESSAGE


def require_secret_key() -> None:
    """Refuse to serve the site without a secret key (sessions, CSRF and the sign-in cookie are
    signed with it)."""
    if not secret_key_set():
        raise ImproperlyConfigured(secret_key_message())


@register(Tags.security, deploy=True)
def secret_key_check(
    app_configs: Sequence[AppConfig] | None = None, **kwargs: object
) -> list[Error]:
    return [] if secret_key_set() else [Error(secret_key_message(), id="tournament.E001")]


@register(Tags.security, deploy=True)
def site_url_for_mail_check(
    app_configs: Sequence[AppConfig] | None = None, **kwargs: object
) -> list[Warning]:
    """A site that sends e-mail makes the links in it (password reset, invitations) with
    ``SITE_URL``; without it, with the address the browser sent, whose port a visitor chooses."""
    if settings.EMAIL_HOST and not getattr(settings, "SITE_URL", ""):
        return [
            Warning(
                "EMAIL_HOST is set but SITE_URL is not: the links in the site's e-mails "
                "(password reset, invitations) are then made with the address the browser sent.",
                hint="Set SITE_URL to the site's address, e.g. SITE_URL=https://bollen.example.org",
                id="tournament.W001",
            )
        ]
    return []


def database_description(alias: str = "default") -> str:
    """Which database the settings name, without the password: ``PostgreSQL at host:port,
    database "bollen", user "bollen"`` or ``SQLite file /path/db.sqlite3``."""
    config = connections[alias].settings_dict
    engine = config["ENGINE"].rsplit(".", 1)[-1]
    if connections[alias].vendor == "sqlite":
        return _("SQLite file %(name)s") % {"name": config["NAME"]}
    return _('%(engine)s at %(host)s:%(port)s, database "%(name)s", user "%(user)s"') % {
        "engine": {"postgresql": "PostgreSQL"}.get(engine, engine),
        "host": config.get("HOST") or "localhost",
        "port": config.get("PORT") or "5432",
        "name": config.get("NAME") or "",
        "user": config.get("USER") or "",
    }


def _reason(error: Exception, password: str) -> str:
    text = " ".join(str(error).split()) or error.__class__.__name__
    return text.replace(password, "***") if password else text


def database_problem(alias: str = "default", *, migrations: bool = True) -> str | None:
    """``None`` when the database answers (and, with ``migrations``, has every migration);
    otherwise one plain paragraph that says which database, what it answered and what to do,
    never the password."""
    connection = connections[alias]
    password = connection.settings_dict.get("PASSWORD") or ""
    where = database_description(alias)
    try:
        connection.ensure_connection()
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        if migrations:
            executor = MigrationExecutor(connection)
            pending = executor.migration_plan(executor.loader.graph.leaf_nodes())
            if pending:
                return _(
                    "The database (%(where)s) answers but is not up to date: %(count)s "
                    "changes are waiting. Run: %(command)s migrate"
                ) % {"where": where, "count": len(pending), "command": manage_command()}
    except DatabaseError as error:
        if connection.vendor == "sqlite":
            advice = _(
                "Check DATABASE_URL (in %(file)s or the environment) and that the file's folder "
                "exists and may be written by this user, then start again."
            ) % {"file": settings_file()}
        else:
            advice = _(
                "Check DATABASE_URL (in %(file)s or the environment: password, host, port, "
                "database name) and that PostgreSQL is running, then start again."
            ) % {"file": settings_file()}
        return _("Bollen cannot reach its database: %(where)s. It answered: “%(reason)s”.") % {
            "where": where,
            "reason": _reason(error, password),
        } + (" " + advice)
    finally:
        connection.close()
    return None


@register(Tags.database)
def database_reachable_check(
    app_configs: Sequence[AppConfig] | None = None,
    databases: Sequence[str] | None = None,
    **kwargs: object,
) -> list[Error]:
    """``manage.py check --database default`` (and ``migrate``) stop with the plain paragraph
    when the database cannot be reached, instead of saying "no issues"."""
    errors = []
    for alias in databases or ():
        problem = database_problem(alias, migrations=False)
        if problem:
            errors.append(Error(problem, id="tournament.E002"))
    return errors
