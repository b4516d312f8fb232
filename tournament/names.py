"""Players' names as Dutch lists order them and as people search for them.

Order follows the Unicode Collation Algorithm (``pyuca``, with the DUCET table it ships): accents
and case count only to break ties, and letters such as Æ, Ø, ß and Ł sort as the letters they
stand for (AE, O, SS, L) instead of after Z. On top of that the Dutch rule: a list is ordered by
surname, with the tussenvoegsel after it, "Meer, Jan van der" under M.

Search folds text to plain letters with the same table, so "oster" finds "Østergaard" and
"strasse" finds "Straße".
"""

from __future__ import annotations

import string
import unicodedata
from dataclasses import dataclass
from functools import cache, lru_cache

from pyuca import Collator

# Words that stand between given names and surname in Dutch (and Flemish) names. A word counts
# as one only when a surname follows it.
TUSSENVOEGSELS = frozenset(
    {
        "van",
        "de",
        "der",
        "den",
        "het",
        "'t",
        "ter",
        "ten",
        "te",
        "in",
        "op",
        "aan",
        "bij",
        "onder",
        "over",
        "uit",
        "voor",
        "'s",
        "d'",
        "l'",
        "la",
        "le",
        "du",
        "des",
        "da",
        "dal",
        "del",
        "della",
        "di",
        "do",
        "dos",
        "el",
        "los",
    }
)


@cache
def _collator() -> Collator:
    return Collator()


def _primaries(text: str) -> list[int]:
    """The primary weights of ``text``: what tells letters apart, ignoring accents and case."""
    elements = _collator().collation_elements(unicodedata.normalize("NFD", text))
    return [element[0] for element in elements if element[0] != 0]


@cache
def _plain_letters() -> dict[int, str]:
    """Each primary collation weight of a plain letter or digit, and that letter."""
    weights: dict[int, str] = {}
    for char in string.ascii_lowercase + string.digits:
        (primary,) = _primaries(char)
        weights[primary] = char
    return weights


@cache
def _fold_char(char: str) -> str:
    """A letter as the plain letters it collates as ("ø" -> "o", "æ" -> "ae", "ß" -> "ss");
    any other character stays itself."""
    if char.isascii():
        return char
    primaries = _primaries(char)
    letters = _plain_letters()
    if primaries and all(p in letters for p in primaries):
        return "".join(letters[p] for p in primaries)
    if not primaries:
        return ""  # a combining mark on its own
    return char


def folded(text: str) -> str:
    """Text for searching: lower case, plain letters, single spaces ("Zoë" -> "zoe")."""
    text = unicodedata.normalize("NFC", text.casefold())
    return " ".join("".join(_fold_char(c) for c in text).split())


@dataclass(frozen=True, slots=True)
class NameParts:
    """A name as written, split the Dutch way: "Jan van der Meer" is given "Jan",
    tussenvoegsel "van der", surname "Meer"."""

    given: str
    tussenvoegsel: str
    surname: str

    @property
    def listed(self) -> str:
        """The name as a list shows it: "Meer, Jan van der"."""
        rest = " ".join(part for part in (self.given, self.tussenvoegsel) if part)
        return f"{self.surname}, {rest}" if rest else self.surname


def name_parts(name: str) -> NameParts:
    """The surname is what follows the first tussenvoegsel that has a word after it, else the
    last word; a single word is a surname."""
    words = name.split()
    for index, word in enumerate(words[:-1]):
        if word.casefold() in TUSSENVOEGSELS:
            end = index
            while end < len(words) - 1 and words[end].casefold() in TUSSENVOEGSELS:
                end += 1
            return NameParts(
                given=" ".join(words[:index]),
                tussenvoegsel=" ".join(words[index:end]),
                surname=" ".join(words[end:]),
            )
    if len(words) < 2:
        return NameParts("", "", " ".join(words))
    return NameParts(" ".join(words[:-1]), "", words[-1])


def _key(text: str) -> tuple[int, ...]:
    key: tuple[int, ...] = _collator().sort_key(text)
    return key


# Surname, given names, tussenvoegsel and the whole name as collation keys, then the name itself.
NameSortKey = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...], str]


@lru_cache(maxsize=8192)  # a pure function of the name; the standings sort every name often
def name_sort_key(name: str) -> NameSortKey:
    """Alphabetical order as on a Dutch list: by surname, then given names, then tussenvoegsel
    ("Meer, Jan van der" before "Mulder, Anna"); "Émile" among the E's, "Ærøe" among the A's."""
    parts = name_parts(name)
    return (
        _key(parts.surname.casefold()),
        _key(parts.given.casefold()),
        _key(parts.tussenvoegsel.casefold()),
        _key(name),
        name,
    )


def name_initial(name: str) -> str:
    """The letter a list files the name under: the surname's first letter, plain and upper case
    ("van der Meer" -> "M", "Østergaard" -> "O"); "#" for a name that starts with no letter."""
    first = folded(name_parts(name).surname)[:1]
    return first.upper() if first.isalpha() else "#"
