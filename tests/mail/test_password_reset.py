"""A forgotten password, reset by e-mail through a real SMTP server on the loopback address:
the mail, its one-time link that expires, the same answer for an unknown address, the limits
per address and per client, and the sign-in pause lifted by the new password."""

from __future__ import annotations

import datetime
import re

import pytest
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.urls import reverse

from tournament.mail.sending import mail_sent_later
from tournament.mail.throttle import DEFAULT_PER_ADDRESS

pytestmark = pytest.mark.django_db

OLD = "klaveren-aas-2026"
NEW = "schoppen vrouw en harten boer"


@pytest.fixture
def anna(django_user_model):
    return django_user_model.objects.create_user("anna", email="Anna@Club.example", password=OLD)


def ask(client, address="anna@club.example", **extra):
    return client.post(reverse("password_reset"), {"email": address}, **extra)


def page_text(response) -> str:
    """The page without its CSRF tokens (new on every page)."""
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", response.content.decode())


def sign_in(client, password):
    return client.post(reverse("login"), {"username": "anna", "password": password})


def test_a_forgotten_password_is_reset_with_the_link_in_the_mail_once(
    client, anna, mailbox, settings
):
    settings.AXES_ENABLED = True
    for _attempt in range(5):  # five wrong passwords: signing in is paused
        sign_in(client, "fout")
    paused = sign_in(client, OLD)
    assert paused.status_code == 429
    assert reverse("password_reset") in paused.content.decode()  # the way out, on the page

    login = client.get(reverse("login")).content.decode()
    assert f'href="{reverse("password_reset")}"' in login
    assert "Wachtwoord vergeten?" in login

    asked = ask(client, "ANNA@club.example")  # in any case
    assert asked.status_code == 302 and asked.url == reverse("password_reset_done")
    done = client.get(asked.url).content.decode()
    assert "Als een account van deze site dat e-mailadres heeft" in done

    [mail] = mailbox.messages
    assert mail["To"] == "Anna@club.example"
    assert mail["Subject"] == "Een nieuw wachtwoord voor Bollentoernooi"
    text = mailbox.text(mail)
    assert "het account anna" in text
    assert "2 uur lang" in text  # PASSWORD_RESET_TIMEOUT
    link = mailbox.link(mail)
    assert link.startswith("http://testserver/account/reset/")  # the address the browser used

    opened = client.get(link)
    assert opened.status_code == 302  # the token moves into the session, out of the address
    form = client.get(opened.url)
    assert form.status_code == 200
    assert "Kies een nieuw wachtwoord" in form.content.decode()
    short = client.post(opened.url, {"new_password1": "kort", "new_password2": "kort"})
    assert short.status_code == 422
    saved = client.post(opened.url, {"new_password1": NEW, "new_password2": NEW})
    assert saved.status_code == 302 and saved.url == reverse("password_reset_complete")
    assert "Nieuw wachtwoord opgeslagen" in client.get(saved.url).content.decode()

    # The pause is lifted, the new password signs in, the old one no longer does.
    assert sign_in(client, NEW).status_code == 302
    client.logout()
    assert sign_in(client, OLD).status_code == 422

    again = client.get(link)  # the link works once
    assert again.status_code == 410
    page = again.content.decode()
    assert "Deze link werkt niet meer" in page
    assert reverse("password_reset") in page


def test_an_expired_or_altered_link_is_refused_with_a_clear_page(
    client, anna, mailbox, monkeypatch
):
    ask(client)
    link = mailbox.link(mailbox.messages[0])
    real_now = PasswordResetTokenGenerator._now
    later = real_now(PasswordResetTokenGenerator()) + datetime.timedelta(hours=2, seconds=1)
    monkeypatch.setattr(PasswordResetTokenGenerator, "_now", lambda self: later)
    expired = client.get(link)
    assert expired.status_code == 410
    assert "Deze link werkt niet meer" in expired.content.decode()
    monkeypatch.setattr(PasswordResetTokenGenerator, "_now", real_now)

    altered = link.rstrip("/")[:-1] + ("a" if not link.rstrip("/").endswith("a") else "b") + "/"
    assert client.get(altered).status_code == 410
    # Within its two hours the link still works (the refusals above used nothing up).
    assert client.get(link).status_code == 302
    anna.refresh_from_db()
    assert anna.check_password(OLD)


