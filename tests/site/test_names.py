"""Names in the order of a Dutch list (surname first, the tussenvoegsel after it, accents folded)
and folded for search."""

import unicodedata

import pytest

from tournament.names import folded, folding_table, name_initial, name_parts, name_sort_key


@pytest.mark.parametrize(
    ("name", "listed"),
    [
        ("Jan van der Meer", "Meer, Jan van der"),
        ("Anna de Vries", "Vries, Anna de"),
        ("Kees van den Berg-de Wit", "Berg-de Wit, Kees van den"),
        ("Ria Visser-de Groot", "Visser-de Groot, Ria"),  # a double surname
        ("Anna Jansen-van der Berg", "Jansen-van der Berg, Anna"),
        ("Jan 't Hart", "Hart, Jan 't"),
        ("Jan van t Hof", "Hof, Jan van t"),  # "'t" without its apostrophe
        ("Jan van \u2019t Hof", "Hof, Jan van \u2019t"),  # with a typographic one
        ("Jan t Hart", "Hart, Jan t"),
        ("Jan T Hof", "Hof, Jan T"),  # an initial
        ("van Dijk", "Dijk, van"),
        ("Bert Jansen", "Jansen, Bert"),
        ("Dirk", "Dirk"),
        ("Maria van", "van, Maria"),  # a tussenvoegsel needs a surname after it
    ],
)
def test_a_name_splits_into_given_tussenvoegsel_and_surname(name, listed):
    assert name_parts(name).listed == listed


def test_a_dutch_list_orders_by_surname_with_the_tussenvoegsel_after_it():
    names = [
        "Piet Zwart",
        "Jan van der Meer",
        "Anna Mulder",
        "Karel de Meer",
        "Bert Meer",
        "Anna de Vries",
        "Kees Vos",
        "Piet Aarts",
    ]
    assert sorted(names, key=name_sort_key) == [
        "Piet Aarts",
        "Bert Meer",
        "Jan van der Meer",
        "Karel de Meer",
        "Anna Mulder",
        "Kees Vos",
        "Anna de Vries",
        "Piet Zwart",
    ]


def test_letters_with_accents_or_of_other_alphabets_sort_among_their_plain_letters():
    names = ["Ömer Zwart", "Ærøe", "Émile", "Østergaard", "Zoë", "Łukasz", "Oscar", "Ada", "Bas"]
    assert sorted(names, key=name_sort_key) == [
        "Ada",
        "Ærøe",
        "Bas",
        "Émile",
        "Łukasz",
        "Oscar",
        "Østergaard",
        "Zoë",
        "Ömer Zwart",
    ]


def test_case_and_accents_only_break_ties():
    assert sorted(["émile", "Emile", "emile", "Émile"], key=name_sort_key) == sorted(
        ["émile", "Emile", "emile", "Émile"], key=name_sort_key
    )
    assert sorted(["Eva", "éva", "Ezra"], key=name_sort_key)[-1] == "Ezra"


@pytest.mark.parametrize(
    ("text", "plain"),
    [
        ("Østergaard", "ostergaard"),
        ("Ærøe", "aeroe"),
        ("Straße", "strasse"),
        ("Łukasz", "lukasz"),
        ("Zoë  VAN der Berg", "zoe van der berg"),
        ("Œuvre", "oeuvre"),
        ("Đorđe", "dorde"),
        ("O'Brien-Smit", "obrien-smit"),
        ("van 't Hof", "van t hof"),
        ("van \u2019t Hof", "van t hof"),
        ("van \u2018t Hof", "van t hof"),
        ("IJsbrand Ĳzerman", "ijsbrand ijzerman"),
    ],
)
def test_search_folds_to_plain_letters(text, plain):
    assert folded(text) == plain


@pytest.mark.parametrize(
    ("name", "initial"),
    [("Jan van der Meer", "M"), ("Ole Østergaard", "O"), ("Ærøe", "A"), ("'t Hart", "H")],
)
def test_a_list_files_a_name_under_its_surnames_plain_initial(name, initial):
    assert name_initial(name) == initial


def test_van_t_hof_sits_with_van_apostrophe_t_hof_however_the_apostrophe_is_typed():
    names = ["Anna van 't Hof", "Bert van t Hof", "Cor van \u2019t Hof", "Dirk Hofman", "Eva Horst"]
    names += ["Piet Thijssen", "Gijs Haan"]
    assert sorted(names, key=name_sort_key) == [
        "Gijs Haan",
        "Anna van 't Hof",
        "Bert van t Hof",
        "Cor van \u2019t Hof",
        "Dirk Hofman",
        "Eva Horst",
        "Piet Thijssen",
    ]
    assert {name_initial(name) for name in names[:3]} == {"H"}


def script_fold(text: str, table: dict[str, str]) -> str:
    """What static/season.js does with what is typed: lower case, each letter by the site's
    table or else without its marks, single spaces."""

    def plain(char: str) -> str:
        decomposed = unicodedata.normalize("NFD", char)
        return "".join(c for c in decomposed if not unicodedata.category(c).startswith("M"))

    text = unicodedata.normalize("NFC", text.lower())
    return " ".join("".join(table[c] if c in table else plain(c) for c in text).split())


def test_the_table_a_search_script_gets_folds_every_latin_letter_as_the_site_does():
    table = folding_table()
    latin = [
        chr(code) for code in (*range(0x20, 0x7F), *range(0xA0, 0x250), *range(0x1E00, 0x1F00))
    ]
    typed = [*latin, "Østergaard", "van \u2019t Hof", "Straße", "ZOË", "Ærøe", "e\u0301mile"]
    assert {text: script_fold(text, table) for text in typed} == {t: folded(t) for t in typed}
