"""What a save held back, in words: the held deals and penalties at their boxes
(``held_payload``), and the status line that says what is saved and what is not
(``status_text``). The page shows them as it opens and the script after every save.
"""

from __future__ import annotations

from typing import TypedDict

from django.utils.translation import gettext as _

from scoring.errors import ErrorCode
from tournament.errors import place_rule_problem
from tournament.sheets.content import SheetContent, SheetSplit
from tournament.sheets.forms import BID_PROBLEMS, PENALTY_PROBLEMS, TRICKS_PROBLEMS


class HeldBox(TypedDict):
    deal: int
    seat: int
    kind: str
    message: str
    player: str | None


class HeldDeal(TypedDict):
    deal: int
    messages: list[str]
    deal_messages: list[str]
    boxes: list[HeldBox]
    values: list[dict[str, int | None]]


class HeldPenalty(TypedDict):
    seat: int | None
    deal: int | None
    message: str


class Held(TypedDict):
    """What a save held back (``held_payload``), as the page and the script read it."""

    deals: list[HeldDeal]
    penalties: list[HeldPenalty]


def _first_lower(text: str) -> str:
    text = text.rstrip(".")
    return text[:1].lower() + text[1:]


def held_payload(split: SheetSplit, players: tuple[str, ...]) -> Held:
    """What a save held back, in words, at its boxes: ``deals`` (``deal``, ``messages`` (every
    problem of the deal, the player's name before those at a box), ``deal_messages`` (those
    under the deal), ``boxes`` (``deal``, ``seat``, ``kind``, ``message``), ``values`` (per seat
    ``{"bid", "tricks"}`` as kept, another device's held input too)) and
    ``penalties`` (``seat``, ``deal``, ``message``)."""
    typed = split.submitted.cell_map
    deals: dict[int, HeldDeal] = {
        deal: {
            "deal": deal,
            "messages": [],
            "deal_messages": [],
            "boxes": [],
            "values": [
                dict(zip(("bid", "tricks"), typed.get((deal, seat), (None, None)), strict=True))
                for seat in range(split.submitted.n_seats)
            ],
        }
        for deal in split.held_deals
    }
    penalties: list[HeldPenalty] = []
    for problem in split.problems:
        placed = place_rule_problem(problem, round=None, table=None, players=players)
        if problem.code in PENALTY_PROBLEMS:
            if (problem.deal, problem.seat) in split.held_penalties:
                penalties.append(
                    {"seat": problem.seat, "deal": problem.deal, "message": str(placed)}
                )
            continue
        if problem.deal is None or (entry := deals.get(problem.deal)) is None:
            continue
        kind = (
            "bid"
            if problem.code in BID_PROBLEMS
            else "tricks"
            if problem.code in TRICKS_PROBLEMS
            else None
        )
        message = placed.message
        if problem.code == ErrorCode.DEAL_ORDER:
            message = _("Not saved yet: finish deal %(deal)s first.") % {
                "deal": problem.params["open_deal"]
            }
        if kind is not None and problem.seat is not None:
            entry["boxes"].append(
                {
                    "deal": problem.deal,
                    "seat": problem.seat,
                    "kind": kind,
                    "message": message,
                    "player": placed.player,
                }
            )
            entry["messages"].append(f"{placed.player}: {message}")
        else:
            entry["deal_messages"].append(message)
            entry["messages"].append(message)
    for entry in deals.values():
        if not entry["messages"]:
            wrong = [d for d, e in deals.items() if d < entry["deal"] and e["messages"]]
            if wrong:  # legal itself, after a deal that is not counted
                message = _("Not saved yet: finish deal %(deal)s first.") % {"deal": wrong[0]}
            else:  # legal itself, but counting it would leave a later deal out of order
                message = _("Not saved yet: the later deals would be out of order.")
            entry["messages"].append(message)
            entry["deal_messages"].append(message)
    return {"deals": list(deals.values()), "penalties": penalties}


def status_text(counted: SheetContent, held: Held | None, version: int) -> str:
    """The status line in words: what is saved and what is not, e.g. "Deals 1-4 saved · deal
    5: the tricks add up to 4; they must add up to 5"."""
    if not held or not (held["deals"] or held["penalties"]):
        return f"{_('Saved')} · {_('version %(number)s') % {'number': version}}"
    sheet = counted.sheet()
    last = next(
        (deal - 1 for deal, entry in enumerate(sheet.deals, 1) if not entry.is_complete),
        len(sheet.deals),
    )
    if last == 0:
        parts = [_("Nothing saved yet")]
    elif last == 1:
        parts = [_("Deal 1 saved")]
    else:
        parts = [_("Deals 1-%(last)s saved") % {"last": last}]
    for entry in held["deals"]:
        if entry["deal_messages"]:
            problem = _first_lower(entry["deal_messages"][0])
        else:
            first = entry["boxes"][0]
            problem = f"{first['player']}: {_first_lower(first['message'])}"
        if entry["deal"] <= last:  # a counted deal whose change is held: it stays as saved
            part = _("the change to deal %(number)s: %(problem)s")
        else:
            part = _("deal %(number)s: %(problem)s")
        parts.append(part % {"number": entry["deal"], "problem": problem})
    for penalty in held["penalties"]:
        parts.append(_first_lower(penalty["message"]))
    return " · ".join(parts)
