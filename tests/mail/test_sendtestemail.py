"""``manage.py sendtestemail``: the operator's first test of the mail settings says what
happened, with e-mail on, off, and the mail server unreachable."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command


def test_the_test_mail_arrives_and_the_command_says_so(mailbox):
    out = io.StringIO()
    call_command("sendtestemail", "beheer@club.example", stdout=out)
    assert [str(m["To"]) for m in mailbox.messages] == ["beheer@club.example"]
    assert "beheer@club.example" in out.getvalue() and "127.0.0.1" in out.getvalue()


def test_with_email_off_it_says_nothing_was_sent(email_off):
    with pytest.raises(CommandError, match="EMAIL_HOST"):
        call_command("sendtestemail", "beheer@club.example")


def test_an_unreachable_mail_server_is_one_line_naming_it(smtp_down, settings):
    with pytest.raises(CommandError) as refused:
        call_command("sendtestemail", "beheer@club.example")
    assert f"127.0.0.1:{settings.EMAIL_PORT}" in str(refused.value)
