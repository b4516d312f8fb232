"""Guests of the club made members, and members made guests again (``Member.guest``), with a
preview of what changes in the standings of each competition the person played.

The preview computes each season twice, as it is and with the change made (inside a savepoint
that is rolled back), with the season selectors themselves: whatever rule ranks a season, and
however guests are left out of it, the preview shows what the standings will be."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from tournament.models import Competition, Member
from tournament.season.selectors import Season, season_of


@dataclass(frozen=True, slots=True)
class Place:
    """Where a person stands in a season: ``rank`` when ranked; else ``guest`` (listed apart,
    never ranked), or ``listed`` and unranked (below the minimum of evenings), or not in the
    season at all."""

    rank: int | None = None
    guest: bool = False
    listed: bool = False

    def text(self) -> str:
        if self.rank is not None:
            return _("place %(rank)s") % {"rank": self.rank}
        if self.guest:
            return _("guest, not ranked")
        if self.listed:
            return _("not ranked (too few evenings)")
        return "\N{EN DASH}"


@dataclass(frozen=True, slots=True)
class Move:
    """One person whose place changes: ``before`` and ``after`` the change."""

    member: int
    name: str
    before: Place
    after: Place


@dataclass(frozen=True, slots=True)
class CompetitionChange:
    """A competition the person played: their own place before and after (``person``), and
    everyone else whose place changes (``others``, in the order of the standings after)."""

    competition: Competition
    person: Move
    others: list[Move]


def _places(season: Season) -> dict[int, tuple[Place, str]]:
    places = {row.member: (Place(rank=row.rank, listed=True), row.name) for row in season.rows}
    for guest in season.guests:
        places[guest.member] = (Place(guest=True), guest.name)
    return places


def member_competitions(member: Member) -> list[Competition]:
    """The competitions with an evening the person played, in the club's order."""
    return list(
        Competition.objects.filter(
            club=member.register, evenings__tournament__players__member=member
        ).distinct()
    )


def member_guest_preview(*, member: Member, guest: bool) -> list[CompetitionChange]:
    """What making ``member`` a guest (``guest=True``) or a member (``False``) changes in the
    standings of each competition they played: who moves and to which place. Nothing is
    written."""
    competitions = member_competitions(member)
    before = [season_of(c) for c in competitions]
    with transaction.atomic():
        Member.objects.filter(pk=member.pk).update(guest=guest)
        after = [season_of(c) for c in competitions]
        transaction.set_rollback(True)
    changes = []
    for competition, old, new in zip(competitions, before, after, strict=True):
        old_places, new_places = _places(old), _places(new)
        moves = [
            Move(member=pk, name=name, before=old_places.get(pk, (Place(), name))[0], after=place)
            for pk, (place, name) in new_places.items()  # in the standings' order after
        ]
        moves += [
            Move(member=pk, name=name, before=place, after=Place())
            for pk, (place, name) in old_places.items()
            if pk not in new_places
        ]
        person = next(
            (m for m in moves if m.member == member.pk),
            Move(member=member.pk, name=member.name, before=Place(), after=Place()),
        )
        others = [m for m in moves if m.member != member.pk and m.before != m.after]
        changes.append(CompetitionChange(competition=competition, person=person, others=others))
    return changes


@transaction.atomic
def member_guest_set(*, member: Member, guest: bool) -> Member:
    """Make ``member`` a guest of the club or a member: a guest's evenings count for nobody's
    season; a member's evenings count from now on (their players are tied to them already)."""
    member.guest = guest
    member.save(update_fields=["guest"])
    return member
