"""Opening a club backup's zip and reading its files, each with a limit on what it may unpack
to and all of them together with the backup's limit: the sizes in the zip are its own word, so
every file is read from the zip with the limit, never more."""

from __future__ import annotations

import io
import zipfile

from django.conf import settings as django_settings
from django.db import models
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournament.errors import PlacedProblem, Refused

DEFAULT_MAX_BYTES = 200 * 1024 * 1024  # unpacked; ``CLUB_BACKUP_MAX_BYTES`` sets another
# What each file of the zip may unpack to, read with that limit from the zip (a header's size
# is the zip's word, not a fact): manifest.json and club.json are small; a tournament or a
# competition is at most what one tournament file upload may be (``IMPORT_MAX_BYTES``).
SMALL_MAX_BYTES = 2 * 1024 * 1024
MAX_FILES = 5_000


class ClubFileRefusal(models.TextChoices):
    NOT_ZIP = (
        "club_file_not_zip",
        gettext_lazy(
            "This is not a club backup: a club backup is a .zip file, as “Download the club's "
            "backup” makes it."
        ),
    )
    NO_MANIFEST = (
        "club_file_no_manifest",
        gettext_lazy("This zip is not a club backup: it has no manifest.json."),
    )
    TOO_LARGE = (
        "club_file_too_large",
        gettext_lazy("The backup is too large to be restored on this site."),
    )
    TOO_MANY = (
        "club_file_too_many",
        gettext_lazy("The zip holds too many files to be a club backup."),
    )
    PROBLEM = "club_file_problem", gettext_lazy("The backup has a problem.")


class Problems:
    """Every problem found, each named with its file."""

    def __init__(self) -> None:
        self.items: list[PlacedProblem] = []

    def add(self, where: str, message: str) -> None:
        # The file's name as it is in the zip (a place would start it with a capital).
        problem = PlacedProblem(code=ClubFileRefusal.PROBLEM, message=f"{where}: {message}")
        self.items.append(problem)

    def refused(self, where: str, refused: Refused) -> None:
        for line in refused.lines():
            self.add(where, line)


def _max_bytes() -> int:
    return int(getattr(django_settings, "CLUB_BACKUP_MAX_BYTES", DEFAULT_MAX_BYTES))


class UnpackedZip:
    """The zip, read file by file with a limit on each file and on them all together."""

    def __init__(self, data: bytes) -> None:
        try:
            self.zip = zipfile.ZipFile(io.BytesIO(data))
        except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OSError):
            raise Refused.because(ClubFileRefusal.NOT_ZIP) from None
        entries = self.zip.infolist()
        if len(entries) > MAX_FILES:
            raise Refused.because(ClubFileRefusal.TOO_MANY)
        if sum(e.file_size for e in entries) > _max_bytes():  # the zip's word: a first check
            raise Refused.because(ClubFileRefusal.TOO_LARGE)
        self.names = {e.filename for e in entries if not e.is_dir()}
        self.left = _max_bytes()  # what the files read so far leave of the whole limit

    def read(self, name: str, limit: int, problems: Problems) -> bytes | None:
        """The file's bytes, unpacked at most ``limit`` (and what is left of the whole) bytes
        far; ``None`` with a problem naming it when it is larger, missing or damaged."""
        if name not in self.names:
            problems.add(name, _("The file is missing from the zip."))
            return None
        most = min(limit, self.left)
        try:
            with self.zip.open(name) as stream:
                raw = stream.read(most + 1)
        except (zipfile.BadZipFile, OSError, RuntimeError, EOFError, NotImplementedError):
            problems.add(name, _("The file cannot be unpacked (the zip is damaged or encrypted)."))
            return None
        if len(raw) > most:
            if most < limit:
                raise Refused.because(ClubFileRefusal.TOO_LARGE)
            problems.add(
                name,
                _("The file unpacks to more than %(max)s MB: too large for a club backup.")
                % {"max": f"{limit / 1_048_576:g}"},
            )
            return None
        self.left -= len(raw)
        return raw
