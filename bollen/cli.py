"""The ``bollen`` command of an installed site (``pip install bollen-toernooi``):

- ``bollen serve [--bind HOST:PORT] [--threads N]``: what ``make run`` serves, for a club's own
  server: checks the database, brings it up to date (``migrate``), then ``manage.py serve``
  (the static files collected into the data folder, waitress on ``BIND``, default
  ``0.0.0.0:8000``). It loads no demo tournament and makes no account: it says how to make the
  first director when there is none (``bollen manage ensure_director``).
- ``bollen manage COMMAND [ARGS ...]``: any ``manage.py`` command
  (``DJANGO_SETTINGS_MODULE=bollen.settings`` unless set).
- ``bollen version`` (or ``--version``): the installed version.

It speaks Dutch like the site's commands. Its own words come from the site's catalogue, read
with Python's gettext: ``bollen --help`` needs no settings and writes nothing. A setting the site
cannot work with (a data folder it cannot make, PostgreSQL without its driver) is one plain
message, not a traceback.
"""

from __future__ import annotations

import gettext
import os
import sys
import textwrap
from importlib import metadata
from pathlib import Path

from bollen.env import data_dir_find

SETTINGS_MODULE = "bollen.settings"
CODE_DIR = Path(__file__).resolve().parent.parent
_catalogue = gettext.translation(
    "django", localedir=CODE_DIR / "tournament" / "locale", languages=["nl"], fallback=True
)
_ = _catalogue.gettext


def version() -> str:
    try:
        return metadata.version("bollen-toernooi")
    except metadata.PackageNotFoundError:  # a checkout that was never installed
        return "?"


def help_text() -> str:
    data_dir = data_dir_find(code_dir=CODE_DIR)
    usage = _("Usage: %(usage)s") % {"usage": _("bollen COMMAND [ARGUMENTS ...]")}
    commands = [
        (
            "serve [--bind HOST:PORT] [--threads N]",
            _(
                "bring the database up to date and serve the site for the club room "
                "(BIND chooses the address, default 0.0.0.0:8000)"
            ),
        ),
        (
            _("manage COMMAND [ARGUMENTS ...]"),
            _("any manage.py command, e.g. bollen manage club_create --help"),
        ),
        ("version, --version", _("the installed version")),
        ("--help", _("this help")),
    ]
    lines = [
        usage,
        "",
        _("The Bollen tournament site, installed as a package."),
        _("Everything the site writes is kept in the data folder (BOLLEN_DATA_DIR): %(folder)s")
        % {"folder": data_dir},
        "",
        _("Commands:"),
    ]
    for name, text in commands:
        lines += [
            f"  {name}",
            textwrap.fill(text, 79, initial_indent=" " * 6, subsequent_indent=" " * 6),
        ]
    return "\n".join(lines) + "\n"


def _setup() -> None:
    """Django with the site's settings; a setting it cannot work with ends the command with the
    settings' own message (Dutch and English: it comes before the translations)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", SETTINGS_MODULE)
    import django
    from django.core.exceptions import ImproperlyConfigured

    try:
        django.setup()
    except ImproperlyConfigured as error:
        sys.stderr.write(f"{error}\n")
        raise SystemExit(1) from None


def django_command(argv: list[str]) -> int:
    """``manage.py``'s work: ``argv[0]`` is the name the commands' help shows."""
    _setup()
    from django.core.management import execute_from_command_line

    execute_from_command_line(argv)
    return 0


def serve(args: list[str]) -> int:
    if "-h" in args or "--help" in args:
        return django_command(["bollen", "serve", *args])
    _setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    # A plain message, and exit 1, when the database cannot be reached.
    call_command("check_database", "--no-migrations", verbosity=0)
    call_command("migrate", interactive=False, verbosity=0)
    from tournament.models import ClubRole

    nobody = not (
        get_user_model().objects.filter(is_superuser=True, is_active=True).exists()
        or ClubRole.objects.exists()
    )
    if nobody:
        sys.stdout.write(
            _(
                "There is no club with people yet. A site for many clubs: bollen manage "
                "club_create --name NAME --admin USERNAME (the password is shown once). One "
                "club's own laptop: bollen manage ensure_director"
            )
            + "\n"
        )
    return django_command(["bollen", "serve", *args])


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    command, rest = (args[0], args[1:]) if args else ("--help", [])
    if command in {"-h", "--help", "help"}:
        sys.stdout.write(help_text())
        return 0
    if command in {"version", "--version"}:
        sys.stdout.write(f"bollen {version()}\n")
        return 0
    if command == "serve":
        return serve(rest)
    if command == "manage":
        return django_command(["bollen manage", *rest])
    sys.stderr.write(
        _("Unknown command: %(command)s. Choose serve, manage or version (bollen --help).")
        % {"command": command}
        + "\n"
    )
    return 2


if __name__ == "__main__":
    sys.exit(main())
