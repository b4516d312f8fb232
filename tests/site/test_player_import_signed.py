"""The list an import preview carries along (signed, to choose another header row without a new
upload) and the rows it confirms: only the name and club columns, only for the tournament and
account that made the preview, and read again as costly as an upload."""

import pytest
from django.core import signing
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from tests.factories import played_tournament
from tournament.models import ClubRole, CostlyWork, Player
from tournament.players import views
from tournament.players.views import PREVIEW_SALT, TABLE_SALT, signing_salt

pytestmark = pytest.mark.django_db

CONTACTS = (
    b"Naam;Club;E-mail;Telefoon;Adres;Geboortedatum\n"
    b"Anna de Vries;De Troefkaart;anna@example.nl;06-12345678;Dorpsstraat 1;1-2-1960\n"
    b"Piet Jansen;De Bol;piet@example.nl;06-87654321;Kerkplein 7;3-4-1971\n"
)
PRIVATE = ("anna@example.nl", "06-12345678", "Dorpsstraat", "1960", "E-mail", "Telefoon")


@pytest.fixture
def tournament(director):
    return played_tournament(4, rounds=0, director=director)


def upload(client, tournament, data=CONTACTS):
    url = reverse("player_import", args=[tournament.slug])
    return client.post(url, {"file": SimpleUploadedFile("spelers.csv", data)})


def look_again(client, tournament, table, **choice):
    data = {"table": table, "header": "1", "shown_header": "1", "name": "0", "club": "1"}
    return client.post(reverse("player_import", args=[tournament.slug]), data | choice)


def test_the_list_on_the_preview_holds_only_the_name_and_club_columns(
    director_client, director, tournament
):
    response = upload(director_client, tournament)
    assert response.status_code == 200
    signed = response.context["layout_form"]["table"].value()
    salt = f"{TABLE_SALT}:{tournament.pk}:{director.pk}"
    assert signing.loads(signed, salt=salt) == [
        ["Naam", "Club"],
        ["Anna de Vries", "De Troefkaart"],
        ["Piet Jansen", "De Bol"],
    ]
    # Nowhere on the page either: not in the header row's choices, not among the columns.
    page = response.content.decode()
    assert [word for word in PRIVATE if word in page] == []
    choices = [label for _value, label in response.context["layout_form"].fields["club"].choices]
    assert choices == ["Geen club", "Kolom A: Naam", "Kolom B: Club"]
    assert [(r.name, r.club) for r in response.context["rows"]] == [
        ("Anna de Vries", "De Troefkaart"),
        ("Piet Jansen", "De Bol"),
    ]


def test_a_preview_is_for_its_own_tournament_and_account(
    director_client, director, tournament, club, django_user_model
):
    page = upload(director_client, tournament)
    table = page.context["layout_form"]["table"].value()
    payload = page.context["confirm"]["payload"].value()
    other = played_tournament(4, rounds=0, director=director)
    colleague = django_user_model.objects.create_user("collega", password="x-kaart-2026-z")
    ClubRole.objects.create(club=club, user=colleague, role=ClubRole.Role.ADMIN)
    second = Client()
    second.force_login(colleague)
    replays = [
        look_again(director_client, other, table),
        director_client.post(reverse("player_import", args=[other.slug]), {"payload": payload}),
        director_client.post(reverse("player_paste", args=[other.slug]), {"payload": payload}),
        look_again(second, tournament, table),
        second.post(reverse("player_import", args=[tournament.slug]), {"payload": payload}),
        # One kind of signed text is no other: the rows are no list, the list no rows.
        look_again(director_client, tournament, payload),
        director_client.post(reverse("player_import", args=[tournament.slug]), {"payload": table}),
    ]
    for response in replays:
        assert response.status_code == 422
        assert "Het voorbeeld is verlopen; laad de lijst opnieuw." in response.content.decode()
    assert not Player.objects.filter(name__in=["Anna de Vries", "Piet Jansen"]).exists()

    # Its own director on its own tournament registers it.
    salt = signing_salt(PREVIEW_SALT, tournament, page.wsgi_request)
    assert [r["name"] for r in signing.loads(payload, salt=salt)] == [
        "Anna de Vries",
        "Piet Jansen",
    ]
    done = director_client.post(
        reverse("player_import", args=[tournament.slug]), {"payload": payload}
    )
    assert done.status_code == 302
    assert tournament.players.filter(name__in=["Anna de Vries", "Piet Jansen"]).count() == 2


