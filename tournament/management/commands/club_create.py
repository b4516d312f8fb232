"""Create a club on a site of many clubs: ``manage.py club_create --name NAME --admin USERNAME``.

The club gets ``USERNAME`` as its first club admin. A new account is made with a generated
password, printed once; an existing account keeps its password and gets the role. The club's
slug (its short name in addresses and commands) is the last line printed.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.utils.translation import gettext as _

from tournament.clubs.services import club_create
from tournament.errors import Refused
from tournament.management.base import SiteCommand
from tournament.management.commands.ensure_director import generated_password


class Command(SiteCommand):
    help = (
        "Create a club with its first club admin (a new account gets a generated password, "
        "printed once). Prints the club's short name last."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--name", required=True, help="the club's name, as the pages show it")
        parser.add_argument(
            "--admin",
            required=True,
            metavar="USERNAME",
            help="the club's first club admin: an existing account, or a new one",
        )

    def handle(self, *args: object, name: str, admin: str, **options: Any) -> None:
        if not name.strip():
            raise CommandError(_("--name is empty: give the club a name."))
        username_checked(admin)
        with transaction.atomic():
            user, password = admin_account(admin)
            try:
                club = club_create(name=name, admin=user)
            except Refused as refused:
                raise CommandError(refused.message) from None
        self.stdout.write(_("Club created: %(club)s.") % {"club": club})
        admin_announce(self, admin, password)
        self.stdout.write(club.slug)


def username_checked(admin: str) -> None:
    """``--admin``'s username as Django checks it, or the command stops saying why."""
    try:
        UnicodeUsernameValidator()(admin)
    except ValidationError as error:
        raise CommandError(f"--admin {admin!r}: {' '.join(error.messages)}") from None


def admin_account(admin: str) -> tuple[User, str | None]:
    """The account named ``admin``, made with a generated password (returned) if there is none."""
    users = get_user_model().objects
    user = users.filter(username=admin).first()
    if user is not None:
        return user, None
    password = generated_password()
    return users.create_user(username=admin, password=password), password


def admin_announce(command: BaseCommand, admin: str, password: str | None) -> None:
    """Who the club's admin is; a new account's password, once."""
    if password is None:
        command.stdout.write(
            _("%(name)s is its club admin (an existing account: its password is unchanged).")
            % {"name": admin}
        )
        return
    command.stdout.write(_("Its club admin can sign in with:"))
    command.stdout.write("  " + _("username: %(name)s") % {"name": admin})
    command.stdout.write("  " + _("password: %(password)s") % {"password": password})
    command.stdout.write(_("This password is shown only once: write it down."))
