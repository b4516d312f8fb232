"""The notice to a club's admins when a role changes: given with an invitation, changed, taken
away; every admin with an address gets it, naming who changed whose role to what, and when."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import formats, timezone, translation

from tournament.models import ClubRole
from tournament.team.services import team_invitation_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(django_user_model, club, director):
    club.name = "BC De Klaverbol"
    club.save()
    director.email = "beheer@club.example"
    director.save()
    second = django_user_model.objects.create_user("bert", email="bert@club.example")
    ClubRole.objects.create(club=club, user=second, role=ClubRole.Role.ADMIN)
    nobody = django_user_model.objects.create_user("zonder")  # an admin without an address
    ClubRole.objects.create(club=club, user=nobody, role=ClubRole.Role.ADMIN)
    carla = django_user_model.objects.create_user("carla", email="carla@club.example")
    ClubRole.objects.create(club=club, user=carla, role=ClubRole.Role.DIRECTOR)
    return {"director": director, "bert": second, "carla": carla}


def recipients(mailbox) -> list[str]:
    return sorted(str(m["To"]) for m in mailbox.messages)


def test_the_admins_hear_of_a_role_changed_and_taken_away(
    director_client, people, mailbox, django_capture_on_commit_callbacks
):
    page = director_client.get(reverse("club_page")).content.decode()
    assert "krijgt elke clubbeheerder met een e-mailadres daar een mail van" in page
    carla = people["carla"]
    with django_capture_on_commit_callbacks(execute=True):
        changed = director_client.post(reverse("club_role", args=[carla.pk]), {"role": "admin"})
    assert changed.status_code == 302
    # carla is an admin now, with an address: she hears of it too.
    assert recipients(mailbox) == [
        "beheer@club.example",
        "bert@club.example",
        "carla@club.example",
    ]
    mail = mailbox.to("bert@club.example")[0]
    assert mail["Subject"] == "Rol gewijzigd in BC De Klaverbol: carla"
    text = mailbox.text(mail)
    assert (
        "director heeft de rol van carla in BC De Klaverbol gewijzigd van wedstrijdleider in "
        "clubbeheerder." in text
    )
    when = re.search(r"Wanneer: (\d{1,2} \w+ \d{4}) \d{2}:\d{2}\.", text)
    with translation.override("nl"):
        assert when[1] == formats.date_format(timezone.localtime(), "j F Y")
    assert "clubbeheerder van deze club" in text

    mailbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        director_client.post(reverse("club_remove", args=[carla.pk]))
    assert recipients(mailbox) == ["beheer@club.example", "bert@club.example"]
    assert (
        "director heeft de rol van carla (clubbeheerder) in BC De Klaverbol weggenomen."
        in mailbox.text(mailbox.messages[0])
    )


def test_the_admins_hear_who_joined_with_whose_invitation(
    client, club, people, mailbox, django_capture_on_commit_callbacks
):
    issued = team_invitation_create(club=club, role="club_director", by_user=people["bert"])
    with django_capture_on_commit_callbacks(execute=True):
        joined = client.post(
            reverse("team_join", args=[issued.token]),
            {"username": "dirk", "password1": "kaart-tafel-2026", "password2": "kaart-tafel-2026"},
        )
    assert joined.status_code == 302
    assert recipients(mailbox) == ["beheer@club.example", "bert@club.example"]
    assert (
        "dirk is bij BC De Klaverbol gekomen als wedstrijdleider, met een uitnodiging van bert."
        in mailbox.text(mailbox.messages[0])
    )


def test_a_refused_change_and_a_mail_server_down_change_nothing_else(
    director_client, people, smtp_down, django_capture_on_commit_callbacks
):
    director = people["director"]
    with django_capture_on_commit_callbacks(execute=True):
        refused = director_client.post(reverse("club_role", args=[director.pk]), {"role": "admin"})
        taken = director_client.post(
            reverse("club_role", args=[people["carla"].pk]), {"role": "admin"}
        )
    assert refused.status_code == taken.status_code == 302
    # The server is down: the change stands all the same.
    assert ClubRole.objects.get(user=people["carla"]).role == ClubRole.Role.ADMIN


def test_many_role_changes_by_one_admin_send_a_few_notices(
    director_client, people, mailbox, settings, django_capture_on_commit_callbacks, caplog
):
    settings.ROLE_NOTICE_PER_ADMIN = 2
    carla = people["carla"]
    for role in ("admin", "director", "admin", "director"):
        with django_capture_on_commit_callbacks(execute=True):
            changed = director_client.post(reverse("club_role", args=[carla.pk]), {"role": role})
        assert changed.status_code == 302
    # Every change stands; only the first two were mailed (to 3 admins, then to 2).
    assert ClubRole.objects.get(user=carla).role == ClubRole.Role.DIRECTOR
    assert len(mailbox.messages) == 5
    assert sum("role notice skipped" in r.getMessage() for r in caplog.records) == 2
