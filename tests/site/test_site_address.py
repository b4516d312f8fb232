"""The address phones open: where it comes from, when it warns, and the page that sets it."""

from __future__ import annotations

import pytest
from django.test import RequestFactory
from django.urls import reverse
from django.utils import translation

from tests.factories import played_tournament
from tournament.models import Club, ClubAddressChange
from tournament.venue import network
from tournament.venue.site_address import (
    AddressSource,
    absolute_url,
    site_address,
    site_url,
    site_url_problem,
)

LAPTOP = "192.168.1.20"


@pytest.fixture
def on_club_wifi(monkeypatch):
    """This machine is 192.168.1.20 on the club's wifi, called ``clublaptop``."""
    monkeypatch.setattr(network, "primary_address", lambda: LAPTOP)
    monkeypatch.setattr(network, "machine_addresses", lambda: [LAPTOP])
    monkeypatch.setattr(network, "machine_names", lambda: ["clublaptop", "clublaptop.local"])


@pytest.fixture
def no_network(monkeypatch):
    monkeypatch.setattr(network, "primary_address", lambda: None)
    monkeypatch.setattr(network, "machine_addresses", lambda: [])
    monkeypatch.setattr(network, "machine_names", lambda: ["clublaptop", "clublaptop.local"])


def loopback_request(host: str = "127.0.0.1:8000"):
    """A request from the director's own browser, which opened the site as 127.0.0.1 (the
    server itself listens on 8000 whatever the browser used, as behind a proxy)."""
    return RequestFactory().get("/", HTTP_HOST=host, SERVER_PORT="8000")


# Where the address comes from.


@pytest.mark.django_db
def test_without_settings_it_is_the_network_address_never_the_browsers_loopback_name(
    on_club_wifi, settings, club
):
    settings.SITE_URL = ""
    address = site_address(loopback_request(), club=club)
    assert address == site_address(loopback_request(), club=club)
    assert address.url == f"http://{LAPTOP}:8000"
    assert address.source == AddressSource.NETWORK
    link = absolute_url("/s/abc/", loopback_request("localhost:8123"), club=club)
    assert link == f"http://{LAPTOP}:8123/s/abc/"


@pytest.mark.django_db
def test_site_url_from_the_environment_comes_before_the_network_address(
    on_club_wifi, settings, club
):
    settings.SITE_URL = "http://bollen.example.nl"
    assert site_url(loopback_request(), club=club) == "http://bollen.example.nl"
    assert site_address(club=club).source == AddressSource.ENVIRONMENT


@pytest.mark.django_db
def test_a_clubs_address_comes_before_the_network_but_never_before_site_url(
    on_club_wifi, settings, club
):
    settings.SITE_URL = ""
    Club.objects.filter(pk=club.pk).update(site_url="http://10.0.0.5:8000")
    club.refresh_from_db()
    assert site_url(club=club) == "http://10.0.0.5:8000"
    assert site_address(club=club).source == AddressSource.SITE
    other = Club.objects.create(name="De Buren", slug="buren")
    assert site_url(club=other) == f"http://{LAPTOP}:8000"  # one club's address is its own
    # Set by whoever runs the server: every club's, whatever a club stored.
    settings.SITE_URL = "http://bollen.example.nl"
    assert site_url(club=club) == "http://bollen.example.nl"
    assert site_address(club=club).source == AddressSource.ENVIRONMENT


@pytest.mark.django_db
def test_no_query_per_link(on_club_wifi, django_assert_num_queries, club):
    request = loopback_request()
    with django_assert_num_queries(0):
        for _ in range(40):  # a round of 40 tables
            absolute_url("/s/x/", request, club=club)


@pytest.mark.django_db
def test_commands_use_the_port_of_bind_or_8000(on_club_wifi, settings, monkeypatch, club):
    settings.SITE_URL = ""
    monkeypatch.delenv("BIND", raising=False)
    assert site_url(club=club) == f"http://{LAPTOP}:8000"
    monkeypatch.setenv("BIND", "0.0.0.0:8765")
    assert site_url(club=club) == f"http://{LAPTOP}:8765"
    monkeypatch.setenv("BIND", "[::]:9000")
    assert site_url(club=club) == f"http://{LAPTOP}:9000"


@pytest.mark.django_db
def test_without_any_network_it_falls_back_to_the_browsers_host_and_warns(
    no_network, settings, club
):
    settings.SITE_URL = ""
    address = site_address(loopback_request(), club=club)
    assert address == site_address(loopback_request(), club=club)
    assert (address.url, address.source) == ("http://127.0.0.1:8000", AddressSource.REQUEST)
    problem = site_url_problem(address.url)
    assert problem is not None
    assert "wifi-netwerk van de club" in problem


# When it warns.


@pytest.mark.parametrize(
    "url",
    ["http://127.0.0.1:8000", "http://localhost:8000", "http://[::1]:8000", "http://0.0.0.0:8000"],
)
def test_a_loopback_address_warns_and_suggests_the_network_address(on_club_wifi, url):
    with translation.override("en"):
        problem = site_url_problem(url)
    assert problem is not None
    assert url in problem
    assert f"http://{LAPTOP}:8000" in problem  # what to set instead
    assert "page “Address for phones”, linked at the top of the tournament pages" in problem


