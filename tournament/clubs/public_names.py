"""What the public pages and files show of a player's name: the one place the club's choice
(``Club.name_display``) and each player's consent (``Player.public_consent`` and their
member's ``Member.public_consent``) are applied.

- Full name: as registered.
- First name and initial: "Marloes Bakker" is "Marloes B.", "Jan van der Meer" "Jan M.".
- No names (and every player without consent): in a round's seating the place itself, "Tafel 3,
  plaats 2"; in standings and on the player's page a player number, "Speler 12": the player's
  place in the order the tournament's players were registered (the director's player list).
  A player finds their own number by tapping their place in "where do I sit".

The director's own pages and exports keep full names; nothing here is stored.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from django.utils.translation import gettext as _

from tournament.models import Club, Member, Player, Tournament
from tournament.names import name_parts

NameDisplay = Club.NameDisplay


def short_name(name: str) -> str:
    """First name and the surname's initial: "Marloes Bakker" -> "Marloes B.", "Jan van der
    Meer" -> "Jan M."; a single word gives its initial ("Bakker" -> "B.")."""
    parts = name_parts(name.strip())
    initial = parts.surname.lstrip("'\u2019-")[:1].upper()
    shown = f"{initial}." if initial else ""
    return f"{parts.given} {shown}".strip() if parts.given else shown


def player_label(number: int) -> str:
    return _("Player %(number)s") % {"number": number}


def seat_label(table: int, seat: int) -> str:
    return _("Table %(table)s, seat %(seat)s") % {"table": table, "seat": seat}


@dataclass(frozen=True, slots=True)
class PublicNames:
    """How one tournament's (or one register's) people are named in public.

    ``numbers``: each player's (member's) number, 1, 2, 3 ... in the order they were
    registered; ``hidden``: those shown without their name (no consent, or the club shows no
    names)."""

    mode: str
    numbers: dict[int, int]
    hidden: frozenset[int]

    def hides(self, pk: int) -> bool:
        return self.mode == NameDisplay.TABLE or pk in self.hidden

    def name(self, pk: int, name: str) -> str:
        """The name in standings and lists: full, short, or "Speler 12"."""
        if self.hides(pk):
            return player_label(self.numbers.get(pk, 0))
        if self.mode == NameDisplay.SHORT:
            return short_name(name)
        return name

    def place(self, pk: int, name: str, table: int, seat: int) -> str:
        """The name in a round's seating: for a hidden player the place, "Tafel 3, plaats 2"."""
        if self.hides(pk):
            return seat_label(table, seat)
        return self.name(pk, name)

    def club(self, pk: int, club: str) -> str:
        """A hidden player's club is not shown either (with a small club it names them)."""
        return "" if self.hides(pk) else club

    @property
    def key(self) -> str:
        """Part of the cache keys of what shows these names."""
        digest = hashlib.blake2b(repr(sorted(self.hidden)).encode(), digest_size=8).hexdigest()
        return f"{self.mode}:{digest}"


def tournament_public_names(tournament: Tournament) -> PublicNames:
    """The tournament's players as its club shows them in public (one query)."""
    rows = (
        Player.objects.filter(tournament=tournament)
        .order_by("pk")
        .values_list("pk", "public_consent", "member__public_consent")
    )
    numbers, hidden = {}, set()
    for number, (pk, consent, member_consent) in enumerate(rows, start=1):
        numbers[pk] = number
        if not consent or member_consent is False:
            hidden.add(pk)
    return PublicNames(tournament.club.name_display, numbers, frozenset(hidden))


def register_public_names(club: Club) -> PublicNames:
    """The club's members as the club shows them in public (the season's pages; one query)."""
    rows = Member.objects.filter(register=club).order_by("pk").values_list("pk", "public_consent")
    numbers, hidden = {}, set()
    for number, (pk, consent) in enumerate(rows, start=1):
        numbers[pk] = number
        if not consent:
            hidden.add(pk)
    return PublicNames(club.name_display, numbers, frozenset(hidden))
