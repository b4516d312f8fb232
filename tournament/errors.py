"""User-facing problems: what is wrong and where, in the user's language.

``scoring`` reports rule problems with a stable code, English text and the values the message
names. This module turns them into translated sentences and places them at a round, table, deal
and player, so the command line, forms and imports all speak the same way.

Every refusal of the site is one type, :class:`Refused`: the problems that made a request fail
as a whole (nothing was stored), each with its code, message and place. A refusal with one
reason is ``Refused.because(code)``; the code's message is its label (the site's refusal codes
are ``TextChoices``) or, for ``scoring``'s codes, the sentence this module gives it.
:func:`show_refused` puts a refusal on the next page as messages.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol, TypedDict, Unpack

from django.contrib import messages
from django.db import models
from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from scoring.confirmation import ConfirmRefusal
from scoring.deals import deal_spec
from scoring.errors import ErrorCode, Problem

MAX_REPORTED = 50


class FileCode(StrEnum):
    """Problems of a tournament file that are not rules of the game."""

    JSON = "file_json"
    SCHEMA = "file_schema"
    TOO_LARGE = "file_too_large"
    LIMIT = "file_limit"
    TEXT = "file_text"
    ROUND_NUMBERS = "round_numbers"
    PLAYER_ID_TWICE = "player_id_twice"
    ROUND_TWICE = "round_twice"
    TABLE_TWICE = "table_twice"
    UNKNOWN_PLAYER = "unknown_player"
    PLAYER_TWICE_IN_ROUND = "player_twice_in_round"
    NO_BIDS = "deal_without_bids"
    PENALTY_PLAYER = "penalty_player_not_at_table"
    SETTING = "setting"
    SITE = "site_record"


# The translated sentence for each rule of the game, by the code scoring gives it.
RULE_MESSAGES = {
    ErrorCode.SEAT_COUNT: gettext_lazy("A table must have 3 to 6 players."),
    ErrorCode.DEAL_NUMBER: gettext_lazy("There is no such deal (deals are numbered 1 to 11)."),
    ErrorCode.TOO_MANY_DEALS: gettext_lazy("A game has only 11 deals."),
    ErrorCode.ROW_LENGTH: gettext_lazy("The number of bids or tricks differs from the players."),
    ErrorCode.BID_RANGE: gettext_lazy("A bid must be a whole number from 0 to %(hand_size)s."),
    ErrorCode.DEALER_BID: gettext_lazy(
        "The dealer may not bid %(bid)s: the bids would add up to %(hand_size)s, the number of "
        "cards."
    ),
    ErrorCode.BIDS_INCOMPLETE: gettext_lazy("Tricks are entered but a bid is missing."),
    ErrorCode.TRICKS_RANGE: gettext_lazy(
        "The tricks must be a whole number from 0 to %(hand_size)s."
    ),
    ErrorCode.TRICKS_INCOMPLETE: gettext_lazy("Enter the tricks of every player, or none."),
    ErrorCode.TRICKS_SUM: gettext_lazy(
        "The tricks add up to %(sum)s; they must add up to %(hand_size)s, the cards dealt."
    ),
    ErrorCode.DEAL_ORDER: gettext_lazy(
        "This deal has entries while an earlier deal is not finished."
    ),
    ErrorCode.PENALTY_DEAL: gettext_lazy(
        "A penalty bol in a deal that has not been played: enter that deal's bids and tricks first."
    ),
    ErrorCode.PENALTY_SEAT: gettext_lazy("A penalty bol for a player who is not at the table."),
    ErrorCode.PLAYER_COUNT: gettext_lazy("At least 3 players are needed to seat a table."),
}


# The translated sentence of each reason ``scoring`` gives for refusing a confirmation.
CONFIRM_MESSAGES = {
    ConfirmRefusal.NOT_NEEDED: gettext_lazy(
        "This tournament does not confirm sheets: every sheet counts."
    ),
    ConfirmRefusal.NOTHING: gettext_lazy(
        "This sheet has not been saved on the site: nothing to confirm."
    ),
    ConfirmRefusal.NOT_COMPLETE: gettext_lazy(
        "Only a complete sheet without mistakes can be confirmed."
    ),
    ConfirmRefusal.CHANGED: gettext_lazy(
        "The sheet was saved again while you were checking it. Check the new version."
    ),
    ConfirmRefusal.OWN_SHEET: gettext_lazy(
        "You saved this version of the sheet yourself, so someone else on the team must confirm it."
    ),
    ConfirmRefusal.RETYPE_OWN_SHEET: gettext_lazy(
        "You saved this version of the sheet yourself: confirm it by re-typing the paper form "
        "into an empty copy."
    ),
}


# A reason for refusing a request: one of the site's ``TextChoices`` (worded by its label) or
# one of ``scoring``'s confirmation refusals (worded above).
RefusalCode = models.TextChoices | ConfirmRefusal


def refusal_message(code: RefusalCode | str) -> str:
    """The translated sentence of a refusal code: its label, or the sentence given above (also
    for the plain text of a confirmation refusal, as ``Refused.code`` holds it)."""
    if isinstance(code, models.TextChoices):
        return str(code.label)
    return str(CONFIRM_MESSAGES[ConfirmRefusal(code)])


def rule_message(problem: Problem) -> str:
    """The translated sentence of a rule problem (scoring's English text if none is known)."""
    template = RULE_MESSAGES.get(problem.code)
    if template is None:
        return problem.message
    try:
        return str(template) % dict(problem.params)
    except (KeyError, TypeError, ValueError):
        return problem.message


def deal_name(deal: int) -> str:
    """'deal 6 (5Z)': the deal number with its label from the form."""
    try:
        label = deal_spec(deal).label
    except ValueError:
        return _("deal %(number)s") % {"number": deal}
    return _("deal %(number)s (%(label)s)") % {"number": deal, "label": label}


@dataclass(frozen=True, slots=True)
class PlacedProblem:
    """A problem with the place it concerns: round, table, deal and player where known."""

    code: str
    message: str
    round: int | None = None
    table: int | None = None
    deal: int | None = None
    player: str | None = None
    field: str | None = None

    @property
    def place(self) -> str:
        parts = []
        if self.round is not None:
            parts.append(_("round %(number)s") % {"number": self.round})
        if self.table is not None:
            parts.append(_("table %(number)s") % {"number": self.table})
        if self.deal is not None:
            parts.append(deal_name(self.deal))
        if self.player is not None:
            parts.append(_("player %(name)s") % {"name": self.player})
        if self.field is not None and not parts:
            parts.append(self.field)
        text = ", ".join(parts)
        return text[:1].upper() + text[1:]

    def __str__(self) -> str:
        return f"{self.place}: {self.message}" if self.place else self.message


def place_rule_problem(
    problem: Problem, *, round: int | None, table: int | None, players: tuple[str, ...]
) -> PlacedProblem:
    """Place a ``scoring`` problem at a tournament round and table, naming the seat's player."""
    player = None
    if problem.seat is not None and 0 <= problem.seat < len(players):
        player = players[problem.seat]
    return PlacedProblem(
        code=str(problem.code),
        message=rule_message(problem),
        round=round,
        table=table,
        deal=problem.deal,
        player=player,
    )


class Place(TypedDict, total=False):
    """Where a refusal with one reason points (the place fields of :class:`PlacedProblem`)."""

    round: int | None
    table: int | None
    deal: int | None
    player: str | None
    field: str | None


class Refused(Exception):
    """A request refused as a whole; nothing was stored. ``problems`` say everything that is
    wrong and where (up to a limit); ``code`` and ``message`` are the first one's."""

    def __init__(self, problems: list[PlacedProblem], *, total: int | None = None) -> None:
        self.problems = problems[:MAX_REPORTED]
        self.total = total if total is not None else len(problems)
        super().__init__("\n".join(str(p) for p in self.problems))

    @classmethod
    def because(cls, code: RefusalCode, **place: Unpack[Place]) -> Refused:
        """A refusal with one reason, worded by its code."""
        return cls([PlacedProblem(code=str(code), message=refusal_message(code), **place)])

    @property
    def code(self) -> str:
        return self.problems[0].code

    @property
    def message(self) -> str:
        return self.problems[0].message

    def lines(self) -> list[str]:
        lines = [str(p) for p in self.problems]
        if self.total > len(self.problems):
            more = self.total - len(self.problems)
            lines.append(
                ngettext("… and %(count)s more problem.", "… and %(count)s more problems.", more)
                % {"count": more}
            )
        return lines


class ListedLine(Protocol):
    """A line of a pasted or imported list (players, members) with what is wrong with it."""

    @property
    def line(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def problems(self) -> Sequence[str]: ...


def refuse_bad_lines(rows: Iterable[ListedLine], *, code: str) -> None:
    """Refuse a whole list when any of its lines has problems, each named with its line and
    name; nothing is stored."""
    problems = [
        PlacedProblem(
            code=code,
            message=f"{row.name or '?'}: {'; '.join(row.problems)}",
            field=_("line %(line)s") % {"line": row.line},
        )
        for row in rows
        if row.problems
    ]
    if problems:
        raise Refused(problems)


# A form page answered again with its messages: the request was refused. Browsers show the page
# the same; scripts, tests and logs see a refusal instead of a 200.
FORM_REFUSED_STATUS = 422


def form_page_status(request: HttpRequest) -> int:
    """The status of a form page: 200 when it is shown, 422 when a POST gets it back (with its
    messages) instead of the redirect a POST that is taken gets."""
    return FORM_REFUSED_STATUS if request.method == "POST" else 200


def show_refused(request: HttpRequest, refused: Refused) -> None:
    """Put each line of a refusal on the next page as an error message."""
    for line in refused.lines():
        messages.error(request, line)


class FinishedRefusal(models.TextChoices):
    """Why a change to a finished tournament was refused."""

    FINISHED = (
        "tournament_finished",
        gettext_lazy(
            "Not saved: this tournament is finished, so its sheets, seating and players no "
            "longer change. To correct something, its director reopens it first (the button "
            "at the top of the tournament's pages)."
        ),
    )


class Finishable(Protocol):
    @property
    def finished_at(self) -> object: ...


def refuse_when_finished(tournament: Finishable) -> None:
    """Refuse a change to a tournament that its director has finished (read-only)."""
    if tournament.finished_at is not None:
        raise Refused.because(FinishedRefusal.FINISHED)
