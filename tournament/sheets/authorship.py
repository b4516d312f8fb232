"""Whose input a version of a sheet holds, and who else has seen it: the four eyes of a
confirmation, box by box.

The save history says this much. Version ``k`` differs from version ``k - 1`` by the boxes its
saver's submission changed (a merge with saves made since its page was drawn changes nothing of
theirs; the boxes another device's held input filled in are told apart by ``submitted``, what the
submission itself held). A saver had their base version on the screen, so every box of it that
still stands was seen by them; a confirmation of a version is a look at all of its boxes. Held
input that no stored save sent (a save that only held it back stores no version) is the work
of whoever typed into the table's draft: a save merging it in records them (``held_by``). What
the history cannot say is left to the people: who held a table link without signing in
(someone else).

So a person's *unseen input* in a version is a box whose value they put there (as it stands in
that version) that nobody else has had on the screen since: no other person's save started
from a version holding it, and nobody else confirmed such a version. The latest saver's whole
version is theirs anyway (``scoring.confirmation``: "own sheet").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tournament.models import SheetConfirmation, SheetVersion, Table
from tournament.sheets.content import SheetContent, sheet_changes

Box = tuple[int, int, str]
"""``(deal, seat index, what)``: a bid, the tricks or the penalty bollen of one player."""


@dataclass(frozen=True, slots=True)
class _Save:
    number: int
    base: int
    user: int | None
    content: SheetContent
    sent: SheetContent  # what the submission held (``content`` when nothing was merged in)
    held_by: frozenset[int]  # who typed the held input of another device it merged in


def sheet_unseen_input(*, table: Table, version: SheetVersion, user_id: int) -> tuple[int, ...]:
    """The deals of ``version`` (the sheet as it stands) holding input by ``user_id`` that
    nobody else has seen; empty when there is none (two queries, a third when they saved)."""
    n_seats = table.seats.count()
    rows = list(
        SheetVersion.objects.filter(table=table, number__isnull=False, number__lte=version.number)
        .order_by("number")
        .values_list("number", "base_number", "user_id", "cells", "penalties", "submitted")
    )
    if not any(
        number and (user == user_id or user_id in (submitted or {}).get("held_by", ()))
        for number, _b, user, _c, _p, submitted in rows
    ):
        return ()  # never saved this sheet nor typed input held for it: nothing of theirs
    saves = [_save(row, n_seats) for row in rows]
    looked = [
        number
        for number in SheetConfirmation.objects.filter(version__table=table)
        .exclude(user_id=user_id)
        .values_list("version__number", flat=True)
        if number is not None
    ]
    unseen = {
        deal
        for (deal, _seat, _what), (authors, since) in _origins(saves).items()
        if user_id in authors and not _seen_since(since, user_id, saves, looked)
    }
    return tuple(sorted(unseen))


def _save(row: tuple[Any, ...], n_seats: int) -> _Save:
    number, base, user, cells, penalties, submitted = row
    content = _content(n_seats, cells, penalties)
    sent, held_by = content, frozenset[int]()
    if submitted:
        sent = _content(n_seats, submitted["cells"], submitted["penalties"])
        held_by = frozenset(int(u) for u in submitted.get("held_by", ()))
    return _Save(number, base, user, content, sent, held_by)


def _content(n_seats: int, cells: list[Any], penalties: list[Any]) -> SheetContent:
    return SheetContent.build(
        n_seats,
        {
            (deal, seat): (pair[0], pair[1])
            for deal, row in enumerate(cells, start=1)
            for seat, pair in enumerate(row)
        },
        penalties,
    )


def _origins(saves: Sequence[_Save]) -> dict[Box, tuple[frozenset[int], int]]:
    """Every box the saves changed, with who put its value there as it stands in the last one
    (nobody known: empty; held input merged from a draft: whoever typed into that draft) and
    the version that did."""
    origins: dict[Box, tuple[frozenset[int], int]] = {}
    previous = SheetContent.build(saves[0].content.n_seats, {})
    for save in saves:
        if save.number == 0:  # the sheet as a tournament file brought it: nobody's input here
            previous = save.content
            continue
        for change in sheet_changes(previous, save.content):
            box = (change.deal, change.seat, change.what)
            author = save.user if _value(save.sent, box) == change.after else None
            if author is None:  # another device's held input: whoever last sent it
                author = _sender(saves, save.number, box, change.after)
            if author is not None:
                origins[box] = (frozenset({author}), save.number)
            else:  # held input no stored save sent: the draft's typists, when it recorded them
                origins[box] = (save.held_by, save.number)
        previous = save.content
    return origins


def _value(content: SheetContent, box: Box) -> int | None:
    deal, seat, what = box
    if what == "penalties":
        return content.penalties.count((deal, seat))
    bid, tricks = content.cell_map.get((deal, seat), (None, None))
    return bid if what == "bid" else tricks


def _sender(saves: Sequence[_Save], before: int, box: Box, value: int | None) -> int | None:
    """Who last sent ``value`` for ``box`` in a save before version ``before`` (held input is
    sent, and kept in ``submitted``), or ``None`` when no save recorded it."""
    for save in reversed(saves):
        if 0 < save.number < before and _value(save.sent, box) == value:
            return save.user
    return None


def _seen_since(since: int, user_id: int, saves: Sequence[_Save], looked: Sequence[int]) -> bool:
    """Whether anyone but ``user_id`` has had version ``since``'s box on the screen: a save
    from a page drawn at ``since`` or later, or a confirmation of such a version (the box
    stands unchanged from ``since`` on)."""
    return any(s.number > since and s.base >= since and s.user != user_id for s in saves) or any(
        number >= since for number in looked
    )
