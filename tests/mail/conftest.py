"""A real SMTP server on the loopback address for the e-mail tests: aiosmtpd's ``Controller``
on a free port, started once for the session, whose messages a test reads from ``mailbox``.
The site sends to it through Django's own SMTP backend, as it would to the club's provider."""

from __future__ import annotations

import contextlib
import email
import re
import socket
import threading
from email import policy
from email.message import EmailMessage

import pytest
from aiosmtpd.controller import Controller
from django.core.mail.utils import DNS_NAME

from tournament.mail.sending import mail_sent_later


class Collector:
    """aiosmtpd's handler: every message the server accepted, parsed."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self.recipients: list[list[str]] = []
        self._lock = threading.Lock()
        self.release = threading.Event()
        self.release.set()
        self.arrived = threading.Semaphore(0)

    async def handle_DATA(self, server, session, envelope):  # aiosmtpd calls it so
        self.arrived.release()
        self.release.wait()  # held: the server has the mail and has not answered yet
        message = email.message_from_bytes(envelope.content, policy=policy.default)
        with self._lock:
            self.messages.append(message)
            self.recipients.append(list(envelope.rcpt_tos))
        return "250 Message accepted for delivery"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="session")
def smtp_server():
    # Django names this machine in every mail (socket.getfqdn(), asked once per process); a
    # resolver without that name takes seconds to say so. Any name does for the tests.
    DNS_NAME._fqdn = "bollen.test"
    collector = Collector()
    controller = Controller(collector, hostname="127.0.0.1", port=free_port())
    controller.start()
    yield controller
    controller.stop()


class Mailbox:
    def __init__(self, collector: Collector, port: int) -> None:
        self._collector = collector
        self.port = port

    @contextlib.contextmanager
    def held(self):
        """The server takes mails within the block but answers each only after it."""
        self._collector.release.clear()
        try:
            yield
        finally:
            self._collector.release.set()

    def reached(self) -> bool:
        """Whether a mail reached the server (waited for at most 10 s)."""
        return self._collector.arrived.acquire(timeout=10)

    def clear(self) -> None:
        while self._collector.arrived.acquire(blocking=False):
            pass
        self._collector.messages.clear()
        self._collector.recipients.clear()

    @property
    def messages(self) -> list[EmailMessage]:
        mail_sent_later()  # the password reset's mails go out after the answer
        return list(self._collector.messages)

    def to(self, address: str) -> list[EmailMessage]:
        return [m for m in self.messages if str(m["To"]).lower() == address.lower()]

    @staticmethod
    def text(message: EmailMessage) -> str:
        return message.get_body(preferencelist=("plain",)).get_content()

    def link(self, message: EmailMessage) -> str:
        """The one web address in the mail's text."""
        links = re.findall(r"https?://\S+", self.text(message))
        assert len(links) == 1, links
        return links[0]


def _use_smtp(settings, port: int) -> None:
    settings.EMAIL_ENABLED = True
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = port
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_USE_TLS = False
    settings.EMAIL_USE_SSL = False
    settings.EMAIL_HOST_USER = ""
    settings.EMAIL_HOST_PASSWORD = ""
    settings.EMAIL_TIMEOUT = 5
    settings.DEFAULT_FROM_EMAIL = "Bollen <bollen@club.example>"


@pytest.fixture
def mailbox(smtp_server, settings):
    """E-mail on, through the loopback SMTP server; empty at the start of the test."""
    box = Mailbox(smtp_server.handler, smtp_server.port)
    box.clear()
    _use_smtp(settings, smtp_server.port)
    return box


@pytest.fixture
def smtp_down(settings):
    """E-mail on, but nothing listens where the mail server should be."""
    _use_smtp(settings, free_port())


@pytest.fixture
def email_off(settings):
    settings.EMAIL_ENABLED = False
    settings.EMAIL_HOST = ""
    settings.EMAIL_BACKEND = "django.core.mail.backends.dummy.EmailBackend"
