"""Seating lists and standings, read back from the PDF; every printout from the print page."""

import re

import pytest
from django.urls import reverse

from tests.factories import played_tournament
from tests.printing.conftest import TRICKY_NAMES
from tests.printing.reading import pdf_pages
from tournament.adapter import load_table_sheets
from tournament.models import Player, Table
from tournament.names import name_sort_key
from tournament.sheets.services import sheet_record
from tournament.sheets.submission import SheetSubmission
from tournament.standings.selectors import tournament_standings

pytestmark = pytest.mark.django_db


def squash(text: str) -> str:
    """Text without white space: a long name may wrap onto two lines of the page."""
    return re.sub(r"\s+", "", text)


def get_pdf(client, name, *args):
    response = client.get(reverse(name, args=args))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    return response.content


def test_seating_list_by_table_then_by_name(director_client, tournament):
    by_table, by_name = pdf_pages(get_pdf(director_client, "print_seating", tournament.slug, 2))
    names = dict(Player.objects.filter(tournament=tournament).values_list("pk", "name"))
    tables = load_table_sheets(tournament=tournament, round_number=2)

    assert "Round 2: seating by table" in by_table
    for table in tables:
        in_seat_order = "".join(
            f"{seat}. {names[pid]}" for seat, pid in enumerate(table.player_ids, start=1)
        )
        assert squash(f"Table {table.table_number}{in_seat_order}") in squash(by_table)

    assert "Round 2: where do I sit?" in by_name
    table_of = {pid: t.table_number for t in tables for pid in t.player_ids}
    text = squash(by_name)
    places = []
    for pid, name in names.items():
        line = squash(f"{name} table {table_of[pid]}")
        assert line in text
        places.append((text.index(line), name))
    in_print_order = [name for _place, name in sorted(places)]
    assert in_print_order == sorted(names.values(), key=name_sort_key)


def test_seating_list_of_a_round_without_tables_is_not_found(director_client, tournament):
    response = director_client.get(reverse("print_seating", args=[tournament.slug, 5]))
    assert response.status_code == 404


def test_standings_print_every_line_in_rank_order(director_client, tournament):
    pages = pdf_pages(get_pdf(director_client, "print_standings", tournament.slug))
    text = squash(" ".join(pages))
    standings = tournament_standings(tournament)
    assert "Standings after round 2" in pages[0]
    ranks = [row.rank for row in standings.rows]
    position = 0
    for row in standings.rows:
        player = standings.players[row.player]
        line = squash(
            f"{row.rank}{'=' if ranks.count(row.rank) > 1 else ''} {player.name} {player.club} "
            + " ".join(str(row.per_round[r]) for r in standings.rounds_counted)
            + f" {row.tournament_points} {row.bollen} {row.correct}"
        )
        assert line in text[position:], player.name
        position = text.index(line, position) + len(line)


def test_printouts_open_in_the_browser_as_html_with_the_print_stylesheet(
    director_client, tournament
):
    for name, args in [
        ("print_sheets", [tournament.slug, 1]),
        ("print_seating", [tournament.slug, 1]),
        ("print_standings", [tournament.slug]),
        ("print_blank", [tournament.slug, 4]),
    ]:
        response = director_client.get(reverse(name, args=args) + "?format=html")
        assert response.status_code == 200
        html = response.content.decode()
        assert html.startswith("<!DOCTYPE html>")
        assert '<link rel="stylesheet" href="/static/print.css">' in html
        # The print button works through the site's script (no inline handler: the CSP).
        assert '<button type="button" data-print>' in html
        assert '<script src="/static/bollen.js" defer></script>' in html
        assert "onclick" not in html
    css = b"".join(director_client.get("/static/print.css").streaming_content).decode()
    assert "size: A4 landscape" in css
    assert "break-after: page" in css


def test_every_document_is_one_click_from_the_print_page(director_client, tournament):
    page = director_client.get(reverse("print_index", args=[tournament.slug]))
    assert page.status_code == 200
    links = re.findall(r'href="([^"]+)"', page.content.decode())
    prefix = f"/t/{tournament.slug}/"
    documents = {link for link in links if "/print/" in link and link != f"{prefix}print/"}
    documents |= {link for link in links if "/standings/export." in link}
    expected_types = {
        f"{prefix}print/rounds/1/sheets/": "application/pdf",
        f"{prefix}print/rounds/2/sheets/?format=html": "text/html; charset=utf-8",
        f"{prefix}print/rounds/1/seating/": "application/pdf",
        f"{prefix}print/rounds/2/seating/?format=html": "text/html; charset=utf-8",
        f"{prefix}print/blank/3/": "application/pdf",
        f"{prefix}print/blank/6/": "application/pdf",
        f"{prefix}print/standings/": "application/pdf",
        f"{prefix}print/workbook/": (
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
        ),
        f"{prefix}standings/export.csv": "text/csv; charset=utf-8",
    }
    assert set(expected_types) <= documents
    assert len(documents) == 2 * 4 + 4 + 2 + 2  # rounds: 2 PDFs, 2 pages; blank; standings; files
    for link in sorted(documents):
        response = director_client.get(link)
        assert response.status_code == 200, link
        if link in expected_types:
            assert response["Content-Type"] == expected_types[link]


