"""Invitations by e-mail besides the QR code: the team page's and the club page's, the mail's
Dutch text and link, a mail server that is down, and a site without e-mail."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import played_tournament
from tournament.models import TeamInvitation

pytestmark = pytest.mark.django_db
PW = "kaartje-leggen-42"


@pytest.fixture
def tournament(director, club):
    club.name = "BC De Klaverbol"
    club.save()
    return played_tournament(8, 1, director=director, club=club)


def shown_link(page) -> str:
    return re.search(r'id="invitation-url" rel="noreferrer">([^<]+)<', page.content.decode())[1]


def test_a_team_invitation_is_mailed_and_shown_as_a_qr_code(
    director_client, tournament, mailbox, settings
):
    settings.SITE_URL = "http://192.168.1.20:8000"
    team = director_client.get(reverse("team", args=[tournament.slug])).content.decode()
    assert 'name="email"' in team
    page = director_client.post(
        reverse("team_invite", args=[tournament.slug]),
        {"role": "scorer", "email": " teller@club.example "},
    )
    assert page.status_code == 200
    html = page.content.decode()
    assert "Verstuurd naar teller@club.example." in html
    assert 'src="data:image/svg+xml' in html  # the QR code as before
    link = shown_link(page)
    assert link.startswith("http://192.168.1.20:8000/join/")
    [mail] = mailbox.messages
    assert mail["To"] == "teller@club.example"
    assert mail["Subject"] == f"Uitnodiging voor {tournament.name} als teller"
    text = mailbox.text(mail)
    assert f"director nodigt je uit voor het toernooi {tournament.name} van BC De Klaverbol" in text
    assert mailbox.link(mail) == link  # the same link the page shows
    assert "werkt één keer" in text
    assert TeamInvitation.objects.filter(tournament=tournament).count() == 1


def test_a_club_invitation_is_mailed(director_client, tournament, mailbox):
    page = director_client.post(
        reverse("club_invite"), {"role": "club_admin", "email": "nieuw@club.example"}
    )
    assert "Verstuurd naar nieuw@club.example." in page.content.decode()
    [mail] = mailbox.messages
    assert mail["Subject"] == "Uitnodiging voor BC De Klaverbol als clubbeheerder"
    assert "director nodigt je uit voor de club BC De Klaverbol als clubbeheerder." in (
        mailbox.text(mail)
    )
    assert mailbox.link(mail) == shown_link(page)
    club_page = director_client.get(reverse("club_page")).content.decode()
    assert "gemaild naar nieuw@club.example" in club_page  # the open invitations say to whom
    # The join page offers the address the mail went to, for the new account's password resets;
    # once used, the invitation keeps no address.
    path = urlsplit(mailbox.link(mail)).path
    assert 'value="nieuw@club.example"' in Client().get(path).content.decode()
    Client().post(
        path,
        {"username": "nieuw", "email": "nieuw@club.example", "password1": PW, "password2": PW},
    )
    assert TeamInvitation.objects.get().used_by.email == "nieuw@club.example"
    assert TeamInvitation.objects.get().email == ""


def test_a_bad_address_makes_no_invitation(director_client, tournament, mailbox):
    page = director_client.post(
        reverse("team_invite", args=[tournament.slug]),
        {"role": "scorer", "email": "teller@"},
        follow=True,
    )
    assert "Geen uitnodiging gemaakt: Dat is geen e-mailadres" in page.content.decode()
    assert not TeamInvitation.objects.exists()
    assert mailbox.messages == []


def test_with_the_mail_server_down_the_invitation_stands_with_its_link(
    director_client, tournament, smtp_down
):
    page = director_client.post(
        reverse("team_invite", args=[tournament.slug]),
        {"role": "director", "email": "mede@club.example"},
    )
    assert page.status_code == 200
    html = page.content.decode()
    assert "De mail naar mede@club.example kon niet worden verstuurd" in html
    link = shown_link(page)
    assert 'src="data:image/svg+xml' in html
    invitation = TeamInvitation.objects.get()
    assert invitation.role == "director" and invitation.used_at is None
    token = link.rstrip("/").rsplit("/", 1)[1]
    assert director_client.get(reverse("team_join", args=[token])).status_code == 200


def test_with_email_off_the_invite_form_says_so_and_still_makes_the_link(
    director_client, tournament, email_off
):
    team = director_client.get(reverse("team", args=[tournament.slug])).content.decode()
    assert 'name="email"' not in team
    assert "Deze site verstuurt geen e-mail" in team
    club = director_client.get(reverse("club_page")).content.decode()
    assert 'name="email"' not in club
    page = director_client.post(
        reverse("team_invite", args=[tournament.slug]), {"role": "scorer", "email": "x@club.nl"}
    )
    assert "Niet verstuurd naar x@club.nl: deze site verstuurt geen e-mail" in (
        page.content.decode()
    )
    assert shown_link(page).startswith("http")


def test_invitation_mails_are_limited_per_address_and_per_inviter(
    director_client, tournament, mailbox, settings
):
    """Invitations are still made (their link and QR code shown); only the mail is held back."""

    def invite(address):
        page = director_client.post(
            reverse("club_invite"), {"role": "club_director", "email": address}
        )
        assert page.status_code == 200 and shown_link(page).startswith("http")
        return page.content.decode()

    settings.INVITE_MAIL_PER_ACCOUNT = 5
    for _attempt in range(3):
        assert "Verstuurd naar slachtoffer@example.net." in invite("slachtoffer@example.net")
    # The same address in another case (or a look-alike) counts as the same address.
    held = invite("SLACHTOFFER@Example.NET")
    assert "De uitnodiging is gemaakt, maar niet gemaild naar SLACHTOFFER@example.net" in held
    assert "Geef de link hieronder door" in held
    assert "Verstuurd naar een@example.net." in invite("een@example.net")
    assert "maar niet gemaild naar twee@example.net" in invite("twee@example.net")  # 6th of 5
    assert len(mailbox.messages) == 4
    assert TeamInvitation.objects.count() == 6
