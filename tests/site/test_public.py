"""Public pages: only when switched on, searchable, and every name shown as written."""

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils.timezone import localtime

from tests.factories import played_tournament
from tournament.models import Player, Round, Table
from tournament.sheets.services import sheet_record
from tournament.sheets.submission import SheetSubmission
from tournament.standings.tables import standings_table_rows

pytestmark = pytest.mark.django_db

NAMES = [
    "<script>alert(1)</script>",
    '="1"',
    "Anna de Vries",
    "Bram Jansen",
    "Cor Smit",
    "Dini Visser",
    "Eva Bakker",
    "Femke de Boer",
]


@pytest.fixture
def tournament():
    return played_tournament(8, rounds=2, last_round=[5, 0], names=NAMES, public=True)


def test_public_pages_are_404_when_switched_off(client):
    tournament = played_tournament(8, rounds=1, public=False)
    for name in ("public_home", "public_standings", "public_screen"):
        assert client.get(reverse(name, args=[tournament.slug])).status_code == 404


def test_a_closed_or_unknown_public_page_tells_the_player_what_to_do(client):
    closed = played_tournament(8, rounds=1, public=False)
    player = Player.objects.filter(tournament=closed).first()
    answers = [
        client.get(reverse("public_home", args=[closed.slug])),
        client.get(reverse("public_home", args=["no-such-tournament"])),
        client.get(reverse("public_player", args=[closed.slug, player.pk])),
    ]
    for response in answers:
        assert response.status_code == 404
        body = response.content.decode()
        assert "Deze toernooipagina is (nog) niet open" in body
        assert "openbare pagina's van het toernooi nog niet aangezet" in body
        assert closed.name not in body  # a closed tournament and no tournament look alike
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    response = client.get(reverse("public_standings", args=[closed.slug]))
    assert "This tournament page is not open (yet)" in response.content.decode()
    # Any other missing address keeps the plain page.
    assert "Deze pagina bestaat niet" not in response.content.decode()
    assert "This page does not exist" in client.get("/no-such-page/").content.decode()


def test_where_do_i_sit_finds_a_player_by_part_of_the_name(client, tournament):
    response = client.get(reverse("public_home", args=[tournament.slug]), {"q": "anna"})
    assert response.status_code == 200
    (place,) = response.context["found"]
    assert place.name == "Anna de Vries"
    assert response.context["round"].number == 2


def test_draft_seating_is_not_public(client, tournament):
    Round.objects.filter(tournament=tournament, number=2).update(published=False)
    response = client.get(reverse("public_home", args=[tournament.slug]))
    assert response.context["round"].number == 1


def test_names_are_shown_as_written_everywhere(client, director_client, director, tournament):
    tournament.directors.add(director)
    pages = [
        client.get(reverse("public_home", args=[tournament.slug]), {"q": "="}),
        client.get(reverse("public_home", args=[tournament.slug]), {"q": "script"}),
        client.get(reverse("public_standings", args=[tournament.slug])),
        client.get(reverse("public_screen", args=[tournament.slug])),
        director_client.get(reverse("standings", args=[tournament.slug])),
        director_client.get(reverse("player_list", args=[tournament.slug])),
        director_client.get(reverse("round_detail", args=[tournament.slug, 2])),
    ]
    for response in pages:
        html = response.content.decode()
        assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in pages[1].content.decode()
    assert "=&quot;1&quot;" in pages[0].content.decode()


def test_projector_lists_everyone_and_never_reloads_itself(client):
    tournament = played_tournament(60, rounds=2, public=True)
    response = client.get(reverse("public_screen", args=[tournament.slug]))
    html = response.content.decode()
    assert 'http-equiv="refresh"' not in html
    assert len(response.context["rows"]) == 60  # the script pages through them
    assert "… and" not in html
    assert 'id="live-config"' in html


def _site_queries(client, url: str) -> int:
    """The queries of one request, without the database cache's own (``CACHE=database``, the
    default on PostgreSQL): a fixed few per request, a get and perhaps a set in a savepoint."""
    from django.conf import settings
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        client.get(url)
    return sum(
        1
        for q in queries
        if settings.CACHE_TABLE not in q["sql"] and "SAVEPOINT" not in q["sql"].upper()
    )


