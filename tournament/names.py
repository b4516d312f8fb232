"""Players' names as Dutch lists order them and as people search for them.

Order follows the Unicode Collation Algorithm (``pyuca``, with the DUCET table it ships): accents
and case count only to break ties, and letters such as Æ, Ø, ß and Ł sort as the letters they
stand for (AE, O, SS, L) instead of after Z. On top of that the Dutch rule: a list is ordered by
surname, with the tussenvoegsel after it, "Meer, Jan van der" under M.

Search folds text to plain letters with the same table, so "oster" finds "Østergaard" and
"strasse" finds "Straße". Apostrophes count for nothing, in search and in order, whichever
apostrophe was typed: "van t Hof", "van 't Hof" and "van \u2019t Hof" are one name.

Every page that searches or sorts names does it here; a page whose script filters names gets
each name's folded form from :func:`folded` and the letters to fold what is typed from
:func:`folding_table`.
"""

from __future__ import annotations

import string
import unicodedata
from dataclasses import dataclass
from functools import cache, lru_cache

from pyuca import Collator

# What people type for an apostrophe: the typewriter one, the typographic ones, the modifier
# letter, the prime and the accents on their own that keyboards put nearby.
APOSTROPHES = "'\u2018\u2019\u201b\u02bc\u2032`\u00b4"
_NO_APOSTROPHES = str.maketrans(dict.fromkeys(APOSTROPHES, ""))
_ONE_APOSTROPHE = str.maketrans(dict.fromkeys(APOSTROPHES, "'"))

# Words that stand between given names and surname in Dutch (and Flemish) names. A word counts
# as one only when a surname follows it. Written with any apostrophe ("'t", "\u2019t").
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
# "'t" and "'s" typed without their apostrophe ("van t Hof"): a tussenvoegsel in lower case or
# after another one; "Jan T Hof" is an initial.
ELIDED = frozenset({"t", "s"})


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
    """Text for searching: lower case, plain letters, no apostrophes, single spaces ("Zoë" ->
    "zoe", "van 't Hof" -> "van t hof")."""
    text = unicodedata.normalize("NFC", text.casefold()).translate(_NO_APOSTROPHES)
    return " ".join("".join(_fold_char(c) for c in text).split())


# The letters a search box's script may be typed beyond ASCII: Latin with its accents.
_TYPED = [range(0x00A0, 0x0250), range(0x1E00, 0x1F00), range(0x0300, 0x0370)]


def _script_plain(text: str) -> str:
    """What a page's script makes of text without the table: its letters without their marks
    (``normalize("NFD")`` and dropping ``\\p{M}``)."""
    decomposed = unicodedata.normalize("NFD", text)
    return "".join(c for c in decomposed if not unicodedata.category(c).startswith("M"))


@cache
def folding_table() -> dict[str, str]:
    """What a script needs to fold typed text as :func:`folded` does: each lower-case character
    whose folding is not its letters without their marks ("ø" -> "o", "ß" -> "ss", "'" -> "").

    The script lower-cases the text, replaces each character found here and takes the marks
    off any other, then drops extra spaces (``static/season.js``).
    """
    table: dict[str, str] = {}
    chars = {chr(code) for block in _TYPED for code in block} | set(APOSTROPHES)
    for char in sorted(chars):
        lower = char.lower()
        if len(lower) != 1 or lower.isspace():
            continue
        fold = folded(lower) if not unicodedata.category(lower).startswith("M") else ""
        if fold != _script_plain(lower).strip():
            table[lower] = fold
    return table


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
    """The surname is what follows the first tussenvoegsel that has a word after it, else a
    double surname joined by a tussenvoegsel ("Ria Visser-de Groot": "Visser-de Groot"), else
    the last word; a single word is a surname."""
    words = name.split()
    for index, word in enumerate(words[:-1]):
        head, _, tail = word.rpartition("-")
        if index and head and _tussenvoegsel(tail, after_one=True):
            return NameParts(" ".join(words[:index]), "", " ".join(words[index:]))
        if _tussenvoegsel(word, after_one=False):
            end = index + 1
            while end < len(words) - 1 and _tussenvoegsel(words[end], after_one=True):
                end += 1
            return NameParts(
                given=" ".join(words[:index]),
                tussenvoegsel=" ".join(words[index:end]),
                surname=" ".join(words[end:]),
            )
    if len(words) < 2:
        return NameParts("", "", " ".join(words))
    return NameParts(" ".join(words[:-1]), "", words[-1])


def _tussenvoegsel(word: str, *, after_one: bool) -> bool:
    key = word.casefold().translate(_ONE_APOSTROPHE)
    return key in TUSSENVOEGSELS or (key in ELIDED and (after_one or word.islower()))


def _key(text: str) -> tuple[int, ...]:
    """The collation key of ``text`` without its apostrophes ("'t" and "t" sort as one)."""
    key: tuple[int, ...] = _collator().sort_key(text.translate(_NO_APOSTROPHES))
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
