"""Make sure a director account exists, and give one a new password when asked.

``manage.py ensure_director`` creates the first director (a superuser, default username
``directeur``) with a generated password when no active superuser exists, and prints the
password once. On a laptop (a site of at most one club) it also makes the club when there is
none yet (named later on the site) and makes the directors its club admins.
On a site whose clubs already have admins of their own (a hosted site, its clubs made with
``club_create``) it makes no director: a superuser sees every club and is on no club's list of
people, so it refuses and names what to use instead.
``--new-password`` gives the named account (``--username``; by default the only director) a new
generated password. It never waits for input: ``make run``, scripts and a
production set-up call it without a terminal.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User, UserManager
from django.core.management.base import CommandError, CommandParser
from django.db import transaction
from django.db.models import QuerySet
from django.utils.translation import gettext as _

from tournament.clubs.services import club_sole
from tournament.management.base import SiteCommand
from tournament.models import Club, ClubRole
from tournament.text import manage_command

DEFAULT_USERNAME = "directeur"
# The demo password the README used to print: an account that still has it gets a new one.
PUBLISHED_PASSWORDS = ("bollen-demo-2026",)
# No look-alikes (0/o, 1/l/i): the password is typed over from a terminal.
ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"


def generated_password() -> str:
    """Four groups of four characters (about 79 bits), e.g. ``k7mq-x3tp-9hwa-r2fd``."""
    return "-".join("".join(secrets.choice(ALPHABET) for _ in range(4)) for _ in range(4))


class Command(SiteCommand):
    help = (
        "Create the first director account with a generated password if no active superuser "
        "exists; with --new-password give an account a new generated password."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--username", help=f"the account's username (default: {DEFAULT_USERNAME!r})"
        )
        parser.add_argument(
            "--new-password",
            action="store_true",
            help="give the account a new generated password (prints it once)",
        )

    def handle(self, *args: object, **options: Any) -> None:
        with transaction.atomic():
            self._ensure(**options)
            self._ensure_club()

    def _ensure_club(self) -> None:
        """The laptop's one club, with every active superuser as its club admin."""
        if Club.objects.count() > 1:
            return  # a hosted site: its clubs are made with club_create
        club = club_sole()
        for user in get_user_model().objects.filter(is_superuser=True, is_active=True):
            ClubRole.objects.get_or_create(
                club=club, user=user, defaults={"role": ClubRole.Role.ADMIN}
            )

    def _ensure(self, *, username: str | None, new_password: bool, **options: object) -> None:
        users = get_user_model().objects
        directors = users.filter(is_superuser=True, is_active=True).order_by("pk")
        if username is not None and not username.strip():
            raise CommandError(_("The username is empty."))

        published = self._with_published_password(users)
        if published is not None:
            self._give_password(
                published,
                _("The account had the demo password from the old README; it has a new one:"),
            )
            if not new_password or username in (None, published.get_username()):
                return

        if new_password:
            name = username or self._only_director(directors)
            user = users.filter(username=name).first()
            if user is None and directors.exists():
                raise CommandError(
                    _("There is no account named “%(name)s”. Director accounts: %(names)s.")
                    % {"name": name, "names": ", ".join(d.get_username() for d in directors)}
                )
            if user is None:
                self._refuse_on_a_site_of_clubs()
                self._create(users, name)
            else:
                self._give_password(user, _("The account has a new password."))
            return

        if not directors.exists():
            self._refuse_on_a_site_of_clubs()
            name = username or DEFAULT_USERNAME
            user = users.filter(username=name).first()
            if user is None:
                self._create(users, name)
            else:  # an ordinary or switched-off account of that name becomes the director
                user.is_superuser = user.is_staff = user.is_active = True
                self._give_password(user, _("The account is now the director, with a password:"))
            return

        names = ", ".join(d.get_username() for d in directors)
        self.stdout.write(
            _(
                "The director account exists (%(names)s). Forgot the password? "
                "Make a new one: %(command)s"
            )
            % {"names": names, "command": f"{manage_command()} ensure_director --new-password"}
        )

    def _refuse_on_a_site_of_clubs(self) -> None:
        """No new director on a site whose clubs have admins of their own: the laptop's director
        is a superuser, who would see every club's members and evenings unseen by them."""
        clubs = list(Club.objects.order_by("name", "slug"))
        if len(clubs) < 2 and not ClubRole.objects.filter(role=ClubRole.Role.ADMIN).exists():
            return  # a laptop: no club yet, or its one club without an admin
        raise CommandError(
            _(
                "This site has clubs with their own admins (%(clubs)s), so no director account "
                "is made: it would see every club's members and evenings. A club and its admin: "
                "%(create)s. A forgotten password: %(change)s."
            )
            % {
                "clubs": ", ".join(c.name or c.slug for c in clubs),
                "create": f"{manage_command()} club_create --name NAME --admin USERNAME",
                "change": f"{manage_command()} changepassword USERNAME",
            }
        )

    def _with_published_password(self, users: UserManager[User]) -> User | None:
        for user in users.filter(is_active=True, username=DEFAULT_USERNAME):
            if any(user.check_password(p) for p in PUBLISHED_PASSWORDS):
                return user
        return None

    def _only_director(self, directors: QuerySet[User]) -> str:
        names = [d.get_username() for d in directors[:2]]
        if len(names) == 1:
            return names[0]
        if not names:
            return DEFAULT_USERNAME
        raise CommandError(
            _("There is more than one director account; say which: --username NAME (%(names)s).")
            % {"names": ", ".join(d.get_username() for d in directors)}
        )

    def _create(self, users: UserManager[User], name: str) -> None:
        password = generated_password()
        users.create_superuser(username=name, password=password)
        self._announce(_("The director account has been created. Sign in with:"), name, password)

    def _give_password(self, user: User, heading: str) -> None:
        from axes.utils import reset

        password = generated_password()
        user.set_password(password)
        user.save()
        reset(username=user.get_username())  # a locked-out director can sign in again at once
        self._announce(heading, user.get_username(), password)

    def _announce(self, heading: str, name: str, password: str) -> None:
        self.stdout.write(heading)
        self.stdout.write("  " + _("username: %(name)s") % {"name": name})
        self.stdout.write("  " + _("password: %(password)s") % {"password": password})
        self.stdout.write(
            _(
                "This password is shown only once: write it down. Change it on the site "
                "(“Change password” at the top, after signing in)."
            )
        )
