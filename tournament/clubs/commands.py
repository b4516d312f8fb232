"""What the ``manage.py`` commands that make something share: the club it goes in
(``--club SHORT-NAME``; on a site of one club it may be left out)."""

from __future__ import annotations

from argparse import ArgumentParser

from django.core.management.base import CommandError

from tournament.clubs.services import club_by_slug_or_sole
from tournament.errors import Refused
from tournament.models import Club


def add_club_argument(parser: ArgumentParser) -> None:
    parser.add_argument(
        "--club",
        default=None,
        metavar="SHORT-NAME",
        help="the club it belongs to (needed on a site of several clubs; on a site of one "
        "club, that club)",
    )


def club_option(slug: str | None) -> Club:
    """The club ``--club`` names, or the site's one club; a plain error otherwise."""
    try:
        return club_by_slug_or_sole(slug)
    except Refused as refused:
        names = ", ".join(Club.objects.order_by("slug").values_list("slug", flat=True)[:20])
        raise CommandError(f"{refused.message} ({names})") from None
