"""Costly work (reading and storing an uploaded file) kept from crowding out the phones.

A large tournament file or spreadsheet takes seconds of CPU to check and store; a few of them
at once took the tables' saves from 50 ms to seconds. So:

- one at a time per machine: the work holds a lock file (``fcntl``) while it runs, shared by
  every worker and every server process on the machine, since they share its cores; a second
  upload meanwhile is refused at once with a plain message (waiting would hold a worker that a
  phone needs);
- a number per account and per club per window (``COSTLY_PER_ACCOUNT``,
  ``COSTLY_PER_CLUB`` in ``COSTLY_WINDOW_SECONDS``), counted in the database (``CostlyWork``,
  so across servers; a cache would forget the count when it fills up): one club's people
  cannot keep the others' files out;
- at a lower CPU priority (``COSTLY_NICE``, 10): the work runs in a thread of its own whose
  nice value is raised (Linux gives each thread its own), with a database connection of its
  own, closed when it ends; the request waits for it. The tables' saves then get the cores
  first, and the file is read in the time between. (``COSTLY_NICE = 0``: in the request's own
  thread, as the test suite does, whose database lives in one transaction.)

``costly(user, work)`` runs ``work()`` so and returns what it returns; it raises ``Refused``
before anything is read when the work may not start.
"""

from __future__ import annotations

import datetime
import hashlib
import os
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.db import connections, models
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from tournament.errors import Refused
from tournament.models import Club, CostlyWork

fcntl: Any
try:
    import fcntl
except ImportError:  # Windows: no lock file; the per-account count still holds
    fcntl = None

DEFAULT_PER_ACCOUNT = 20
DEFAULT_PER_CLUB = 60
DEFAULT_WINDOW_SECONDS = 600
DEFAULT_NICE = 10
T = TypeVar("T")


class CostlyRefusal(models.TextChoices):
    BUSY = (
        "costly_busy",
        _(
            "The site is reading another large file right now. Try again in a minute: nothing "
            "of this file was stored."
        ),
    )
    CLUB_TOO_OFTEN = (
        "costly_club_too_often",
        _(
            "Your club has imported many files in the last few minutes; wait a few minutes "
            "before the next one. Nothing of this file was stored."
        ),
    )
    TOO_OFTEN = (
        "costly_too_often",
        _(
            "You have imported many files in the last few minutes; wait a few minutes before "
            "the next one. Nothing of this file was stored."
        ),
    )


def _lock_path() -> Path:
    """One lock file per installation on this machine (its database names it)."""
    name = str(settings.DATABASES["default"].get("NAME", ""))
    digest = hashlib.sha256(f"{settings.BASE_DIR}|{name}".encode()).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"bollen-costly-{digest}.lock"


def _count_started(user: User | AnonymousUser, club: Club | None) -> None:
    """Count one more costly job for ``user`` and ``club`` in this window; refuse (and count
    nothing) above the limits."""
    window = int(getattr(settings, "COSTLY_WINDOW_SECONDS", DEFAULT_WINDOW_SECONDS))
    per_account = int(getattr(settings, "COSTLY_PER_ACCOUNT", DEFAULT_PER_ACCOUNT))
    per_club = int(getattr(settings, "COSTLY_PER_CLUB", DEFAULT_PER_CLUB))
    since = timezone.now() - datetime.timedelta(seconds=window)
    CostlyWork.objects.filter(started_at__lt=since).delete()
    account = user if user.is_authenticated else None
    recent = CostlyWork.objects.filter(started_at__gte=since)
    if recent.filter(user=account).count() >= per_account:
        raise Refused.because(CostlyRefusal.TOO_OFTEN)
    if club is not None and recent.filter(club=club).count() >= per_club:
        raise Refused.because(CostlyRefusal.CLUB_TOO_OFTEN)
    CostlyWork.objects.create(user=account, club=club)


@contextmanager
def _slot(
    user: User | AnonymousUser, club: Club | None = None, *, counted: bool = True
) -> Iterator[None]:
    """This machine's one costly job, counted for ``user`` and ``club`` (unless not
    ``counted``); refused (with nothing done) when another runs or they did too many lately."""
    if fcntl is None:
        if counted:
            _count_started(user, club)
        yield
        return
    with _lock_path().open("a") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise Refused.because(CostlyRefusal.BUSY) from None
        try:
            if counted:
                _count_started(user, club)
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _niced(work: Callable[[], T], nice: int) -> T:
    """``work()`` in a thread of its own at nice value ``nice``, in the request's language."""
    language = translation.get_language()
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), nice)
            with translation.override(language):
                outcome["value"] = work()
        except BaseException as error:  # handed to the request's thread below
            outcome["error"] = error
        finally:
            connections.close_all()  # this thread's own connections

    thread = threading.Thread(target=run, name="bollen-costly", daemon=True)
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    value: T = outcome["value"]
    return value


def costly(
    user: User | AnonymousUser,
    work: Callable[[], T],
    *,
    club: Club | None = None,
    counted: bool = True,
) -> T:
    """Run ``work()`` as this machine's one costly job, counted for ``user`` and the ``club``
    it is for, at a lower CPU priority; ``Refused`` (nothing done) when it may not start now.
    A job that stores nothing (a preview, rolled back) is not ``counted``: looking at it again
    must not use up the imports an account or a club may start; it still waits its turn."""
    nice = int(getattr(settings, "COSTLY_NICE", DEFAULT_NICE))
    with _slot(user, club, counted=counted):
        if nice <= 0 or not hasattr(os, "setpriority"):
            return work()
        return _niced(work, nice)
