"""Services on rounds: keeping a round's state in step with its sheets (``scoring.rounds``)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from functools import partial

from django.db import transaction

from scoring.rounds import round_state
from tournament.adapter import TableSheet, load_table_sheets
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
