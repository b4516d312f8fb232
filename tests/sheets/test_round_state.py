"""A save locks the round only when it can start, finish or take back what the round's state
depends on; this walks every case against ``scoring.rounds.round_state``, the rule itself.
"""

from __future__ import annotations

from itertools import product

import pytest

from scoring.deals import DEAL_COUNT
from scoring.rounds import round_state
from scoring.sheet import DealEntry, Sheet
from tournament.models import Round
from tournament.sheets.services import _round_lock_needed

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
def test_a_save_that_skips_the_round_lock_cannot_start_or_complete_it(before, after):
    for others, seated_as in product(OTHERS, STATES):
        # The state as the round's committed sheets put it before this save, and after it.
        current = round_state(on_tables(*others, PROGRESS[before]), current=seated_as)
        new = round_state(on_tables(*others, PROGRESS[after]), current=current)
        if not _round_lock_needed(PROGRESS[before], PROGRESS[after]):
            # The seating's changes wait for the lock while nothing is entered ...
            assert (current == Round.State.SEATED) == (new == Round.State.SEATED)
            # ... and the backup of a completed round is decided under it.
            assert new != Round.State.COMPLETE or current == Round.State.COMPLETE


@pytest.mark.parametrize(
    "before,after,needed",
    [
        ("empty", "in play", True),  # the first entry: the seating may not change under it
        ("in play", "empty", True),
        ("in play", "finished", True),  # the round may be complete now
        ("empty", "finished", True),
        ("in play", "in play", False),  # the usual save: thirty tables do not queue
        ("finished", "finished", False),
        ("finished", "in play", False),
    ],
)
def test_which_saves_lock_the_round(before, after, needed):
    assert _round_lock_needed(PROGRESS[before], PROGRESS[after]) is needed
