"""The result a club shares: the prizes, the text, the one-page PDF and its PNG, the page and
the prize form on the finish page."""

from __future__ import annotations

import datetime
import io
import re

import pytest
from django.urls import reverse
from django.utils import timezone, translation
from pypdf import PdfReader

from tests.factories import played_tournament
from tournament.models import Player, Tournament
from tournament.share.documents import pdf_page_png, result_pdf, result_printout
from tournament.share.result import ResultLine, SharedResult, result_text
from tournament.standings.prizes import standings_prizes
from tournament.tournaments.finish import tournament_finish

CLUBS = ("BC Lisse", "De Troefkaart", "")


def _row(player_id: int, rank: int, *, withdrawn: bool = False) -> dict:
    return {"player_id": player_id, "rank": rank, "withdrawn": withdrawn}


def _tournament(places: int = 3, last: bool = False, finished: bool = True) -> Tournament:
    return Tournament(
        prize_places=places,
        prize_last_place=last,
        finished_at=timezone.now() if finished else None,
    )


# ---- the prizes, on plain rows ----

RANKS = [1, 2, 3, 3, 5, 6, 6]  # players 1..7; players 6 and 7 share the last place


def rows(withdrawn: frozenset[int] = frozenset()) -> list[dict]:
    return [_row(i, rank, withdrawn=i in withdrawn) for i, rank in enumerate(RANKS, start=1)]


def test_a_shared_prize_place_gives_both_players_the_prize_and_nobody_the_next():
    prizes = standings_prizes(_tournament(places=3), rows())
    assert [row["player_id"] for row in prizes.winners] == [1, 2, 3, 4]
    assert not prizes.losers
    with translation.override("nl"):
        assert prizes.labels() == {1: "1e prijs", 2: "2e prijs", 3: "3e prijs", 4: "3e prijs"}
    two = standings_prizes(_tournament(places=2), rows())
    assert [row["player_id"] for row in two.winners] == [1, 2]


def test_the_last_place_is_named_only_when_asked_and_never_a_player_who_withdrew():
    prizes = standings_prizes(_tournament(last=True), rows())
    assert [row["player_id"] for row in prizes.losers] == [6, 7]  # a shared last place
    assert prizes.loses(rows()[6]) and not prizes.loses(rows()[4])
    with translation.override("nl"):
        assert prizes.labels()[7] == "de verliezer"
    without_7 = standings_prizes(_tournament(last=True), rows(withdrawn=frozenset({7})))
    assert [row["player_id"] for row in without_7.losers] == [6]
    # Everyone a prize winner: nobody is the loser.
    assert not standings_prizes(_tournament(places=7, last=True), rows()).losers


def test_provisional_standings_name_no_winner():
    prizes = standings_prizes(_tournament(last=True, finished=False), rows())
    assert not prizes and not prizes.winners and not prizes.losers
    assert not prizes.wins(rows()[0])


# ---- the text ----


def _line(rank: int, name: str, points: int, prize: str = "", **more) -> ResultLine:
    values = {"shared": False, "club": "", "provisional": False, "withdrawn": False, **more}
    return ResultLine(rank=rank, name=name, points=points, prize=prize, **values)


def test_the_text_names_the_prizes_ties_shared_the_loser_and_everyone():
    lines = [
        _line(1, "Anna de Vries", 61, "1e prijs", club="BC Lisse"),
        _line(2, "Bert Jansen", 55, "2e prijs", shared=True),
        _line(2, "Carla Smit", 55, "2e prijs", shared=True),
        _line(4, "Dirk Bos", 12),
        _line(5, "Evert Kok", -1, "de verliezer", withdrawn=False),
    ]
    result = SharedResult(
        name="Najaarstoernooi",
        date="14 december 2026",
        place="Lisse",
        final=True,
        title="Eindstand",
        lines=lines,
        winners=lines[:3],
        losers=lines[4:],
        prize_places=3,
        any_provisional=False,
    )
    with translation.override("nl"):
        text = result_text(result)
    assert text == (
        "Najaarstoernooi\n14 december 2026, Lisse\n\nEindstand\n\n"
        "1e prijs: Anna de Vries (BC Lisse), 61 punten\n"
        "2e prijs: Bert Jansen, 55 punten\n"
        "2e prijs: Carla Smit, 55 punten\n"
        "De verliezer: Evert Kok, -1 punt\n\n"
        "1. Anna de Vries (BC Lisse) 61\n2. Bert Jansen 55\n2. Carla Smit 55\n"
        "4. Dirk Bos 12\n5. Evert Kok -1\n"
    )


# ---- a tournament played and finished on the site ----


@pytest.fixture
def tournament(director):
    tournament = played_tournament(9, 2, director=director, public=True)
    Tournament.objects.filter(pk=tournament.pk).update(
        rounds_planned=2, date=datetime.date(2026, 12, 14), place="Lisse", prize_last_place=True
    )
    for player, club in zip(Player.objects.filter(tournament=tournament), CLUBS * 3, strict=True):
        Player.objects.filter(pk=player.pk).update(club=club)
    tournament.refresh_from_db()
    return tournament


def share_page(client, tournament) -> str:
    response = client.get(reverse("result_share", args=[tournament.slug]))
    assert response.status_code == 200
    return response.content.decode()


def test_before_the_end_every_part_of_the_share_page_says_provisional(director_client, tournament):
    page = share_page(director_client, tournament)
    assert 'id="share-provisional"' in page
    assert "Stand na ronde 2" in page
    text = director_client.get(reverse("result_text", args=[tournament.slug])).content.decode()
    assert "Stand na ronde 2" in text.splitlines()[3]
    assert "Dit is nog niet de eindstand" in text
    assert "prijs" not in text and "verliezer" not in text


