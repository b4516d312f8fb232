"""A tournament's end: what is still open, finishing it (read-only from then on, with its final
backup) and reopening it.

Finishing is the director's decision, possible whenever every seated round is complete and no
sheet waits for a confirmation, also before the planned number of rounds. It is refused, naming
each thing still open, otherwise. A finished tournament changes nothing (its sheets, table
links, seating and players: ``tournament.errors.refuse_when_finished``); reopening is its
director's, and both are kept as ``TournamentFinish`` records.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament.adapter import SheetStatus, load_table_sheets
from tournament.errors import PlacedProblem, Refused
from tournament.models import Table, Tournament, TournamentFinish, unconfirmed_table_ids
from tournament.tournament_file.backups import backup_final


@dataclass(frozen=True, slots=True)
class OpenItem:
    """Something that keeps a tournament from finishing, with where it is (``table`` is
    ``None`` for a whole round)."""

    code: str
    message: str
    round: int
    table: int | None = None

    def problem(self) -> PlacedProblem:
        return PlacedProblem(
            code=self.code, message=self.message, round=self.round, table=self.table
        )


def tournament_open_items(tournament: Tournament) -> list[OpenItem]:
    """What is still open, in round and table order: a seating not published, tables whose
    sheet is not complete, sheets that wait for a confirmation. Empty: it can be finished."""
    items: list[OpenItem] = []
    rounds = list(tournament.rounds.order_by("number"))
    if not rounds:
        return [
            OpenItem(
                "nothing_played",
                _("No round has been played yet: there is nothing to finish."),
                round=1,
            )
        ]
    sheets = load_table_sheets(tournament=tournament)
    unconfirmed = unconfirmed_table_ids(tournament)
    for round_ in rounds:
        if not round_.published:
            items.append(
                OpenItem(
                    "round_draft",
                    _("Seated but not published: remove its seating, or publish and play it."),
                    round=round_.number,
                )
            )
            continue
        for sheet in sheets:
            if sheet.round_number != round_.number:
                continue
            if sheet.status != SheetStatus.COMPLETE:
                items.append(
                    OpenItem(
                        "table_unfinished",
                        _("The sheet is not complete (%(deals)s of 11 deals).")
                        % {"deals": len(sheet.sheet.deals)},
                        round=round_.number,
                        table=sheet.table_number,
                    )
                )
            elif sheet.table_id in unconfirmed:
                items.append(
                    OpenItem(
                        "sheet_unconfirmed",
                        _(
                            "The sheet has not been confirmed yet: confirm it on the round's "
                            "page (look it over, or re-type the paper sheet)."
                        ),
                        round=round_.number,
                        table=sheet.table_number,
                    )
                )
    return items


# How each kind of open item is counted in the summary line, in its order.
_SUMMARY_PARTS: tuple[tuple[str, Callable[[int], str]], ...] = (
    (
        "round_draft",
        lambda n: ngettext("%(count)s round not published", "%(count)s rounds not published", n),
    ),
    (
        "table_unfinished",
        lambda n: ngettext("%(count)s table not complete", "%(count)s tables not complete", n),
    ),
    (
        "sheet_unconfirmed",
        lambda n: ngettext("%(count)s sheet not confirmed", "%(count)s sheets not confirmed", n),
    ),
)


def open_items_summary(items: list[OpenItem]) -> str:
    """ "2 tables not complete, 1 sheet not confirmed": what is open, in a line."""
    counts = Counter(item.code for item in items)
    parts = [
        words(counts[code]) % {"count": counts[code]}
        for code, words in _SUMMARY_PARTS
        if counts[code]
    ]
    if counts["nothing_played"]:
        parts.append(_("nothing played yet"))
    return ", ".join(parts)


def _name(user: User | None) -> str:
    if user is None:
        return ""
    return user.get_full_name() or user.get_username()


def tournament_finish(*, tournament: Tournament, by_user: User | None = None) -> Tournament:
    """Finish the tournament: its standings become final and it becomes read-only; a final
    backup is written once this commits. Refused, naming everything still open, when a round
    is not complete or a sheet waits for a confirmation. Finishing twice keeps the first."""
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if locked.finished_at is not None:
            return locked
        # Every table's lock, in one order: a save under way finishes first, and none starts
        # on a tournament being finished (a save reads the tournament under its table's lock).
        list(
            Table.objects.select_for_update()
            .filter(round__tournament=locked)
            .order_by("pk")
            .values_list("pk", flat=True)
        )
        items = tournament_open_items(locked)
        if items:
            raise Refused([item.problem() for item in items])
        locked.finished_at = timezone.now()
        locked.finished_by = by_user
        locked.save(update_fields=["finished_at", "finished_by"])
        record = TournamentFinish.objects.create(
            tournament=locked,
            action=TournamentFinish.Action.FINISHED,
            by=by_user,
            by_name=_name(by_user),
        )
        transaction.on_commit(partial(backup_final, locked.pk, record.pk))
    return locked


def tournament_reopen(*, tournament: Tournament, by_user: User | None = None) -> Tournament:
    """Open a finished tournament again (its director's decision, recorded): sheets, links and
    seating change again and the standings are provisional until it is finished again."""
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if locked.finished_at is None:
            return locked
        locked.finished_at = None
        locked.finished_by = None
        locked.save(update_fields=["finished_at", "finished_by"])
        TournamentFinish.objects.create(
            tournament=locked,
            action=TournamentFinish.Action.REOPENED,
            by=by_user,
            by_name=_name(by_user),
        )
    return locked


def tournament_finishes(tournament: Tournament) -> list[TournamentFinish]:
    """The tournament's finishes and reopenings, the latest first."""
    return list(tournament.finishes.select_related("by"))
