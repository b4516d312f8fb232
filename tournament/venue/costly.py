"""Costly work (reading and storing an uploaded file) kept from crowding out the phones.

A large tournament file or spreadsheet takes seconds of CPU to check and store; a few of them
at once took the tables' saves from 50 ms to seconds. So:

- one at a time per machine: the work holds a lock file (``fcntl``) while it runs, shared by
  every worker and every server process on the machine, since they share its cores; a second
  upload meanwhile is refused at once with a plain message (waiting would hold a worker that a
  phone needs). Photos have a lock of their own (below);
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

Photos of score sheets (``kind=CostlyWork.Kind.PHOTO``) are counted apart, against their own
limits (``COSTLY_PHOTOS_PER_ACCOUNT``, ``COSTLY_PHOTOS_PER_CLUB``, and per table link
``COSTLY_PHOTOS_PER_LINK``): a round's photos are many small jobs where a file is one large
one, and reading them must not use up the imports. A photo sent through a table's link counts
against that link, whoever is signed in: anyone holding the link (another club's account too)
gets its few photos, never the account's many nor, beyond them, the club's. Photos are read
one at a time under a lock of their own, so that one club's photos never make another
club's import or backup refused as "busy"; a photo waits a few seconds for it
(``COSTLY_PHOTO_WAIT_SECONDS``) rather than being refused at once: a director sends a round's
photos one after the other, each read in a second or two.
"""

from __future__ import annotations

import datetime
import hashlib
import os
import tempfile
import threading
import time
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
from tournament.models import Club, CostlyWork, TableLink

fcntl: Any
try:
    import fcntl
except ImportError:  # Windows: no lock file; the per-account count still holds
    fcntl = None

DEFAULT_PER_ACCOUNT = 20
DEFAULT_PER_CLUB = 60
DEFAULT_WINDOW_SECONDS = 600
DEFAULT_NICE = 10
DEFAULT_PHOTOS_PER_ACCOUNT = 60
DEFAULT_PHOTOS_PER_CLUB = 150
DEFAULT_PHOTOS_PER_LINK = 10
DEFAULT_PHOTO_WAIT_SECONDS = 4.0
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
    PHOTOS_BUSY = (
        "costly_photos_busy",
        _(
            "The site is reading other photos right now. Try again in a minute: nothing of this "
            "photo was stored."
        ),
    )
    PHOTOS_TOO_OFTEN = (
        "costly_photos_too_often",
        _(
            "Many photos were read for you (or this table) in the last few minutes; wait a few "
            "minutes before the next one. Nothing of this photo was stored."
        ),
    )
    CLUB_PHOTOS_TOO_OFTEN = (
        "costly_club_photos_too_often",
        _(
            "Your club has had many photos read in the last few minutes; wait a few minutes "
            "before the next one. Nothing of this photo was stored."
        ),
    )


def _setting(name: str, default: int) -> int:
    return int(getattr(settings, name, default))


def _lock_path(kind: str = CostlyWork.Kind.FILE) -> Path:
    """One lock file per installation on this machine (its database names it) and kind of
    work: the photos' lock is not the files' one."""
    name = str(settings.DATABASES["default"].get("NAME", ""))
    digest = hashlib.sha256(f"{settings.BASE_DIR}|{name}".encode()).hexdigest()[:16]
    prefix = "bollen-photos" if kind == CostlyWork.Kind.PHOTO else "bollen-costly"
    return Path(tempfile.gettempdir()) / f"{prefix}-{digest}.lock"