def test_looking_again_is_counted_as_an_upload_and_a_large_list_stays_home(
    director_client, tournament, settings, monkeypatch
):
    settings.COSTLY_PER_ACCOUNT = 3
    table = upload(director_client, tournament).context["layout_form"]["table"].value()
    assert CostlyWork.objects.count() == 1
    assert look_again(director_client, tournament, table, club="").status_code == 200
    assert look_again(director_client, tournament, table).status_code == 200
    assert CostlyWork.objects.count() == 3
    refused = look_again(director_client, tournament, table)
    assert refused.status_code == 422
    assert "veel bestanden" in refused.content.decode()
    assert CostlyWork.objects.count() == 3

    # What a preview never sends is refused before it is read (and not counted).
    settings.COSTLY_PER_ACCOUNT = 10
    huge = look_again(director_client, tournament, "." + "A" * (views.TABLE_POSTED_MAX + 1))
    assert huge.status_code == 422
    assert "groter dan een voorbeeld ooit meestuurt" in huge.content.decode()
    assert CostlyWork.objects.count() == 3

    # A list too large to carry along: the preview says so, and offers no other layout.
    monkeypatch.setattr(views, "TABLE_KEPT_MAX", 50)
    response = upload(director_client, tournament)
    assert response.status_code == 200
    assert response.context["layout_form"] is None
    page = response.content.decode()
    assert "Deze lijst is te groot om hier een andere kopregel of kolom te kiezen." in page
    assert 'name="table"' not in page
    assert len(response.context["rows"]) == 2


def test_odd_numbers_in_a_crafted_post_are_no_500(director_client, tournament):
    """A ticked line or a joined name of 5000 digits, a superscript or an Arabic-Indic digit:
    what ``int()`` can't read is ignored, never a crash."""
    page = upload(director_client, tournament)
    payload = page.context["confirm"]["payload"].value()
    response = director_client.post(
        reverse("player_import", args=[tournament.slug]),
        {"payload": payload, "ticked": "on", "line": ["2", "9" * 5000]},
    )
    assert response.status_code == 302
    assert tournament.players.filter(name="Anna de Vries").exists()
    assert not tournament.players.filter(name="Piet Jansen").exists()  # line 3: not ticked
    table = page.context["layout_form"]["table"].value()
    for name in ("0+\u00b2", "0+" + "9" * 5000, "0+\u0661"):
        assert look_again(director_client, tournament, table, name=name).status_code in (200, 422)


def test_a_long_paste_is_capped_and_counted_like_a_file(director_client, tournament, settings):
    url = reverse("player_paste", args=[tournament.slug])
    too_long = "\n".join(f"Speler {i}" for i in range(2_001))
    response = director_client.post(url, {"text": too_long})
    assert response.status_code == 422
    assert "2001 regels: er kunnen hoogstens 2000 spelers" in response.content.decode()
    settings.COSTLY_PER_ACCOUNT = 1
    long = "\n".join(f"Speler {i}" for i in range(views.PASTE_COUNTED_FROM + 1))
    assert len(director_client.post(url, {"text": long}).context["rows"]) == 201
    refused = director_client.post(url, {"text": long})
    assert refused.status_code == 422
    assert "lange lijsten" in refused.content.decode()
    short = director_client.post(url, {"text": "Anna de Vries\nPiet Jansen"})
    assert len(short.context["rows"]) == 2  # a short paste is never counted
    assert CostlyWork.objects.count() == 1
