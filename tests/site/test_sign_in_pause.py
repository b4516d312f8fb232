"""Five wrong passwords pause signing in with that username: the page says so in the visitor's
language, for how long, and how a director lifts it; a new password lifts it too."""

import io

import pytest
from django.core.management import call_command
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.fixture
def throttled(settings):
    settings.AXES_ENABLED = True


def _sign_in(client, password):
    return client.post(reverse("login"), {"username": "anja", "password": password})


def test_the_fifth_wrong_password_pauses_signing_in_with_a_plain_dutch_page(
    client, django_user_model, throttled
):
    django_user_model.objects.create_user("anja", password="klaveren-aas-2026")
    for _attempt in range(4):
        page = _sign_in(client, "fout")
        assert page.status_code == 422
        assert "15 minuten" in page.content.decode()  # warned before it happens
    paused = _sign_in(client, "fout")
    assert paused.status_code == 429
    text = paused.content.decode()
    assert "Aanmelden staat even stil" in text
    assert "over 15 minuten" in text
    assert "manage.py axes_reset" in text
    assert "Account locked" not in text
    # Even the right password waits now.
    assert _sign_in(client, "klaveren-aas-2026").status_code == 429


def test_a_new_director_password_lifts_the_pause(client, django_user_model, throttled):
    django_user_model.objects.create_superuser("directeur", password="oud-wachtwoord-2026")
    for _attempt in range(5):
        client.post(reverse("login"), {"username": "directeur", "password": "fout"})
    out = io.StringIO()
    call_command("ensure_director", "--new-password", stdout=out)
    password = next(
        line.split(":", 1)[1].strip()
        for line in out.getvalue().splitlines()
        if "wachtwoord:" in line
    )
    response = client.post(reverse("login"), {"username": "directeur", "password": password})
    assert response.status_code == 302
