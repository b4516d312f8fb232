"""Printing from the command line: the same printouts as the print page, their QR codes at the
address phones open (decoded from the PDF), and clear errors for a wrong slug or round."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from tests.factories import played_tournament
from tests.printing.reading import pdf_page_images, pdf_pages, qr_texts
from tournament.adapter import load_table_sheets
from tournament.models import Club, Round, TableLink
from tournament.venue import network

pytestmark = pytest.mark.django_db

LAPTOP = "192.168.1.20"


@pytest.fixture
def on_club_wifi(monkeypatch):
    monkeypatch.setattr(network, "primary_address", lambda: LAPTOP)
    monkeypatch.setattr(network, "machine_addresses", lambda: [LAPTOP])
    monkeypatch.setattr(network, "machine_names", lambda: ["clublaptop", "clublaptop.local"])


@pytest.fixture
def tournament():
    """Round 1 complete, round 2 being played (the current round)."""
    return played_tournament(9, rounds=2, last_round=[4, 3])


def qr_codes(pdf: bytes) -> list[str]:
    return [text for page in pdf_page_images(pdf) for image in page for text in qr_texts(image)]


def print_sheets(tmp_path, *args) -> bytes:
    output = tmp_path / "sheets.pdf"
    call_command("print_sheets", *args, "-o", str(output))
    return output.read_bytes()


def test_the_sheets_qr_codes_start_with_site_url(tmp_path, tournament, settings, capsys):
    settings.SITE_URL = "http://bollen.example.nl:8000"
    pdf = print_sheets(tmp_path, tournament.slug, "--round", "1")
    tables = load_table_sheets(tournament=tournament, round_number=1)
    links = {link.table_id: link for link in TableLink.objects.all()}
    assert len(links) == len(tables) == len(pdf_pages(pdf))
    expected = [f"http://bollen.example.nl:8000/s/{links[t.table_id].token}/" for t in tables]
    assert qr_codes(pdf) == expected
    assert all(link.created_by is None for link in links.values())  # made as the site makes them
    out = capsys.readouterr()
    assert out.out == (  # in Dutch, as the site speaks, with where the codes point
        f"Opgeslagen: {tmp_path / 'sheets.pdf'}.\n"
        "De QR-codes wijzen naar http://bollen.example.nl:8000: de serverinstelling SITE_URL.\n"
    )
    assert out.err == ""  # a public name with a dot: nothing to warn about


def test_without_site_url_the_qr_codes_open_the_network_address_not_loopback(
    tmp_path, tournament, settings, monkeypatch, on_club_wifi
):
    settings.SITE_URL = ""
    monkeypatch.setenv("BIND", "0.0.0.0:8000")
    codes = qr_codes(print_sheets(tmp_path, tournament.slug))
    assert codes
    assert all(code.startswith(f"http://{LAPTOP}:8000/s/") for code in codes)
    assert not any("127.0.0.1" in code or "localhost" in code for code in codes)


def test_without_site_url_on_this_machine_the_qr_codes_open_its_own_address(
    tmp_path, tournament, settings, capsys
):
    settings.SITE_URL = ""
    address = network.primary_address()
    codes = qr_codes(print_sheets(tmp_path, tournament.slug, "--round", "2"))
    assert codes and not any("127.0.0.1" in code for code in codes)
    if address is None:  # no network at all: a name for itself, and a warning says so
        assert all(code.startswith("http://localhost:") for code in codes)
        assert "wifi" in capsys.readouterr().err
    else:
        assert all(code.startswith(f"http://{address}:") for code in codes)


def test_the_address_set_on_the_site_wins(tmp_path, tournament, settings, on_club_wifi):
    settings.SITE_URL = ""
    Club.objects.filter(pk=tournament.club_id).update(site_url=f"http://{LAPTOP}:8080")
    codes = qr_codes(print_sheets(tmp_path, tournament.slug))
    assert all(code.startswith(f"http://{LAPTOP}:8080/s/") for code in codes)


def test_the_command_and_the_print_page_print_the_same_links(
    tmp_path, tournament, settings, director_client, director
):
    settings.SITE_URL = "http://bollen.example.nl"
    tournament.directors.add(director)
    from_command = qr_codes(print_sheets(tmp_path, tournament.slug, "--round", "2"))
    response = director_client.get(reverse("print_sheets", args=[tournament.slug, 2]))
    assert qr_codes(response.content) == from_command  # the links made once, printed twice


def test_the_default_is_the_current_round(tmp_path, tournament, settings):
    settings.SITE_URL = "http://bollen.example.nl"
    pages = pdf_pages(print_sheets(tmp_path, tournament.slug))
    assert len(pages) == len(load_table_sheets(tournament=tournament, round_number=2))
    assert all("Ronde 2" in page or "Round 2" in page for page in pages)


def test_a_loopback_site_url_is_warned_about_on_stderr(tmp_path, tournament, settings, capsys):
    settings.SITE_URL = "http://127.0.0.1:8000"
    print_sheets(tmp_path, tournament.slug)
    err = capsys.readouterr().err
    assert "http://127.0.0.1:8000" in err
    assert "SITE_URL" in err  # the server's setting: where to change it


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["geen-toernooi"], "Er is geen toernooi met de korte naam “geen-toernooi”"),
        (["{slug}", "--round", "7"], "heeft geen ronde 7 (de rondes: 1, 2)"),
    ],
)
def test_a_wrong_slug_or_round_is_a_clear_error(tmp_path, tournament, args, message):
    args = [arg.format(slug=tournament.slug) for arg in args]
    for command in ("print_sheets", "print_seating"):
        with pytest.raises(CommandError, match=message.replace("(", r"\(").replace(")", r"\)")):
            call_command(command, *args, "-o", str(tmp_path / "x.pdf"))
    assert not (tmp_path / "x.pdf").exists()


def test_without_a_current_round_the_round_must_be_given(tmp_path):
    tournament = played_tournament(8, rounds=1)
    assert not tournament.rounds.with_state().exclude(progress=Round.State.COMPLETE).exists()
    with pytest.raises(CommandError, match="geen ronde die ingedeeld is of gespeeld wordt"):
        call_command("print_sheets", tournament.slug, "-o", str(tmp_path / "x.pdf"))
    assert pdf_pages(print_sheets(tmp_path, tournament.slug, "--round", "1"))


def test_an_unwritable_output_is_a_clear_error(tmp_path, tournament, settings):
    settings.SITE_URL = "http://bollen.example.nl"
    with pytest.raises(CommandError, match=r"Kan .* niet schrijven"):
        call_command("print_standings", tournament.slug, "-o", str(tmp_path / "no" / "x.pdf"))


def test_seating_and_standings_print_to_files(tmp_path, tournament, settings):
    settings.SITE_URL = "http://bollen.example.nl"
    call_command("print_seating", tournament.slug, "-o", str(tmp_path / "seating.pdf"))
    by_table, by_name = pdf_pages((tmp_path / "seating.pdf").read_bytes())
    assert "2" in by_table and by_name
    call_command("print_standings", tournament.slug, "-o", str(tmp_path / "standings.pdf"))
    assert pdf_pages((tmp_path / "standings.pdf").read_bytes())


def test_with_public_pages_on_where_do_i_sit_carries_the_public_pages_qr_code(
    tmp_path, tournament, settings
):
    settings.SITE_URL = "http://bollen.example.nl"
    output = tmp_path / "seating.pdf"
    call_command("print_seating", tournament.slug, "-o", str(output))
    assert qr_codes(output.read_bytes()) == []  # public pages off: nothing to scan
    tournament.public = True
    tournament.save(update_fields=["public"])
    call_command("print_seating", tournament.slug, "--round", "2", "-o", str(output))
    by_table, by_name = pdf_page_images(output.read_bytes())
    assert by_table == []
    public = f"http://bollen.example.nl/p/{tournament.slug}/"
    assert [text for image in by_name for text in qr_texts(image)] == [public]
