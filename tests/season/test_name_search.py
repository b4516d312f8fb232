"""One way to read a name: the register's search, the check-in's search (in the page's script,
with the folded names and the table the page ships) and the public "where do I sit" find the
same people on a list of Dutch names with tussenvoegsels, apostrophes and accents, and list
them in the same order."""

from __future__ import annotations

import html
import json
import re

import pytest
from django.urls import reverse

from tests.factories import played_tournament
from tests.site.test_names import script_fold
from tournament.clubs.services import club_sole
from tournament.models import Member
from tournament.season.services import CompetitionSettings, competition_create

pytestmark = pytest.mark.django_db

NAMES = [
    "Jan van 't Hof",
    "Piet van t Hof",
    "Kees van \u2019t Hof",
    "Ole Østergaard",
    "Zoë de Wit",
    "Émile d'Ancona",
    "Anna van der Meer",
    "Truus ter Horst",
    "Ria Visser-de Groot",
    "Łukasz Nowak",
    "Henk Hofman",
    "Sjaak Brouwer",
]
HOF = {"Jan van 't Hof", "Piet van t Hof", "Kees van \u2019t Hof"}

SEARCHES = [
    ("oster", {"Ole Østergaard"}),
    ("ØSTER", {"Ole Østergaard"}),
    ("van t hof", HOF),
    ("van 't Hof", HOF),
    ("van \u2018t hof", HOF),
    ("zoe", {"Zoë de Wit"}),
    ("emile dancona", {"Émile d'Ancona"}),
    ("lukasz", {"Łukasz Nowak"}),
    ("de groot", {"Ria Visser-de Groot"}),
    ("hof", HOF | {"Henk Hofman"}),
    ("nobody", set()),
]


@pytest.fixture
def pages(director_client, director):
    """Each page's search, as a function of what is typed to the names it shows."""
    for name in NAMES:
        Member.objects.create(register=club_sole(), name=name)
    competition = competition_create(club=club_sole(), settings=CompetitionSettings(name="Najaar"))
    check_in = director_client.get(reverse("check_in", args=[competition.slug])).content.decode()
    table = json.loads(html.unescape(re.search(r'data-fold="([^"]*)"', check_in)[1]))
    rows = [
        (html.unescape(folded), html.unescape(name))
        for folded, name in re.findall(
            r'<div class="tick" data-folded="([^"]*)">.*?<label [^>]*>([^<]*)', check_in
        )
    ]
    assert [name for _folded, name in rows] == [m.name for m in register(director_client, "")]
    tournament = played_tournament(len(NAMES), rounds=1, names=NAMES, public=True)

    def public(query: str) -> list[str]:
        page = director_client.get(reverse("public_home", args=[tournament.slug]), {"q": query})
        return [place.name for place in page.context["found"]]

    return {
        "register": lambda query: [m.name for m in register(director_client, query)],
        "check-in": lambda query: [
            name for folded, name in rows if script_fold(query, table) in folded
        ],
        "where do I sit": public,
    }


def register(client, query: str) -> list[Member]:
    return client.get(reverse("member_list"), {"q": query}).context["members"]


@pytest.mark.parametrize(("query", "found"), SEARCHES)
def test_every_search_finds_the_same_people(pages, query, found):
    assert {page: set(search(query)) for page, search in pages.items()} == dict.fromkeys(
        pages, found
    )


def test_the_register_and_the_check_in_list_van_t_hof_together(director_client, pages):
    listed = pages["register"]("")
    assert listed == pages["check-in"]("")
    hof = listed.index("Jan van 't Hof")
    assert set(listed[hof : hof + 3]) == HOF
    assert listed[hof + 3] == "Henk Hofman"


def test_a_search_that_finds_nobody_says_so(director_client, pages):
    page = director_client.get(reverse("member_list"), {"q": "nobody"}).content.decode()
    assert "Niemand in het ledenbestand past bij “nobody”." in page
    assert "Nog niemand in het ledenbestand." not in page
