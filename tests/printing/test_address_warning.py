"""Before printing: the print page and the table link page say where the links point, and warn
plainly when phones could not open them."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import played_tournament
from tournament.sheets.table_links import table_link_issue
from tournament.venue import network

pytestmark = pytest.mark.django_db

LAPTOP = "192.168.1.20"
WARNING = 'id="site-address-warning"'


@pytest.fixture(autouse=True)
def on_club_wifi(monkeypatch):
    monkeypatch.setattr(network, "primary_address", lambda: LAPTOP)
    monkeypatch.setattr(network, "machine_addresses", lambda: [LAPTOP])
    monkeypatch.setattr(network, "machine_names", lambda: ["clublaptop", "clublaptop.local"])


@pytest.fixture
def tournament(director):
    return played_tournament(8, rounds=1, director=director)


def print_page(client, tournament, **headers) -> str:
    return client.get(reverse("print_index", args=[tournament.slug]), **headers).content.decode()


def test_the_print_page_warns_in_dutch_when_the_links_would_point_at_loopback(
    director_client, tournament, settings
):
    settings.SITE_URL = "http://127.0.0.1:8000"
    page = print_page(director_client, tournament)
    assert WARNING in page
    assert "Telefoons kunnen deze links nog niet openen." in page
    assert "zo noemt deze laptop zichzelf" in page
    # SITE_URL is the server's: the warning says where to change it, and offers no page.
    assert "SITE_URL" in page
    assert f"bijvoorbeeld in http://{LAPTOP}:8000" in page
    warning = page.split(WARNING, 1)[1].split("</div>", 1)[0]
    assert reverse("site_address_edit") not in warning


def test_the_print_page_warns_about_an_address_this_laptop_no_longer_has(
    director_client, tournament, settings
):
    settings.SITE_URL = "http://10.1.1.9:8000"  # last month's club network
    page = print_page(director_client, tournament)
    assert WARNING in page
    assert "10.1.1.9" in page


def test_without_settings_the_print_page_shows_the_network_address_and_no_warning(
    director_client, tournament, settings
):
    settings.SITE_URL = ""
    # The director's browser opened the site as 127.0.0.1:8000.
    page = print_page(director_client, tournament, HTTP_HOST="127.0.0.1:8000")
    assert WARNING not in page
    assert f"<strong>http://{LAPTOP}:8000</strong>" in page


def test_the_table_link_page_uses_the_address_for_phones_and_warns_the_director(
    director_client, tournament, director, settings
):
    table = tournament.rounds.get(number=1).tables.get(number=1)
    link = table_link_issue(table=table, by_user=director)
    url = reverse("table_link", args=[tournament.slug, 1, 1])
    settings.SITE_URL = ""
    page = director_client.get(url, HTTP_HOST="localhost:8000").content.decode()
    assert f'href="http://{LAPTOP}:8000/s/{link.token}/"' in page
    assert "localhost" not in page.split('id="table-link-url"')[1].split("</a>")[0]
    assert WARNING not in page
    settings.SITE_URL = "http://localhost:8000"
    page = director_client.get(url).content.decode()
    assert WARNING in page
    assert f'href="http://localhost:8000/s/{link.token}/"' in page


def test_the_print_page_warns_that_a_draft_rounds_paper_may_not_match(director_client, tournament):
    assert "draft-round" not in print_page(director_client, tournament)  # played, not a draft
    draft = tournament.rounds.get(number=1)
    draft.published = False
    draft.save(update_fields=["published"])
    page = print_page(director_client, tournament)
    assert "draft-round" in page
    assert "Maak de ronde eerst bekend" in page
    assert reverse("round_detail", args=[tournament.slug, 1]) in page


def test_the_print_page_warns_when_the_site_listens_on_this_laptop_only(
    director_client, tournament, settings, monkeypatch
):
    settings.SITE_URL = ""
    monkeypatch.setenv("BIND", "127.0.0.1:8000")  # BIND=127.0.0.1:8000 make run
    page = print_page(director_client, tournament)
    assert WARNING in page
    warning = page.split(WARNING, 1)[1].split("</div>", 1)[0]
    assert "luistert alleen op deze laptop (BIND=127.0.0.1:8000)" in warning
    assert "start hem zonder BIND: make run" in warning  # what to do about it
    monkeypatch.setenv("BIND", "0.0.0.0:8000")  # every address of the laptop: phones reach it
    assert WARNING not in print_page(director_client, tournament)