def test_printouts_are_for_the_tournaments_directors(client, django_user_model, tournament):
    urls = [
        reverse("print_index", args=[tournament.slug]),
        reverse("print_sheets", args=[tournament.slug, 1]),
        reverse("print_blank", args=[tournament.slug, 4]),
        reverse("print_seating", args=[tournament.slug, 1]),
        reverse("print_standings", args=[tournament.slug]),
        reverse("print_workbook", args=[tournament.slug]),
    ]
    for url in urls:
        response = client.get(url)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))
    stranger = django_user_model.objects.create_user(username="stranger", password="x" * 12)
    client.force_login(stranger)
    for url in urls:
        assert client.get(url).status_code == 403


def test_the_print_page_speaks_the_directors_language_and_the_printout_the_tournaments(
    director_client, tournament
):
    director_client.post(reverse("set_language"), {"language": "nl", "next": "/"})
    page = director_client.get(reverse("print_index", args=[tournament.slug])).content.decode()
    assert "Lege scoreformulieren" in page
    assert "Klassement in Excel" in page and "Eindklassement" not in page  # not finished
    (standings, *_rest) = pdf_pages(get_pdf(director_client, "print_standings", tournament.slug))
    assert "Standings after round 2" in standings
    assert TRICKY_NAMES[0] in standings


def test_standings_printed_during_a_round_do_not_say_after_it(director_client, director):
    """Printed in the tournament's language, Dutch here: headed by the standings' state, the
    round being played is neither over nor final, and every score of it is provisional."""
    tournament = played_tournament(8, 2, last_round=[5, 0], director=director, seed=3)
    playing = Table.objects.get(round__tournament=tournament, round__number=2, number=1)
    (page, *_rest) = pdf_pages(get_pdf(director_client, "print_standings", tournament.slug))
    assert "Stand na ronde 1, ronde 2 wordt gespeeld (voorlopig)" in page
    assert "na ronde 2" not in page and "Eindstand" not in page
    assert squash("Elk ingevoerd spel telt mee.") in squash(page)
    # Table 1 is five deals into round 2: its players' points of round 2 and their totals are
    # provisional, each marked.
    assert page.count("*") == 2 * len(table_players(playing)) + 1
    assert squash("* voorlopig: formulier nog niet compleet of niet bevestigd") in squash(page)

    # A sheet typed on the site and not confirmed yet, and a player who has left.
    table = Table.objects.get(round__tournament=tournament, round__number=2, number=2)
    cells = {(1, seat): (0, 1 if seat == 0 else 0) for seat in range(4)}
    sheet_record(
        table=table,
        submission=SheetSubmission(cells=cells, penalties=(), base_version=0, idempotency_key=None),
    )
    leaver = table.seats.order_by("position").first().player
    Player.objects.filter(pk=leaver.pk).update(withdrawn_round=3)
    (page, *_rest) = pdf_pages(get_pdf(director_client, "print_standings", tournament.slug))
    standings = tournament_standings(tournament)
    in_play = table_players(table) | table_players(playing)
    for row in standings.rows:
        name = standings.players[row.player].name
        mark = "*" if standings.is_provisional(row.player) else ""
        shown = f"{name} (afgemeld)" if row.player == leaver.pk else name
        assert squash(f"{shown} ") in squash(page)
        assert standings.is_provisional(row.player) == (row.player in in_play)
        assert squash(f"{row.tournament_points}{mark}") in squash(page)
    assert page.count("*") == 2 * len(in_play) + 1
    assert "na ronde 2" not in page

    tournament.count_unconfirmed = False
    tournament.save(update_fields=["count_unconfirmed"])
    (page, *_rest) = pdf_pages(get_pdf(director_client, "print_standings", tournament.slug))
    assert squash(
        "Alleen formulieren die de toernooileiding heeft bevestigd tellen mee."
    ) in squash(page)


def table_players(table) -> set[int]:
    return set(table.seats.values_list("player_id", flat=True))
