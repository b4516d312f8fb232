"""The venue server: ``manage.py serve [--bind HOST:PORT] [--threads N]``.

What ``make run`` starts (also on Windows, where there is no shell script): it checks the secret
key and the database, collects the static files (with ``DEBUG`` off the site serves them itself,
through whitenoise), then serves the site with waitress, a production WSGI server in pure Python,
and prints in plain words which address the laptop and the phones must open.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError, CommandParser
from django.db import DatabaseError
from django.utils.translation import gettext as _

from tournament.management.base import SiteCommand
from tournament.models import Club
from tournament.text import serve_command
from tournament.venue import network
from tournament.venue.readiness import database_problem, secret_key_message, secret_key_set
from tournament.venue.server_record import server_bind_record
from tournament.venue.site_address import chosen_site_address

# The club's network: the phones must reach the laptop (BIND=127.0.0.1:8000 for this laptop only).
DEFAULT_BIND = "0.0.0.0:8000"
# Enough for 60 phones at their tables: a request takes milliseconds; waiting ones queue.
DEFAULT_THREADS = 16
ALL_INTERFACES = {"0.0.0.0", "::", ""}  # noqa: S104


def parse_bind(bind: str) -> tuple[str, int]:
    """``HOST:PORT``, ``:PORT`` or ``PORT`` (all interfaces); ``[::1]:8000`` for IPv6."""
    text = bind.strip()
    host, sep, port_text = text.rpartition(":")
    if not sep:
        host, port_text = "", text
    host = host.strip("[]") or "0.0.0.0"  # noqa: S104
    try:
        port = int(port_text)
    except ValueError:
        port = 0
    if not 0 < port < 65536:
        raise CommandError(
            _("BIND=%(bind)s is not an address and port; write it like 0.0.0.0:8000.")
            % {"bind": bind}
        )
    return host, port


def static_files_stale() -> bool:
    """Whether ``collectstatic`` must run: no manifest yet, or a static file (the project's or
    an installed app's, after an update) is newer than it. Skipping it saves seconds a start."""
    from django.contrib.staticfiles.finders import get_finders

    manifest = Path(settings.STATIC_ROOT) / "staticfiles.json"
    try:
        collected_at = manifest.stat().st_mtime
    except OSError:
        return True
    for finder in get_finders():
        for path, storage in finder.list([]):
            try:
                if Path(storage.path(path)).stat().st_mtime > collected_at:
                    return True
            except (OSError, NotImplementedError):
                return True
    return False


def _url(host: str, port: int) -> str:
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def configured_site_url() -> str:
    """The address for phones someone chose (``SITE_URL``, or on a laptop's one club its
    admin on the site), else ``''``."""
    try:
        clubs = list(Club.objects.order_by("pk")[:2])
        chosen = chosen_site_address(clubs[0] if len(clubs) == 1 else None)
    except DatabaseError:
        return (settings.SITE_URL or "").rstrip("/")
    return chosen.url if chosen is not None else ""


def banner(host: str, port: int) -> list[str]:
    """What the director reads when the server is up: where the laptop and the phones go."""
    everywhere = host in ALL_INTERFACES
    here = _url("127.0.0.1", port) if everywhere else _url(host, port)
    if not everywhere and network.is_loopback_host(host):
        return [
            _("Bollen is running, on this laptop only: %(here)s") % {"here": here},
            _("Phones cannot reach it (BIND=%(bind)s). For phones, start without BIND: %(command)s")
            % {"bind": f"{host}:{port}", "command": serve_command()},
        ]
    phones = configured_site_url()
    if not phones:
        address = network.primary_address() if everywhere else host
        if address is None:
            return [
                _("Bollen is running. On this laptop: %(here)s") % {"here": here},
                _(
                    "This laptop has no network, so phones cannot open the site. Connect the "
                    "laptop to the club's wifi and start again (Ctrl+C, then %(command)s)."
                )
                % {"command": serve_command()},
            ]
        phones = _url(address, port)
    return [
        _("Bollen is running. On this laptop: %(here)s  —  Phones: open %(phones)s")
        % {"here": here, "phones": phones}
    ]


class Command(SiteCommand):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.help = f"Serve the site with waitress (the venue server of {serve_command()})."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--bind",
            default=os.environ.get("BIND") or DEFAULT_BIND,
            help=f"HOST:PORT to listen on (default: $BIND or {DEFAULT_BIND})",
        )
        parser.add_argument(
            "--threads",
            type=int,
            default=DEFAULT_THREADS,
            help=f"requests served at once (default {DEFAULT_THREADS})",
        )

    def handle(self, *args: object, bind: str, threads: int, **options: Any) -> None:
        host, port = parse_bind(bind)
        if threads < 1:
            raise CommandError(_("--threads must be at least 1."))
        if not secret_key_set():
            self._stop(secret_key_message())
        problem = database_problem()
        if problem:
            self._stop(problem)
        if not settings.DEBUG and static_files_stale():
            # The pages name the static files by their hashed names from this manifest.
            call_command("collectstatic", interactive=False, verbosity=0)

        from waitress.server import create_server

        from bollen.wsgi import application

        listen = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
        try:
            server = create_server(
                application,
                listen=listen,
                threads=threads,
                ident="Bollen",
                max_request_body_size=settings.REQUEST_MAX_BYTES,
            )
        except OSError as error:
            self._stop(
                _(
                    "Cannot listen on %(bind)s: %(reason)s. Is Bollen already running in another "
                    "window? Stop that one, or choose another port: %(command)s"
                )
                % {
                    "bind": listen,
                    "reason": error.strerror or error,
                    "command": f"BIND=0.0.0.0:8001 {serve_command()}",
                }
            )
        # The commands in another window (print_sheets) make QR codes with this port.
        server_bind_record(listen)
        for line in banner(host, port):
            self.stdout.write(line)
        self.stdout.write(_("Ctrl+C stops it."))
        self.stdout.flush()
        try:
            server.run()  # returns on Ctrl+C
        except KeyboardInterrupt:
            pass
        finally:
            server.close()
        self.stdout.write(_("Bollen has stopped."))

    def _stop(self, message: str) -> None:
        self.stderr.write(message)
        sys.exit(1)
