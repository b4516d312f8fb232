"""Sending a mail of the site, or saying why it was not sent.

E-mail is on when ``EMAIL_HOST`` is set (``settings.EMAIL_ENABLED``). A mail is a pair of
templates, ``mail/<name>_subject.html`` and ``mail/<name>.html``: plain text (every mail program
shows it; ``autoescape off``), named ``.html`` as Django's own ``password_reset_email.html`` is,
so that the wheel carries them with the other templates. They are rendered in the language
given: the site's (Dutch) for mail to someone else, the page's for a mail the visitor asked for
themselves. A server that cannot be reached or refuses the mail is not a bug of the site: the
caller hears ``FAILED`` and tells the person what to do instead, and the log has the reason.

A mail whose sending must not show in the time of the answer (the password reset: an answer
that took the mail server's half second would tell that the address has an account) is handed
to one background thread (:func:`mail_send_later`), which sends the mails in turn; at the
server's stop the thread finishes its queue.
"""

from __future__ import annotations

import logging
import smtplib
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from enum import StrEnum

from django.conf import settings
from django.core.mail import EmailMessage, get_connection
from django.template import loader
from django.utils import translation

logger = logging.getLogger(__name__)

_later = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bollen-mail")


class Sent(StrEnum):
    SENT = "sent"
    OFF = "off"  # the site sends no e-mail (no EMAIL_HOST)
    FAILED = "failed"  # the mail server could not be reached or refused it
    THROTTLED = "throttled"  # too many mails of this kind lately (``mail.throttle``)


def email_enabled() -> bool:
    """Whether the site sends e-mail: ``EMAIL_HOST`` is set."""
    return bool(getattr(settings, "EMAIL_ENABLED", False) and settings.EMAIL_HOST)


def mail_render(name: str, context: Mapping[str, object], *, language: str) -> tuple[str, str]:
    """The subject (one line) and the text of the mail ``name`` in ``language``."""
    with translation.override(language):
        subject = loader.render_to_string(f"mail/{name}_subject.html", dict(context))
        body = loader.render_to_string(f"mail/{name}.html", dict(context))
    return " ".join(subject.split()), body


def _messages(
    name: str, to: Sequence[str], context: Mapping[str, object], language: str | None
) -> list[EmailMessage]:
    """One mail to each address of ``to`` (nobody sees the others' addresses)."""
    subject, body = mail_render(name, context, language=language or settings.LANGUAGE_CODE)
    return [EmailMessage(subject, body, settings.DEFAULT_FROM_EMAIL, [to_]) for to_ in to]


def _deliver(name: str, messages: list[EmailMessage]) -> Sent:
    """Send ``messages`` over one connection; ``FAILED`` when the server took not all of them."""
    if not messages:
        return Sent.SENT
    try:
        with get_connection(fail_silently=False) as connection:
            sent = connection.send_messages(messages)
    except (OSError, smtplib.SMTPException) as error:  # refused, unreachable, timed out
        logger.warning("mail %s not sent: %s", name, error)
        return Sent.FAILED
    return Sent.SENT if sent == len(messages) else Sent.FAILED


def mail_send(
    *,
    name: str,
    to: Sequence[str],
    context: Mapping[str, object],
    language: str | None = None,
) -> Sent:
    """Send the mail ``name`` to each address of ``to`` (one mail each), over one connection.
    ``FAILED`` when the server took none or not all of them."""
    if not email_enabled():
        return Sent.OFF
    return _deliver(name, _messages(name, to, context, language))


def mail_send_later(
    *,
    name: str,
    to: Sequence[str],
    context: Mapping[str, object],
    language: str | None = None,
) -> None:
    """The mail made now (templates, language) and sent by the background thread: the caller
    does not wait for the mail server and cannot hear how it went (the log says)."""
    if email_enabled():
        _later.submit(_deliver, name, _messages(name, to, context, language))


def mail_sent_later() -> None:
    """Wait until every mail handed to :func:`mail_send_later` so far was sent or given up."""
    _later.submit(lambda: None).result()
