"""A table's held input (its ``SheetDraft``): what a ``hold`` save kept back because it was not
legal or not in order yet, read back into the sheet page and merged with the next save.

A table's draft is read once per request and remembered on the table object (``locks.sheet_lock``
reads it with the table)."""

from __future__ import annotations

from scoring.deals import DEAL_COUNT
from tournament.models import SheetDraft, Table
from tournament.sheets.content import SheetContent, SheetSplit
from tournament.sheets.submission import SheetSubmission


def _draft_of(table: Table) -> SheetDraft | None:
    if Table.sheet_draft.is_cached(table):  # read with the table (``select_related``)
        return getattr(table, "sheet_draft", None)
    draft = SheetDraft.objects.filter(table=table).first()
    _cache_draft(table, draft)
    return draft


def _cache_draft(table: Table, draft: SheetDraft | None) -> None:
    """Remember ``table``'s draft (or that it has none) for the rest of the request."""
    Table.sheet_draft.related.set_cached_value(table, draft)


def sheet_draft_token(table: Table) -> str:
    """Which draft of ``table`` a page shows ("" for none): a save sends it back, so that a draft
    another device saved in between is merged rather than replaced."""
    draft = _draft_of(table)
    return draft.updated_at.isoformat() if draft is not None else ""


def sheet_draft_content(table: Table, stored: SheetContent) -> SheetContent | None:
    """The sheet as the table last typed it: ``stored`` with the held deals and penalty bollen
    of its draft put back; ``None`` when there is no draft."""
    draft = _draft_of(table)
    if draft is None:
        return None
    n = stored.n_seats
    cells = stored.cell_map
    for deal, seat, bid, tricks in draft.cells:
        if 1 <= deal <= DEAL_COUNT and 0 <= seat < n:
            cells[deal, seat] = (bid, tricks)
    penalties = (*stored.penalties, *((d, s) for d, s in draft.penalties if 0 <= s < n))
    return SheetContent.build(n, cells, penalties)


def sheet_with_other_draft(
    table: Table, submission: SheetSubmission, now: SheetContent, content: SheetContent
) -> SheetContent:
    """``content`` (the sheet a save asks for) with the boxes of a draft the sending page did
    not show (another device's held input, saved since) put back where this save leaves the
    box as counted (``now``): the draft is merged box by box, not replaced. Held penalty bollen
    of that draft are kept too."""
    draft = _draft_of(table)
    if draft is None or submission.draft_seen == sheet_draft_token(table):
        return content
    n, counted, cells = now.n_seats, now.cell_map, content.cell_map
    empty = (None, None)
    for deal, seat, bid, tricks in draft.cells:
        place = (deal, seat)
        if not (1 <= deal <= DEAL_COUNT and 0 <= seat < n):
            continue
        mine, stored = cells.get(place, empty), counted.get(place, empty)
        pair = tuple(
            held if sent == was else sent
            for held, sent, was in zip((bid, tricks), mine, stored, strict=True)
        )
        cells[place] = (pair[0], pair[1])
    penalties = list(content.penalties)
    for deal, seat in draft.penalties:
        if 0 <= seat < n and (deal, seat) not in penalties:
            penalties.append((deal, seat))
    return SheetContent.build(n, cells, penalties)


def sheet_draft_authors(table: Table) -> list[int]:
    """Who typed ``table``'s draft (user ids; empty without a draft or when nobody signed in)."""
    draft = _draft_of(table)
    return [int(a) for a in draft.authors] if draft is not None else []


def sheet_draft_keep(table: Table, split: SheetSplit, *, by_user_id: int | None = None) -> None:
    """Keep what ``split`` held back as the table's draft, typed (also) by ``by_user_id``, or
    drop the draft."""
    draft = _draft_of(table)
    if not split.held:
        if draft is not None:
            draft.delete()
            _cache_draft(table, None)
        return
    mine = split.submitted.cell_map
    cells = [
        [deal, seat, *mine.get((deal, seat), (None, None))]
        for deal in split.held_deals
        for seat in range(split.submitted.n_seats)
    ]
    penalties = [list(p) for p in split.held_penalties]
    authors = set(sheet_draft_authors(table)) | ({by_user_id} if by_user_id else set())
    if draft is None:
        draft = SheetDraft.objects.create(
            table=table, cells=cells, penalties=penalties, authors=sorted(authors)
        )
        _cache_draft(table, draft)
    else:
        draft.cells, draft.penalties, draft.authors = cells, penalties, sorted(authors)
        draft.save(update_fields=["cells", "penalties", "authors", "updated_at"])