def test_an_unknown_address_gets_the_same_page_and_no_mail(client, anna, mailbox):
    unknown = ask(client, "niemand@club.example")
    known = ask(client, "anna@club.example")
    assert unknown.status_code == known.status_code == 302
    assert unknown.url == known.url
    assert page_text(client.get(unknown.url)) == page_text(client.get(known.url))
    assert [m["To"] for m in mailbox.messages] == ["Anna@club.example"]
    # An account without a usable password or switched off gets nothing either.
    anna.is_active = False
    anna.save()
    ask(client)
    assert len(mailbox.messages) == 1


def test_the_answer_does_not_wait_for_the_mail_server(client, anna, mailbox, caplog):
    """A known address must not answer slower than an unknown one: the mail goes out after.
    (Sent while answering, the answer would come only when the sender gave up waiting.)"""
    with mailbox.held():  # the mail server takes the mail but does not answer it yet
        asked = ask(client)
        assert asked.status_code == 302
        assert mailbox.reached()
    assert [m["To"] for m in mailbox.messages] == ["Anna@club.example"]
    assert "not sent" not in caplog.text


def test_the_link_uses_the_servers_site_url(client, anna, mailbox, settings):
    settings.SITE_URL = "https://bollen.example.nl"
    ask(client)
    assert mailbox.link(mailbox.messages[0]).startswith("https://bollen.example.nl/account/reset/")


def test_reset_mails_are_limited_per_address_and_per_client(client, anna, mailbox, settings):
    for _attempt in range(DEFAULT_PER_ADDRESS):
        assert ask(client).status_code == 302
    refused = ask(client)
    assert refused.status_code == 429
    assert "het afgelopen uur al een paar keer" in refused.content.decode()
    assert len(mailbox.messages) == DEFAULT_PER_ADDRESS
    # An unknown address is counted alike, so the limit tells nothing about who has an account.
    for _attempt in range(DEFAULT_PER_ADDRESS):
        ask(client, "niemand@club.example", REMOTE_ADDR="10.0.0.7")
    assert ask(client, "niemand@club.example", REMOTE_ADDR="10.0.0.7").status_code == 429

    settings.RESET_MAIL_PER_CLIENT = 2
    other = {"REMOTE_ADDR": "10.0.0.9"}
    assert ask(client, "een@club.example", **other).status_code == 302
    assert ask(client, "twee@club.example", **other).status_code == 302
    flood = ask(client, "drie@club.example", **other)
    assert flood.status_code == 429
    assert "Vanaf dit apparaat" in flood.content.decode()
    assert len(mailbox.messages) == DEFAULT_PER_ADDRESS  # none of them had an account


def test_with_email_off_the_pages_say_who_sets_a_new_password(client, anna, email_off):
    login = client.get(reverse("login")).content.decode()
    assert f'href="{reverse("password_reset")}"' not in login
    assert "Deze site verstuurt geen e-mail" in login
    assert "manage.py changepassword" in login
    page = client.get(reverse("password_reset"))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Deze site verstuurt geen e-mail" in text
    assert 'name="email"' not in text
    assert ask(client).status_code == 200  # the same page; nothing sent, nothing to send with


def test_with_the_mail_server_down_the_reset_page_still_answers_the_same(
    client, anna, smtp_down, caplog
):
    asked = ask(client)
    assert asked.status_code == 302 and asked.url == reverse("password_reset_done")
    mail_sent_later()
    assert "mail password_reset not sent" in caplog.text  # the operator finds why in the log
