"""Who a player is in the register: the same name and club after trimming and case folding, or
a near match to ask about: the same first initial, and the same surname (with its
tussenvoegsel) or one letter apart in a longer surname ("J. de Vries" and "Jan de Vries",
"Sjaak Brouwer" and "Sjaak Brouwers", "Janssen" and "Jansen"). Short surnames must be equal:
"Bos" and "Bol" are two families. The file import's questions and the check-in's warnings
use this one rule."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from tournament.models import Member
from tournament.names import folded, name_parts

# A surname this long may differ by one letter (added, dropped or changed) and still be asked
# about; shorter ones differ too often between real families.
FUZZY_SURNAME_LENGTH = 5


def member_key(name: str, club: str) -> tuple[str, str]:
    """What two records must share to be one person without asking."""
    return folded(name), folded(club)


def near_key(name: str) -> tuple[str, str]:
    """The surname (with its tussenvoegsel) and the first letter of the given names."""
    parts = name_parts(" ".join(name.replace(".", ". ").split()))
    surname = folded(f"{parts.tussenvoegsel} {parts.surname}")
    return surname, folded(parts.given)[:1]


def _one_letter_apart(a: str, b: str) -> bool:
    """Whether ``b`` is ``a`` with one letter added, dropped or changed."""
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) > len(b):
        a, b = b, a
    i = 0
    while i < len(a) and a[i] == b[i]:
        i += 1
    if len(a) == len(b):
        return a[i + 1 :] == b[i + 1 :]
    return a[i:] == b[i + 1 :]


def names_near(one: str, other: str) -> bool:
    """Whether two names may be one person (the rule of this module)."""
    (surname_a, initial_a), (surname_b, initial_b) = near_key(one), near_key(other)
    if initial_a != initial_b:
        return False
    if surname_a == surname_b:
        return True
    shortest = min(len(surname_a.replace(" ", "")), len(surname_b.replace(" ", "")))
    return shortest >= FUZZY_SURNAME_LENGTH and _one_letter_apart(surname_a, surname_b)


class MemberIndex:
    """The register, looked up by exact key and by near name (built from one query)."""

    def __init__(self, members: Iterable[Member]) -> None:
        self.exact: dict[tuple[str, str], Member] = {}
        self.by_initial: dict[str, list[tuple[str, Member]]] = defaultdict(list)
        for member in members:
            self.add(member)

    def add(self, member: Member) -> None:
        self.exact.setdefault(member_key(member.name, member.club), member)
        surname, initial = near_key(member.name)
        self.by_initial[initial].append((surname, member))

    def same(self, name: str, club: str) -> Member | None:
        return self.exact.get(member_key(name, club))

    def close(self, name: str) -> list[Member]:
        """The members whose name is near ``name``, in the order they were added."""
        surname, initial = near_key(name)
        return [
            member
            for other, member in self.by_initial.get(initial, ())
            if other == surname or names_near(name, member.name)
        ]
