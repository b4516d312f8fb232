"""Services on rounds: keeping a round's state in step with its sheets (``scoring.rounds``)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from functools import partial

from django.db import models, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring.rounds import round_state
from tournament.adapter import SheetStatus, TableSheet, load_table_sheets
from tournament.errors import Refused
from tournament.models import Round, Tournament
from tournament.tournament_file.backups import backup_after_round


def rounds_refresh_state(
    *, tournament: Tournament, numbers: Sequence[int] | None = None, backup: bool = True
) -> None:
    """Store each round's state as its sheets have it. A round that has just become complete
    is backed up to a file once the transaction commits (unless ``backup`` is off)."""
    sheets_by_round: dict[int, list[TableSheet]] = defaultdict(list)
    round_filter = numbers[0] if numbers is not None and len(numbers) == 1 else None
    for sheet in load_table_sheets(tournament=tournament, round_number=round_filter):
        sheets_by_round[sheet.round_number].append(sheet)
    rounds = tournament.rounds.all()
    if numbers is not None:
        rounds = rounds.filter(number__in=numbers)
    changed: dict[str, list[int]] = defaultdict(list)
    for round_ in rounds:
        sheets = [table.sheet for table in sheets_by_round.get(round_.number, [])]
        state = round_state(sheets, current=round_.state)
        if round_.state != state:
            changed[state].append(round_.pk)
    for state, pks in changed.items():
        Round.objects.filter(pk__in=pks).update(state=state)
    if backup:
        for round_ in rounds:
            if round_.pk in changed.get(Round.State.COMPLETE, []):
                transaction.on_commit(partial(backup_after_round, tournament.pk, round_.number))


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
    if round_.state == Round.State.DRAFT:
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
