"""What the pages say while a photo waits to be checked: the round page names the tables it
waits at, a sheet's status says that its boxes were read from a photo and are not saved yet,
a complete round takes no photos, and a save says whether it kept the photo."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from tests.factories import played_tournament
from tests.sheet_photos.fake_reader import legal_deals, photo_waiting
from tournament.models import Table
from tournament.sheets.forms import sheet_form_data
from tournament.sheets.table_links import table_link_issue

pytestmark = pytest.mark.django_db


def text(response) -> str:
    return re.sub(r"\s+", " ", html.unescape(response.content.decode()))


def words(page: str) -> str:
    """The page's text without its tags."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", page))


def legal_cells() -> dict[tuple[int, int], tuple[int, int]]:
    """The boxes of the legal sheet ``photo_waiting`` reads, at a table of 4."""
    return {
        (d["deal"], s): (d["bids"][s], d["tricks"][s]) for d in legal_deals(4) for s in range(4)
    }


def card(page: str, number: int) -> str:
    """The round page's card of table ``number``."""
    start = page.index(f'id="table-{number}"')
    return page[start : page.index("</section>", start)]


def test_the_round_page_names_every_table_whose_photo_waits(
    director_client, director, tournament, table_1, table_2
):
    round_page = reverse("round_detail", args=[tournament.slug, 1])
    assert 'id="photos-waiting"' in text(director_client.get(round_page))  # in place, hidden
    photo_waiting(table_1, by=director)
    photo_waiting(table_2, by=director)
    page = text(director_client.get(round_page))
    assert "2 formulieren wachten op nakijken: tafel 1, tafel 2" in words(page)
    sheet_1 = reverse("sheet_edit", args=[tournament.slug, 1, 1])
    assert f'<a href="{sheet_1}">Foto wacht op nakijken</a>' in card(page, 1)
    assert "Foto wacht op nakijken" in card(page, 2)


def test_a_table_whose_photo_was_saved_no_longer_waits(
    director_client, director, tournament, table_1, table_2
):
    waiting = photo_waiting(table_1, by=director)
    photo_waiting(table_2, by=director)
    data = {**sheet_form_data(4, legal_cells()), "photo": str(waiting.pk)}
    director_client.post(reverse("sheet_edit", args=[tournament.slug, 1, 1]), data)
    page = text(director_client.get(reverse("round_detail", args=[tournament.slug, 1])))
    assert "1 formulier wacht op nakijken: tafel 2" in words(page)
    assert "Foto wacht op nakijken" not in card(page, 1)


def test_a_save_from_the_script_says_it_kept_the_photo(
    director_client, director, tournament, table_1
):
    waiting = photo_waiting(table_1, by=director)
    response = director_client.post(
        reverse("sheet_edit", args=[tournament.slug, 1, 1]),
        {**sheet_form_data(4, legal_cells()), "photo": str(waiting.pk)},
        HTTP_X_REQUESTED_WITH="XMLHttpRequest",
    )
    answer = response.json()
    assert answer["outcome"] == "saved" and answer["photo_kept"] is True


def test_a_sheet_read_from_a_photo_says_so_beside_its_status(
    director_client, director, tournament, table_1
):
    photo_waiting(table_1, by=director)
    page = text(director_client.get(reverse("sheet_edit", args=[tournament.slug, 1, 1])))
    status = page[page.index('id="sheet-state"') : page.index("</h1>")]
    assert "niet begonnen" in status and "gelezen van een foto, nog niet opgeslagen" in status
    assert "0 van de 11 spellen compleet. (Zoals opgeslagen: wat van de foto gelezen is" in page


def test_the_table_link_says_to_check_and_save_a_photo_and_takes_one_near_the_top(
    client, tournament, table_1
):
    link = table_link_issue(table=table_1, by_user=None)
    url = reverse("table_entry", args=[link.token])
    page = text(client.get(url))
    assert "het wordt vanzelf opgeslagen" in page  # typing at the table saves by itself
    assert page.index("Foto van het formulier sturen") < page.index('id="sheet-form"')
    assert '<details class="card table-photo" id="table-photo">' in page  # folded away

    photo_waiting(table_1)
    page = text(client.get(url))
    assert '<p class="muted table-help" id="typing-help" hidden>' in page  # not saved by itself
    assert "Gelezen van een foto: kijk de gemarkeerde vakjes na tegen de foto" in page
    assert "gelezen van een foto, nog niet opgeslagen" in page
    assert 'id="photo-outcome"' in page  # where the script says what became of a photo sent


def test_a_complete_round_offers_no_photo_upload(director_client, director, client):
    tournament = played_tournament(8, 1, director=director)  # every sheet complete
    page = text(director_client.get(reverse("round_detail", args=[tournament.slug, 1])))
    assert "data-photo-upload" not in page
    assert "Elk formulier van deze ronde is compleet: foto's van de formulieren worden niet" in page
    page = text(director_client.get(reverse("round_photos", args=[tournament.slug, 1])))
    assert "data-photo-upload" not in page and 'id="round-photos-complete"' in page
    table = Table.objects.get(round__tournament=tournament, number=1)
    link = table_link_issue(table=table, by_user=None)
    page = text(client.get(reverse("table_entry", args=[link.token])))
    assert 'id="sheet-form"' in page and "data-photo-upload" not in page


def test_a_round_in_play_offers_the_photo_upload(director_client, tournament):
    page = text(director_client.get(reverse("round_detail", args=[tournament.slug, 1])))
    assert "data-photo-upload" in page and "round-photos-complete" not in page