@pytest.mark.parametrize("url", ["ftp://192.168.1.20", "192.168.1.20:8000", "http://", "nonsense"])
def test_what_is_not_a_web_address_warns(on_club_wifi, url):
    with translation.override("en"):
        assert "not a web address" in site_url_problem(url)


@pytest.mark.parametrize(
    "url",
    [
        "http://192.168.1.77:8000",  # the laptop's address on last week's network
        "http://otherlaptop:8000",
        "http://otherlaptop.local:8000",
    ],
)
def test_an_address_or_name_this_machine_does_not_have_warns(on_club_wifi, url):
    problem = site_url_problem(url)
    assert problem is not None
    assert f"http://{LAPTOP}:8000" in problem


@pytest.mark.parametrize(
    "url",
    [
        f"http://{LAPTOP}:8000",
        "http://clublaptop.local:8000",
        "http://CLUBLAPTOP:8000",
        "https://bollen.example.nl",
    ],
)
def test_this_machines_addresses_and_public_names_do_not_warn(on_club_wifi, url):
    assert site_url_problem(url) is None


def test_a_site_listening_on_this_laptop_only_warns_at_every_address(
    on_club_wifi, monkeypatch, settings
):
    """BIND=127.0.0.1:8000 make run: phones reach none of the laptop's addresses."""
    monkeypatch.setenv("BIND", "127.0.0.1:8000")
    with translation.override("nl"):
        problem = site_url_problem(f"http://{LAPTOP}:8000")
    assert "luistert alleen op deze laptop (BIND=127.0.0.1:8000)" in problem
    assert "zonder BIND: make run" in problem
    # Listening on every address (0.0.0.0, ::) is what phones need: no warning.
    for everywhere in ("0.0.0.0:8101", "[::]:8101"):
        monkeypatch.setenv("BIND", everywhere)
        assert site_url_problem(f"http://{LAPTOP}:8000") is None
    monkeypatch.setenv("BIND", "127.0.0.1:8000")
    # Behind a server of its own that answers the phones (SITE_URL), it is as it should be.
    settings.SITE_URL = f"http://{LAPTOP}:8000"
    assert site_url_problem(f"http://{LAPTOP}:8000") is None


def test_the_warning_speaks_dutch(on_club_wifi):
    with translation.override("nl"):
        problem = site_url_problem("http://127.0.0.1:8000")
    assert "Zet het adres voor telefoons op http://192.168.1.20:8000" in problem
    assert "Adres voor telefoons\u2019, de link bovenaan de toernooipagina\u2019s" in problem
    assert "wifi-netwerk van de club" in problem


# The page that sets it.


@pytest.fixture
def tournament(director):
    return played_tournament(8, rounds=1, director=director)


@pytest.fixture
def director_client(director_client):
    """The director reads the site in English (Dutch is tested on its own below)."""
    director_client.post(reverse("set_language"), {"language": "en", "next": "/"})
    return director_client


def address_page(client, **data):
    url = reverse("site_address_edit")
    return client.post(url, data, follow=True) if data else client.get(url)


@pytest.mark.django_db
def test_the_page_shows_the_address_its_source_the_suggestions_and_a_qr_code(
    director_client, tournament, on_club_wifi, settings
):
    settings.SITE_URL = ""
    page = address_page(director_client).content.decode()
    assert f"<strong>http://{LAPTOP}</strong>" in page  # the test client's port is 80
    assert "Found automatically" in page
    assert "data:image/svg+xml" in page
    assert f"http://{LAPTOP}" in page  # a suggestion
    assert "clublaptop.local" not in page  # not offered: many Android phones cannot open it
    assert 'id="site-address-warning"' not in page


@pytest.mark.django_db
def test_a_club_admin_sets_the_address_and_clears_it_again(
    director_client, director, tournament, on_club_wifi, settings, club
):
    settings.SITE_URL = ""
    response = address_page(director_client, site_url=" 192.168.1.20:8000/ ")
    club.refresh_from_db()
    assert club.site_url == "http://192.168.1.20:8000"
    page = response.content.decode()
    assert "Phones now open http://192.168.1.20:8000." in page
    assert "Set on this page." in page
    assert 'id="site-address-warning"' not in page
    # Recorded: who, when, old and new; no phone has opened it yet.
    change = ClubAddressChange.objects.get(club=club)
    assert (change.changed_by, change.old_url, change.new_url) == (
        director,
        "",
        "http://192.168.1.20:8000",
    )
    assert change.confirmed_at is None
    assert 'id="site-address-untested"' in page
    address_page(director_client, site_url="")
    club.refresh_from_db()
    assert club.site_url == ""
    assert site_url(club=club) == f"http://{LAPTOP}:8000"  # a command's: the port of BIND
    assert ClubAddressChange.objects.filter(club=club).count() == 2


