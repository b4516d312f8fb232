"""Django's ``sendtestemail``, saying what happened: that e-mail is off (no ``EMAIL_HOST``)
instead of sending nowhere in silence, the mail server's refusal in one line instead of a
traceback, and to whom the mail went."""

from __future__ import annotations

import smtplib
from typing import Any

from django.conf import settings
from django.core.management.base import CommandError
from django.core.management.commands import sendtestemail
from django.utils.translation import gettext as _

from tournament.mail.sending import email_enabled
from tournament.management.base import SiteCommand


class Command(SiteCommand, sendtestemail.Command):
    def handle(self, *args: Any, **kwargs: Any) -> None:
        if not email_enabled():
            raise CommandError(
                _(
                    "E-mail is off: EMAIL_HOST is not set in the settings, so nothing was sent. "
                    "Set EMAIL_HOST (and EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, "
                    "DEFAULT_FROM_EMAIL) and restart the site."
                )
            )
        try:
            super().handle(*args, **kwargs)
        except (OSError, smtplib.SMTPException) as error:
            raise CommandError(
                _("The mail server %(host)s:%(port)s did not take the mail: %(reason)s")
                % {
                    "host": settings.EMAIL_HOST,
                    "port": settings.EMAIL_PORT,
                    "reason": " ".join(str(error).split()) or error.__class__.__name__,
                }
            ) from None
        to = ", ".join(kwargs["email"]) or _("the site's admins and managers")
        self.stdout.write(
            _("Test mail sent to %(to)s through %(host)s:%(port)s.")
            % {"to": to, "host": settings.EMAIL_HOST, "port": settings.EMAIL_PORT}
        )
