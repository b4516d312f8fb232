"""A conflict in words: the boxes two devices typed differently, the changes of the version
that is in the way (``describe_change``, also on the history and confirmation pages), and the
choices the plain form sends back (``apply_picks``) or gets again (``conflict_form_data``).
"""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import TypedDict

from django.http import QueryDict
from django.utils.translation import gettext as _

from scoring.deals import DEAL_COUNT
from tournament.errors import deal_name
from tournament.sheets.content import CellChange
from tournament.sheets.forms import cell_field
from tournament.sheets.submission import SheetConflict

EMPTY = "\N{EN DASH}"


class ChangeInWords(TypedDict):
    deal: str
    player: str
    what: str
    before: int | str
    after: int | str


class ConflictBox(TypedDict):
    deal: str
    player: str
    what: str
    theirs: int | str
    yours: int | str
    field: str
    theirs_value: int | str
    choosable: bool


class ConflictInWords(TypedDict):
    base: int
    current: int
    by: str | None
    at: datetime | None
    changes: list[ChangeInWords]
    boxes: list[ConflictBox]
    penalties: bool


def describe_change(change: CellChange, players: tuple[str, ...]) -> ChangeInWords:
    """A change in words: where (deal and player), what (bid, tricks, penalty bollen), from
    what to what."""
    what = {"bid": _("bid"), "tricks": _("tricks"), "penalties": _("penalty bollen")}
    player = players[change.seat] if change.seat < len(players) else str(change.seat + 1)
    return {
        "deal": deal_name(change.deal),
        "player": player,
        "what": what[change.what],
        "before": EMPTY if change.before is None else change.before,
        "after": EMPTY if change.after is None else change.after,
    }


def conflict_context(
    conflict: SheetConflict, players: tuple[str, ...], *, accounts: bool = True
) -> ConflictInWords:
    """The conflict in words; ``accounts``: whether the page may name who saved (not to the
    holder of a table link)."""
    current = conflict.current
    what = {"bid": _("bid"), "tricks": _("tricks"), "penalties": _("penalty bollen")}
    boxes: list[ConflictBox] = []
    for c in conflict.conflicts:
        boxes.append(
            {
                "deal": deal_name(c.deal),
                "player": players[c.seat] if c.seat < len(players) else str(c.seat + 1),
                "what": what[c.what],
                "theirs": EMPTY if c.theirs is None else c.theirs,
                "yours": EMPTY if c.yours is None else c.yours,
                "field": f"{c.deal}-{c.seat}-{c.what}",
                "theirs_value": "" if c.theirs is None else c.theirs,
                "choosable": c.what != "penalties",
            }
        )
    return {
        "base": conflict.base_number,
        "current": conflict.current_number,
        "by": current.user.get_username() if accounts and current and current.user else None,
        "at": current.created_at if current else None,
        "changes": [describe_change(c, players) for c in conflict.changes],
        "boxes": boxes,
        "penalties": any(c.what == "penalties" for c in conflict.conflicts),
    }


def apply_picks(data: QueryDict, n_seats: int) -> QueryDict:
    """A conflict's choices as the form sends them: per conflicting box ``theirs-<deal>-<seat>-
    <kind>`` (the other side's value) and ``pick-...`` (``theirs`` or ``yours``), or
    ``pick_all``; the chosen value goes into the box. Returns the data to parse."""
    chosen = [name for name in data if name.startswith("theirs-")]
    if not chosen:
        return data
    data = data.copy()
    every = data.get("pick_all")
    for name in chosen:
        place = name.removeprefix("theirs-")
        try:
            deal, seat, kind = place.split("-")
            field = cell_field(n_seats, int(deal), int(seat), kind)
        except ValueError:
            continue  # not a box: the form refuses nothing it does not read
        if kind not in ("bid", "tricks") or not (0 <= int(seat) < n_seats):
            continue
        if (every or data.get(f"pick-{place}")) == "theirs":
            data[field] = data.get(name, "")  # its last value (the name is posted)
    return data


def conflict_form_data(posted: QueryDict, conflict: SheetConflict, n_seats: int) -> QueryDict:
    """The plain form's data after a conflict: the writer's values, with the other side's
    boxes that do not conflict put in (so that saving again keeps them), now based on the
    version that is in the way, under a new key."""
    data = posted.copy()
    clashing = {(c.deal, c.seat, c.what) for c in conflict.conflicts}
    merged = conflict.merged.cell_map
    for deal in range(1, DEAL_COUNT + 1):
        for seat in range(n_seats):
            pair = merged.get((deal, seat), (None, None))
            for index, kind in ((0, "bid"), (1, "tricks")):
                if (deal, seat, kind) not in clashing:
                    value = pair[index]
                    data[cell_field(n_seats, deal, seat, kind)] = (
                        "" if value is None else str(value)
                    )
    data["base_version"] = str(conflict.current_number)
    data["idempotency_key"] = str(uuid.uuid4())
    return data
