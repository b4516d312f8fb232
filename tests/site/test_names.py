"""Names in the order of a Dutch list (surname first, the tussenvoegsel after it, accents folded)
and folded for search."""

import pytest

from tournament.names import folded, name_initial, name_parts, name_sort_key


@pytest.mark.parametrize(
    ("name", "listed"),
    [
        ("Jan van der Meer", "Meer, Jan van der"),
        ("Anna de Vries", "Vries, Anna de"),
        ("Kees van den Berg-de Wit", "Berg-de Wit, Kees van den"),
        ("Jan 't Hart", "Hart, Jan 't"),
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
        ("O'Brien-Smit", "o'brien-smit"),
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
