"""What the rounds page advises about a seating: the two balances told alike, so the director
compares like with like, and the repeats that cannot be avoided counted after the rounds
already played (never fewer than those)."""

from __future__ import annotations

import random
import re

import pytest
from django.urls import reverse
from django.utils import translation

from scoring.deals import DEAL_COUNT
from scoring.seating.repeats_after import RepeatsAfter
from scoring.simulate import simulate_tournament
from tournament.rounds.seating_options import SeatingOption, repeats_note
from tournament.tournament_file.importing import tournament_import


def test_an_uneven_plan_names_nobody_when_the_even_one_seats_people_as_often():
    """The even tables seat people 3-4x at a table of 5; the fewest repeats 2-4x. "Anna sits 4x"
    would warn of what the even plan does too: both say their range instead."""
    even = SeatingOption("even", 24, 3, 4, 7, 1, 5)
    fewest = SeatingOption("repeats", 10, 2, 4, 7, 2, 5)
    both = [even, fewest]
    with translation.override("nl"):
        told = [o.summary({7: "Anna"}, both) for o in both]
    assert told == [
        "Gelijk verdeeld: 24 herhaalde ontmoetingen, iedereen 3-4× aan een tafel van 5.",  # noqa: RUF001
        "Minste herhalingen: 10 herhaalde ontmoetingen, maar ongelijk: 2-4× aan een tafel van 5.",  # noqa: RUF001
    ]
    more = SeatingOption("repeats", 10, 2, 5, 7, 3, 5)
    with translation.override("en"):
        assert more.summary({7: "Anna"}, [even, more]) == (
            "Fewest repeats: 10 repeated meetings, but unevenly: 2-5× at a table of 5 (Anna 5×)."  # noqa: RUF001
        )


def test_the_note_counts_the_rounds_before_and_promises_no_more_than_the_bound():
    with translation.override("en"):
        assert repeats_note(RepeatsAfter(repeats=12, earlier=12, least=12)) == ""
        assert repeats_note(RepeatsAfter(repeats=13, earlier=12, least=12)) == (
            "At least 12 of them cannot be avoided (12 in the rounds before); seating this "
            "round differently could avoid at most 1."
        )
        assert repeats_note(RepeatsAfter(repeats=2, earlier=0, least=1)).startswith(
            "At least 1 of them cannot be avoided with these players"
        )
        assert repeats_note(RepeatsAfter(repeats=16, earlier=12, least=16)).startswith(
            "Fewer is not possible"
        )


A, B = ["p1", "p2", "p3", "p4"], ["p5", "p6", "p7", "p8"]


def seated(director, rounds):
    """A tournament of eight players played in exactly these rounds."""
    document = simulate_tournament(
        name="Herhaling",
        players=[(f"p{i}", f"Speler {i}", "") for i in range(1, 9)],
        seating=rounds,
        rng=random.Random(1),
        played_deals=[[DEAL_COUNT] * len(tables) for tables in rounds],
        settings={"table_sizes": [4, 5]},
    )
    return tournament_import(document=document, director=director)


def note(director_client, tournament, number: int) -> str:
    page = director_client.get(reverse("round_detail", args=[tournament.slug, number]))
    text = re.sub(r"\s+", " ", page.content.decode())
    return re.search(r'<section class="card quality".*?</section>', text)[0]


@pytest.mark.django_db
def test_after_repeats_already_played_the_page_never_says_fewer_are_unavoidable(
    director, director_client
):
    """Eight players sat A|B in rounds 1 and 2 (12 repeated meetings). With every round open,
    8 would be the least; the page said "at least 8 cannot be avoided" after 12 had happened.
    Round 3 parted as well as it can be (16 in all) is the best; seated A|B once more (24),
    a third round could avoid at most 8."""
    parted = seated(director, [[A, B], [A, B], [A[:2] + B[:2], A[2:] + B[2:]]])
    with translation.override("nl"):
        said = note(director_client, parted, 3)
        assert "16 herhaalde ontmoetingen" in said
        assert "Minder kan niet: na de vorige rondes heeft geen indeling van deze ronde" in said
        assert "Minstens 8" not in said
        again = seated(director, [[A, B], [A, B], [A, B]])
        said = note(director_client, again, 3)
        assert "24 herhaalde ontmoetingen" in said
        assert (
            "Minstens 16 daarvan zijn onvermijdelijk (12 in de vorige rondes); een andere "
            "indeling van deze ronde voorkomt er hoogstens 8."
        ) in said
        first = note(director_client, again, 1)
        assert "onvermijdelijk" not in first and "Minder kan niet" not in first
