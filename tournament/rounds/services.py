"""Services on rounds: closing and reopening one (its backup once its sheets complete it is
``tournament_file.backups.round_backup_when_complete``)."""

from __future__ import annotations

from django.db import models, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournament.adapter import SheetStatus, load_table_sheets
from tournament.errors import Refused
from tournament.models import Round


class CloseRefusal(models.TextChoices):
    """Why the director's "close the round" was refused."""

    NOT_STARTED = (
        "round_not_started",
        _("This round has not been published yet: there is nothing to close."),
    )


def round_unfinished_tables(round_: Round) -> list[int]:
    """The numbers of the round's tables whose sheet is not complete."""
    return [
        sheet.table_number
        for sheet in load_table_sheets(tournament=round_.tournament, round_number=round_.number)
        if sheet.status != SheetStatus.COMPLETE
    ]


def round_close(*, round_: Round) -> Round:
    """Close the round: from now on its table links show the sheet and save nothing (the
    director's own sheet pages still save). Closing twice keeps the first time."""
    if not round_.published:
        raise Refused.because(CloseRefusal.NOT_STARTED, round=round_.number)
    with transaction.atomic():
        # A save through a link reads the round after taking the table's lock; taking the
        # round's lock here orders a close after any save that is under way.
        locked = Round.objects.select_for_update().get(pk=round_.pk)
        if locked.closed_at is None:
            locked.closed_at = timezone.now()
            locked.save(update_fields=["closed_at"])
    return locked


def round_reopen(*, round_: Round) -> Round:
    """Open a closed round again: its table links save again (unless the round is complete
    and the next round is seated, which closes a link by itself)."""
    Round.objects.filter(pk=round_.pk).update(closed_at=None)
    round_.closed_at = None
    return round_
