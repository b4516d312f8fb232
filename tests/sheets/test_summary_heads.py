"""Names over the read-only sheet's columns on a phone where their words fit side by side,
numbered columns where they do not (tournament.sheets.summary_heads)."""

from __future__ import annotations

from tournament.sheets.summary_heads import SummaryHeads, column_px, summary_heads, word_px


def test_ordinary_names_head_their_columns_and_a_very_long_word_numbers_them():
    assert summary_heads(["Anna de Vries", "Henk de Boer", "Bert Smit", "Wim Kok"]) == "names"
    assert summary_heads(["Anna de Vries"] * 6) is SummaryHeads.NAMES  # the largest table
    # Long names whose longest words still fit 360 px (a browser test measures them there).
    fits = [
        "Geertruida van den Heuvel",
        "Piet van der Heijden",
        "Anna de Vries-Bakker",
        "Dirk van den Berg",
        "Marijke Oosterhuis",
    ]
    assert summary_heads(fits) is SummaryHeads.NAMES
    long = [
        "Wilhelmina Oosterhuis-Schimmelpenninck",
        "Marloes Bakker-van den Heuvel",
        "Geertruida van den Heuvel",
        "Anna de Vries",
        "Henk de Boer",
    ]
    assert summary_heads(long) is SummaryHeads.NUMBERS_BELOW_480
    assert summary_heads(["Wilhelmina Oosterhuis-Schimmelpenninck"] * 6) is SummaryHeads.NUMBERS


def test_a_name_is_as_wide_as_its_longest_word_after_a_hyphen_and_accents_count_as_letters():
    assert column_px("Oosterhuis-Schimmelpenninck") == column_px("Schimmelpenninck")
    assert word_px("Oosterhuis-") > word_px("Oosterhuis")  # the hyphen stays on its line
    assert word_px("Hélène") == word_px("Helene")
    assert word_px("Ω") > word_px("o")  # a letter it does not know: reckoned wide
    assert column_px("Bo") == column_px("") > 0  # never narrower than the boxes under it
