"""Django's password texts speak the page's language: the validators' rules and refusals on the
Dutch invitation page and password page are Dutch (Django 5.2 reworded one, and its own Dutch
catalogue lacked it; tournament/venue/accounts.py gives the site's)."""

from __future__ import annotations

import html
import re

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import get_default_password_validators
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.factories import played_tournament
from tournament.team.services import team_invitation_create

# A password each configured validator refuses, for the account "kaartlezer".
REFUSED_BY = {
    "MinimumLengthValidator": "kort",
    "UserAttributeSimilarityValidator": "kaartlezer1",
    "CommonPasswordValidator": "password123",
    "NumericPasswordValidator": "83920174650",
}


def texts(language: str, password: str) -> tuple[list[str], list[str]]:
    """Each configured validator's rule and its refusal of ``password``, in ``language``."""
    user = get_user_model()(username="kaartlezer")
    rules, refusals = [], []
    with translation.override(language):
        for validator in get_default_password_validators():
            rules.append(str(validator.get_help_text()))
            try:
                validator.validate(password, user)
            except ValidationError as error:
                refusals.extend(error.messages)
    return rules, refusals


def test_every_configured_validator_speaks_dutch():
    names = {type(v).__name__ for v in get_default_password_validators()}
    assert names == set(REFUSED_BY)  # a new validator gets a password here, and a check
    for password in REFUSED_BY.values():
        dutch_rules, dutch = texts("nl", password)
        english_rules, english = texts("en", password)
        assert dutch and len(dutch) == len(english), password
        assert [m for m in dutch if m in english or "password" in m.lower()] == [], password
        assert not set(dutch_rules) & set(english_rules)


def visible_text(response) -> str:
    page = response.content.decode()
    main = page.split('id="content"', 1)[1]
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", main)))


@pytest.mark.django_db
def test_the_invitation_and_password_pages_refuse_a_weak_password_in_dutch(director):
    tournament = played_tournament(8, 1, director=director)
    seen = []
    for username, password, again in [
        ("kaartlezer", "kort", "kort"),
        ("kaartlezer", "kaartlezer1", "kaartlezer1"),
        ("kaartlezer", "83920174650", "83920174650"),
        ("kaartlezer", "kaart-tafel-2026", "kaart-tafel-2027"),
    ]:
        issued = team_invitation_create(tournament=tournament, role="scorer", by_user=director)
        response = Client().post(
            reverse("team_join", args=[issued.token]),
            {"username": username, "password1": password, "password2": again},
        )
        assert response.status_code == 422
        seen.append(visible_text(response))
    signed_in = Client()
    signed_in.force_login(director)
    response = signed_in.post(
        reverse("password_change"),
        {"old_password": "fout", "new_password1": "password123", "new_password2": "password123"},
    )
    assert response.status_code == 422
    seen.append(visible_text(response))
    text = " ".join(seen)
    assert "Dit wachtwoord is te kort" in text
    assert "lijkt te veel op de gebruikersnaam" in text
    assert "Dit wachtwoord bevat alleen cijfers" in text
    assert "komen niet overeen" in text
    assert "Je huidige wachtwoord klopt niet" in text  # the site's "je", not Django's "Uw"
    assert re.findall(r"[^.]*[Pp]assword[^.]*", text) == []


@pytest.mark.django_db
def test_a_weak_new_password_is_told_under_the_new_password(director):
    signed_in = Client()
    signed_in.force_login(director)
    response = signed_in.post(
        reverse("password_change"),
        {"old_password": "fout", "new_password1": "kort", "new_password2": "kort"},
    )
    assert response.status_code == 422
    form = response.context["form"]
    assert "te kort" in " ".join(form.errors["new_password1"])
    assert "new_password2" not in form.errors
    page = response.content.decode()
    assert 'id="error-summary"' in page
    assert 'href="#id_new_password1"' in page
    assert "autofocus" not in page.split('name="old_password"')[1].split(">")[0]