def test_the_finished_tournaments_text_has_the_prizes_the_loser_and_everyone(
    director_client, director, tournament
):
    tournament_finish(tournament=tournament, by_user=director)
    page = share_page(director_client, tournament)
    assert 'id="share-provisional"' not in page
    response = director_client.get(reverse("result_text", args=[tournament.slug]))
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert 'filename="testtoernooi-uitslag.txt"' in response["Content-Disposition"]
    text = response.content.decode()
    assert text in page  # the same text in the page's box (escaped alike: plain names)
    lines = text.splitlines()
    assert lines[:4] == ["Testtoernooi", "14 december 2026, Lisse", "", "Eindstand"]
    players = {p.name: p for p in Player.objects.filter(tournament=tournament)}
    listed = [line for line in lines if re.match(r"\d+\. ", line)]
    assert len(listed) == len(players)
    first = listed[0]
    assert first.startswith("1. ")
    winners = [line for line in lines if "e prijs: " in line]
    assert winners and winners[0].startswith("1e prijs: ")
    assert sum(line.startswith("De verliezer: ") for line in lines) >= 1
    # Each player once, "rank. Name (club) points".
    for name, player in players.items():
        who = f"{name} ({player.club})" if player.club else name
        assert sum(f". {who} " in line for line in listed) == 1


def test_the_public_address_and_its_code_or_where_to_switch_the_public_pages_on(
    director_client, tournament
):
    page = share_page(director_client, tournament)
    url = reverse("public_standings", args=[tournament.slug])
    assert f"{url}</a>" in page and 'class="qr"' in page
    Tournament.objects.filter(pk=tournament.pk).update(public=False)
    page = share_page(director_client, tournament)
    assert 'id="share-public-off"' in page and 'class="qr"' not in page
    assert reverse("tournament_edit", args=[tournament.slug]) + "#id_public" in page


def test_a_long_list_fits_one_page_with_every_name_and_its_png(director):
    names = [f"Wilhelmina van der Heijden-Bakker {i}" for i in range(1, 121)]
    tournament = played_tournament(120, 1, names=names, director=director)
    Player.objects.filter(tournament=tournament).update(club="Bollenclub Noordwijkerhout")
    # Nearly everyone a prize and the last place named: ten lines in large type, one page.
    Tournament.objects.filter(pk=tournament.pk).update(prize_places=100, prize_last_place=True)
    tournament = tournament_finish(tournament=tournament, by_user=director)
    assert len(result_printout(tournament).context["layout"].prizes) == 10
    pdf = result_pdf(tournament, base_url="http://testserver/")
    reader = PdfReader(io.BytesIO(pdf))
    assert len(reader.pages) == 1
    text = reader.pages[0].extract_text()
    for name in names:
        assert name in text
    assert "Eindstand" in text and "1e prijs" in text
    assert len(result_printout(tournament).context["layout"].columns) >= 2
    png = pdf_page_png(pdf)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    assert abs(width - 1240) <= 2 and abs(height - 1754) <= 2  # A4 at 150 dpi
    assert 20_000 < len(png) < 500_000


def test_the_pdf_and_png_are_served_to_the_director(director_client, tournament):
    pdf = director_client.get(reverse("result_pdf", args=[tournament.slug]))
    assert pdf["Content-Type"] == "application/pdf"
    assert "Stand na ronde 2" in PdfReader(io.BytesIO(pdf.content)).pages[0].extract_text()
    png = director_client.get(reverse("result_png", args=[tournament.slug]))
    assert png["Content-Type"] == "image/png" and png.content.startswith(b"\x89PNG")


# ---- the prizes on the finish page and the standings ----


def post_prizes(client, tournament, **data):
    return client.post(
        reverse("tournament_finish", args=[tournament.slug]), {"prizes": "1", **data}
    )


@pytest.mark.parametrize(
    ("places", "message"),
    [
        ("10", "Kies 0 tot en met 9 plaatsen: het toernooi heeft 9 spelers."),
        ("-1", "Kies 0 tot en met 9 plaatsen: het toernooi heeft 9 spelers."),
        ("drie", "Vul een heel aantal plaatsen in, bijvoorbeeld 3 (0: geen)."),
        ("", "Vul in hoeveel prijzen er zijn, bijvoorbeeld 3 (0: geen)."),
    ],
)
def test_the_prize_form_refuses_a_bad_number_saying_why(
    director_client, tournament, places, message
):
    response = post_prizes(director_client, tournament, prize_places=places)
    assert response.status_code == 422
    assert message in response.content.decode()
    tournament.refresh_from_db()
    assert (tournament.prize_places, tournament.finished_at) == (3, None)


def test_the_prizes_are_set_also_after_the_end_and_marked_in_the_standings(
    director_client, director, tournament
):
    tournament_finish(tournament=tournament, by_user=director)
    response = post_prizes(director_client, tournament, prize_places="2")
    assert response.status_code == 302 and response["Location"].endswith("#prizes")
    tournament.refresh_from_db()
    assert (tournament.prize_places, tournament.prize_last_place) == (2, False)
    page = director_client.get(reverse("standings", args=[tournament.slug])).content.decode()
    assert '<span class="prize-label">1e prijs</span>' in page
    assert "de verliezer" not in page
    assert reverse("result_share", args=[tournament.slug]) in page
