"""An installed site (no checkout's manage.py beside the code) names its own commands in what
it tells the operator: ``bollen manage`` and ``bollen serve``, never ``make run``."""

import io

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import override_settings
from django.urls import reverse

from tournament.management.commands.serve import banner
from tournament.text import manage_command

pytestmark = pytest.mark.django_db


@override_settings(CHECKOUT=False, EMAIL_ENABLED=False)
def test_an_installed_site_names_bollen_manage_and_bollen_serve(client, django_user_model):
    django_user_model.objects.create_superuser("directeur", password="klaveren-aas-2026")

    login = client.get(reverse("login")).content.decode()
    assert "<pre>bollen manage changepassword USERNAME</pre>" in login
    assert "<pre>bollen manage ensure_director --new-password</pre>" in login
    assert "manage.py" not in login

    out = io.StringIO()
    call_command("ensure_director", stdout=out)
    assert "Maak een nieuw: bollen manage ensure_director --new-password" in out.getvalue()

    only_here = banner("127.0.0.1", 8000)
    assert only_here[-1].endswith("start zonder BIND: bollen serve")
    assert not any("make run" in line for line in only_here)


def test_a_checkout_names_make_run_and_the_virtualenvs_manage_py():
    assert settings.CHECKOUT  # the tests run from a checkout: manage.py is beside bollen/
    assert manage_command() == ".venv/bin/python manage.py"
    assert banner("127.0.0.1", 8000)[-1].endswith("start zonder BIND: make run")