def test_standings_page_queries_do_not_grow_with_players(director_client, director):
    small = played_tournament(8, rounds=2, director=director, seed=5)
    large = played_tournament(60, rounds=2, director=director, seed=6)
    for tournament in (small, large):
        # (one of them: whether the planned rounds have all been played)
        page = _site_queries(director_client, reverse("standings", args=[tournament.slug]))
        assert page <= 13
        public = reverse("public_standings", args=[tournament.slug])
        assert _site_queries(director_client, public) <= 8


def test_search_ignores_accents_and_case(client):
    tournament = played_tournament(
        8, rounds=1, names=["Zoë van der Berg", *NAMES[1:8]], public=True
    )
    response = client.get(reverse("public_home", args=[tournament.slug]), {"q": "ZOE"})
    assert [p.name for p in response.context["found"]] == ["Zoë van der Berg"]


def _points(rows) -> dict[str, int]:
    return {row["name"]: row["tournament_points"] for row in rows}


def _play_first_deal(tournament) -> None:
    """Table 2 of round 2 (nothing entered yet) plays deal 1: seat 1 bolt, the others keep."""
    table = Table.objects.get(round__tournament=tournament, round__number=2, number=2)
    cells = {(1, seat): (0, 1 if seat == 0 else 0) for seat in range(table.seats.count())}
    sheet_record(
        table=table,
        submission=SheetSubmission(cells=cells, penalties=(), base_version=0, idempotency_key=None),
    )


@pytest.fixture
def delayed(settings):
    settings.PUBLIC_STANDINGS_SECONDS = 60
    cache.clear()
    yield
    cache.clear()


def test_public_standings_are_computed_once_per_delay(
    client, tournament, delayed, django_assert_max_num_queries
):
    url = reverse("public_standings", args=[tournament.slug])
    first = client.get(url)
    _play_first_deal(tournament)
    with django_assert_max_num_queries(2):  # the tournament (and nothing that scores sheets)
        again = client.get(url)
    assert _points(again.context["rows"]) == _points(first.context["rows"])
    assert again.context["computed_at"] == first.context["computed_at"]
    time = localtime(first.context["computed_at"]).strftime("%H:%M")
    assert f"Bijgewerkt om {time}" in again.content.decode()

    exact, _rounds = standings_table_rows(tournament)
    assert _points(exact) != _points(first.context["rows"])
    cache.clear()  # the delay is over
    for name in ("public_standings", "public_screen"):
        rows = client.get(reverse(name, args=[tournament.slug])).context["rows"]
        assert _points(rows).items() <= _points(exact).items()


def test_counting_unconfirmed_sheets_or_not_shows_on_the_public_page_at_once(
    client, tournament, delayed
):
    url = reverse("public_standings", args=[tournament.slug])
    _play_first_deal(tournament)  # a sheet that no director has confirmed
    counted = _points(client.get(url).context["rows"])
    tournament.count_unconfirmed = False
    tournament.save(update_fields=["count_unconfirmed"])
    confirmed_only = _points(client.get(url).context["rows"])
    assert confirmed_only != counted
    assert confirmed_only == _points(standings_table_rows(tournament)[0])


def test_where_do_i_sit_lists_names_by_surname_whatever_their_accents(client):
    names = ["Zoë Smit", "émile Bos", "Anna Dekker", "Eva Mol", "Fleur Kok", "Bas Vos", "Dirk Ek"]
    tournament = played_tournament(8, rounds=1, names=[*names, "Jan van der Meer"], public=True)
    response = client.get(reverse("public_home", args=[tournament.slug]))
    listed = [place.name for place in response.context["places"]]
    assert listed == [
        "émile Bos", "Anna Dekker", "Dirk Ek", "Fleur Kok", "Jan van der Meer", "Eva Mol",
        "Zoë Smit", "Bas Vos",
    ]  # fmt: skip


def test_search_finds_letters_without_accents_from_plain_letters(client):
    names = ["Ole Østergaard", "Ærøe Hansen", "Lars Straße", "Łukasz Nowak"]
    tournament = played_tournament(8, rounds=1, names=[*names, *NAMES[2:6]], public=True)
    url = reverse("public_home", args=[tournament.slug])
    for query, found in [
        ("Oster", "Ole Østergaard"),
        ("aeroe", "Ærøe Hansen"),
        ("strasse", "Lars Straße"),
        ("lukasz", "Łukasz Nowak"),
        ("Østergaard", "Ole Østergaard"),
    ]:
        response = client.get(url, {"q": query})
        assert [p.name for p in response.context["found"]] == [found], query