@pytest.mark.django_db
def test_with_site_url_set_by_the_operator_no_club_changes_it(
    director_client, tournament, on_club_wifi, settings, club
):
    settings.SITE_URL = "http://127.0.0.1:8000"
    page = address_page(director_client).content.decode()
    assert 'id="site-address-warning"' in page
    assert "SITE_URL" in page
    assert 'name="site_url"' not in page  # no form to change it
    address_page(director_client, site_url="http://192.168.1.20:8000")
    club.refresh_from_db()
    assert club.site_url == ""
    assert not ClubAddressChange.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("ftp://192.168.1.20", "it must start with http:// or https://"),
        ("http://192.168.1.20:8000/t/demo/", "without a path"),
        ("http://192.168.1.20:8000?x=1", "without a path"),
        ("http://192.168.1.20:port", "port that is not a number"),
        ("http://bad host:8000", "is not a valid web address"),
        ("http://jan:geheim@192.168.1.20", "leave out a user name or password"),
        ("NaN", "is not a web address"),
        ("http://nan", "is not a web address"),
        ("null", "is not a web address"),
    ],
)
def test_a_wrong_address_is_refused_with_a_message_naming_the_field(
    director_client, tournament, typed, message, on_club_wifi, settings
):
    settings.SITE_URL = ""
    response = address_page(director_client, site_url=typed)
    assert response.status_code == 422
    page = response.content.decode()
    assert "Address for phones: " in page
    assert message in page
    assert not Club.objects.exclude(site_url="").exists()


@pytest.mark.django_db
def test_a_name_this_machine_has_is_taken_without_a_dot(
    director_client, tournament, on_club_wifi, settings, club
):
    settings.SITE_URL = ""
    address_page(director_client, site_url="clublaptop:8000")
    club.refresh_from_db()
    assert club.site_url == "http://clublaptop:8000"


@pytest.mark.django_db
def test_only_club_admins_change_the_address(client, django_user_model, tournament, settings):
    settings.SITE_URL = ""
    url = reverse("site_address_edit")
    assert "/login/" in client.post(url, {"site_url": "http://10.0.0.1"})["Location"]
    client.force_login(django_user_model.objects.create_user("vreemde", password="x-y-z-1234"))
    assert client.post(url, {"site_url": "http://10.0.0.1"}).status_code == 403
    client.force_login(django_user_model.objects.create_superuser("baas", password="x-y-z-1234"))
    assert client.get(url).status_code == 200
    assert not Club.objects.exclude(site_url="").exists()


@pytest.mark.django_db
def test_a_phone_opening_the_test_code_confirms_the_change(
    director_client, tournament, on_club_wifi, settings, club, client
):
    settings.SITE_URL = ""
    address_page(director_client, site_url=f"http://{LAPTOP}:8000")
    page = address_page(director_client).content.decode()
    marker = f"http://{LAPTOP}:8000/test/"
    assert marker in page
    token = page.split(marker, 1)[1].split("/", 1)[0]
    # The same link at every visit: one written down still works.
    assert f"{marker}{token}/" in address_page(director_client).content.decode()
    check = f"/test/{token}/"

    def opened(host: str, client_address: str) -> str:
        response = client.get(check, HTTP_HOST=host, REMOTE_ADDR=client_address)
        assert response.status_code == 200
        return response.content.decode()

    # The laptop's own browser proves nothing, by any of its names; another address neither.
    assert 'id="site-address-not-tested"' in opened("127.0.0.1:8000", "127.0.0.1")
    assert 'id="site-address-not-tested"' in opened(f"{LAPTOP}:8000", LAPTOP)
    assert 'id="site-address-not-tested"' in opened("localhost:8000", "192.168.1.57")
    assert ClubAddressChange.objects.get(club=club).confirmed_at is None
    # A phone on the club's wifi, by the new address: confirmed.
    assert 'id="site-address-works"' in opened(f"{LAPTOP}:8000", "192.168.1.57")
    assert ClubAddressChange.objects.get(club=club).confirmed_at is not None
    page = address_page(director_client).content.decode()
    assert 'id="site-address-untested"' not in page
    # A made-up link opens nothing; after another change, the old link confirms nothing.
    forged = f"/test/{token.split('-')[0]}-000000000000/"
    assert client.get(forged, HTTP_HOST=f"{LAPTOP}:8000").status_code == 404
    assert client.get("/test/nope/", HTTP_HOST=f"{LAPTOP}:8000").status_code == 404
    address_page(director_client, site_url="clublaptop.local:8000")
    assert 'id="site-address-old"' in opened(f"{LAPTOP}:8000", "192.168.1.57")


@pytest.mark.django_db
def test_the_page_speaks_dutch(client, director, tournament, on_club_wifi, settings):
    settings.SITE_URL = ""
    Club.objects.filter(pk=tournament.club_id).update(site_url="http://localhost:8000")
    client.force_login(director)
    text = client.get(reverse("site_address_edit")).content.decode()
    assert "Adres voor telefoons" in text
    assert "Zet het adres voor telefoons op" in text