def _count_started(
    user: User | AnonymousUser,
    club: Club | None,
    kind: str = CostlyWork.Kind.FILE,
    link: TableLink | None = None,
) -> None:
    """Count one more costly job of ``kind`` for ``user`` (or, whoever sends, ``link``) and
    ``club`` in this window; refuse (and count nothing) above the limits."""
    window = _setting("COSTLY_WINDOW_SECONDS", DEFAULT_WINDOW_SECONDS)
    photo = kind == CostlyWork.Kind.PHOTO
    if photo:
        per_account = _setting("COSTLY_PHOTOS_PER_ACCOUNT", DEFAULT_PHOTOS_PER_ACCOUNT)
        per_club = _setting("COSTLY_PHOTOS_PER_CLUB", DEFAULT_PHOTOS_PER_CLUB)
        too_often, club_too_often = (
            CostlyRefusal.PHOTOS_TOO_OFTEN,
            CostlyRefusal.CLUB_PHOTOS_TOO_OFTEN,
        )
    else:
        per_account = _setting("COSTLY_PER_ACCOUNT", DEFAULT_PER_ACCOUNT)
        per_club = _setting("COSTLY_PER_CLUB", DEFAULT_PER_CLUB)
        too_often, club_too_often = CostlyRefusal.TOO_OFTEN, CostlyRefusal.CLUB_TOO_OFTEN
    since = timezone.now() - datetime.timedelta(seconds=window)
    CostlyWork.objects.filter(started_at__lt=since).delete()
    account = user if user.is_authenticated else None
    recent = CostlyWork.objects.filter(started_at__gte=since, kind=kind)
    if link is not None:  # a table's link: counted per link, whoever is signed in
        mine = recent.filter(link=link)
        per_account = _setting("COSTLY_PHOTOS_PER_LINK", DEFAULT_PHOTOS_PER_LINK)
    else:
        mine = recent.filter(user=account, link__isnull=True)
    if mine.count() >= per_account:
        raise Refused.because(too_often)
    if club is not None and recent.filter(club=club).count() >= per_club:
        raise Refused.because(club_too_often)
    CostlyWork.objects.create(user=account, club=club, kind=kind, link=link)


def _locked(handle: Any, wait: float) -> bool:
    """Take the machine's lock on ``handle``, trying for up to ``wait`` seconds."""
    deadline = time.monotonic() + wait
    while True:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.1)


@contextmanager
def _slot(
    user: User | AnonymousUser,
    club: Club | None = None,
    *,
    counted: bool = True,
    kind: str = CostlyWork.Kind.FILE,
    link: TableLink | None = None,
) -> Iterator[None]:
    """This machine's one costly job of ``kind``, counted for ``user`` and ``club`` (unless not
    ``counted``); refused (with nothing done) when another runs or they did too many lately."""
    if fcntl is None:
        if counted:
            _count_started(user, club, kind, link)
        yield
        return
    wait, busy = 0.0, CostlyRefusal.BUSY
    photo = kind == CostlyWork.Kind.PHOTO
    if photo:
        wait = float(getattr(settings, "COSTLY_PHOTO_WAIT_SECONDS", DEFAULT_PHOTO_WAIT_SECONDS))
        busy = CostlyRefusal.PHOTOS_BUSY
        if counted:
            # Counted before it waits: a photo that then finds the machine busy has still
            # taken a turn, so that nobody keeps the photos' lock by sending faster than it
            # reads (refused while waiting, such photos would otherwise never count).
            _count_started(user, club, kind, link)
    with _lock_path(kind).open("a") as handle:
        if not _locked(handle, wait):
            raise Refused.because(busy)
        try:
            if counted and not photo:
                _count_started(user, club, kind, link)
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
    kind: str = CostlyWork.Kind.FILE,
    link: TableLink | None = None,
) -> T:
    """Run ``work()`` as this machine's one costly job, counted for ``user`` and the ``club``
    it is for, at a lower CPU priority; ``Refused`` (nothing done) when it may not start now.
    A job that stores nothing (a preview, rolled back) is not ``counted``: looking at it again
    must not use up the imports an account or a club may start; it still waits its turn.
    ``kind``: what is counted against which limits (see the module); ``link``: the table link
    an anonymous photo came through."""
    nice = int(getattr(settings, "COSTLY_NICE", DEFAULT_NICE))
    with _slot(user, club, counted=counted, kind=kind, link=link):
        if nice <= 0 or not hasattr(os, "setpriority"):
            return work()
        return _niced(work, nice)
