"""A save leaves the round's state alone only when the rule for the state says it cannot move.

``tournament.sheets.services`` skips re-deciding the round's state (and locking the round) for
most saves; this walks every case against ``scoring.rounds.round_state``, the rule itself.
"""

from __future__ import annotations

from itertools import product
from types import SimpleNamespace

import pytest

from scoring.deals import DEAL_COUNT
from scoring.rounds import round_state
from scoring.sheet import DealEntry, Sheet
from tournament.models import Round
from tournament.sheets.services import _round_lock_needed, _round_may_change

EMPTY = Sheet(4, ())
IN_PLAY = Sheet(4, (DealEntry((0, 1, None, None), (None,) * 4),))
FINISHED = Sheet(4, (DealEntry((0,) * 4, (0, 1, 0, 0)),) * DEAL_COUNT)
PROGRESS = {"empty": EMPTY, "in play": IN_PLAY, "finished": FINISHED}
# The other tables of the round (none: a round of one table).
OTHERS = [(), (EMPTY,), (IN_PLAY,), (FINISHED,), (EMPTY, FINISHED), (IN_PLAY, FINISHED)]
STATES = [Round.State.SEATED, Round.State.PLAYING, Round.State.COMPLETE]


def on_tables(*sheets: Sheet) -> list[Sheet]:
    return list(sheets)


def test_the_sheet_knows_whether_it_is_started_and_finished():
    assert (EMPTY.started, EMPTY.finished) == (False, False)
    assert (IN_PLAY.started, IN_PLAY.finished) == (True, False)
    assert (FINISHED.started, FINISHED.finished) == (True, True)
    assert not Sheet(4, (DealEntry.empty(4),) * DEAL_COUNT).started


@pytest.mark.parametrize("before,after", list(product(PROGRESS, PROGRESS)))
def test_a_save_that_skips_the_round_cannot_move_its_state(before, after):
    for others, seated_as in product(OTHERS, STATES):
        # The state as the round's committed sheets put it before this save.
        current = round_state(on_tables(*others, PROGRESS[before]), current=seated_as)
        table = SimpleNamespace(round=SimpleNamespace(state=current))
        new = round_state(on_tables(*others, PROGRESS[after]), current=current)
        if not _round_may_change(table, PROGRESS[before], PROGRESS[after]):
            assert new == current, (others, current)
        if not _round_lock_needed(table, PROGRESS[before], PROGRESS[after]):
            assert new == current == Round.State.PLAYING, (others, current)
