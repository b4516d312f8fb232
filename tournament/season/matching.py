"""Who a player is in the register: the same name and club after trimming and case folding, or
a near match to ask about (the same surname and first initial: "J. de Vries", "Jan de Vries")."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from tournament.models import Member
from tournament.names import folded, name_parts


def member_key(name: str, club: str) -> tuple[str, str]:
    """What two records must share to be one person without asking."""
    return folded(name), folded(club)


def near_key(name: str) -> tuple[str, str]:
    """What two names share when they may be one person: the surname (with its
    tussenvoegsel) and the first letter of the given names."""
    parts = name_parts(" ".join(name.replace(".", ". ").split()))
    surname = folded(f"{parts.tussenvoegsel} {parts.surname}")
    return surname, folded(parts.given)[:1]


class MemberIndex:
    """The register, looked up by exact key and by near key (built from one query)."""

    def __init__(self, members: Iterable[Member]) -> None:
        self.exact: dict[tuple[str, str], Member] = {}
        self.near: dict[tuple[str, str], list[Member]] = defaultdict(list)
        for member in members:
            self.add(member)

    def add(self, member: Member) -> None:
        self.exact.setdefault(member_key(member.name, member.club), member)
        self.near[near_key(member.name)].append(member)

    def same(self, name: str, club: str) -> Member | None:
        return self.exact.get(member_key(name, club))

    def close(self, name: str) -> list[Member]:
        return list(self.near.get(near_key(name), ()))
