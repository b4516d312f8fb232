"""A round's state as its sheets put it: seated until the first entry, playing, complete.

The director chooses the states before play (a draft plan, then seated); from the first entry on
the sheets decide, and taking back every entry puts a round back to seated.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from scoring.sheet import Sheet


class RoundState(StrEnum):
    DRAFT = "draft"
    SEATED = "seated"
    PLAYING = "playing"
    COMPLETE = "complete"


PLAYED = (RoundState.PLAYING, RoundState.COMPLETE)


def round_state(sheets: Sequence[Sheet], *, current: str) -> RoundState:
    """The state a round's sheets put it in: playing, or complete once every game is done.

    A round without any entry keeps its seating state (a draft stays a draft).
    """
    if sheets and all(sheet.finished for sheet in sheets):
        return RoundState.COMPLETE
    if any(sheet.started for sheet in sheets):
        return RoundState.PLAYING
    if current in PLAYED:
        return RoundState.SEATED  # every entry was taken back
    return RoundState(current)
