"""Errors of the rules engine: a stable code, a clear English message and the place.

Every check in ``scoring`` reports what is wrong as a :class:`Problem`. Functions that must refuse
their input raise a :class:`ScoringError` that carries all problems at once, so a form or an import
can show every mistake in one go. The Django side translates by ``code`` and ``params``; the English
``message`` is for logs, the command line and tests.

Places are recorded the way code counts them: ``deal`` is 1-based (deal 1 to 11, as on the form),
``seat`` is 0-based (an index into the table's seats). Messages are written for people, so they
count seats from 1 ("seat 1" is the top row of the sheet) and ``params["seat_number"]`` holds
that number.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum


class ErrorCode(StrEnum):
    """The stable code of every rule the engine can find broken."""

    SEAT_COUNT = "seat_count"
    """A table must have 3 to 6 seats."""
    DEAL_NUMBER = "deal_number"
    """A deal number outside 1..11."""
    TOO_MANY_DEALS = "too_many_deals"
    """A sheet with more than 11 deals."""
    ROW_LENGTH = "row_length"
    """A bids or tricks row whose length differs from the number of seats."""
    BID_RANGE = "bid_range"
    """A bid that is not a whole number from 0 to the hand size."""
    DEALER_BID = "dealer_bid"
    """The bids add up to the hand size: the dealer made the one forbidden bid."""
    BIDS_INCOMPLETE = "bids_incomplete"
    """Tricks are entered while some bid of that deal is missing."""
    TRICKS_RANGE = "tricks_range"
    """A number of tricks that is not a whole number from 0 to the hand size."""
    TRICKS_INCOMPLETE = "tricks_incomplete"
    """Some tricks of a deal are entered but not all."""
    TRICKS_SUM = "tricks_sum"
    """The tricks of a deal do not add up to the hand size."""
    DEAL_ORDER = "deal_order"
    """A deal has entries while an earlier deal is not complete."""
    PENALTY_DEAL = "penalty_deal"
    """A revoke penalty in a deal that does not exist or has not been reached."""
    PENALTY_SEAT = "penalty_seat"
    """A revoke penalty for a seat that the table does not have."""
    FIRST_DEALER = "first_dealer"
    """A first dealer that is not a seat of the table."""
    PLAYER_COUNT = "player_count"
    """Too few players to seat at even one table."""
    TABLE_SIZES = "table_sizes"
    """Allowed table sizes that are empty or outside what the game allows (3..6)."""
    TIE_BREAK_ORDER = "tie_break_order"
    """An empty tie-break order, or one that names a tie-break twice."""
    DUPLICATE_SCORE = "duplicate_score"
    """Two scores for the same player in the same round."""


@dataclass(frozen=True, slots=True)
class Problem:
    """One broken rule, where it was found, and the values its message names.

    ``deal`` is 1-based and ``seat`` 0-based; either is None when the problem is not tied to one.
    ``round`` and ``table`` are filled in by :meth:`located` once the caller knows them.
    """

    code: ErrorCode
    message: str
    deal: int | None = None
    seat: int | None = None
    params: Mapping[str, int | str] = field(default_factory=dict)
    round: int | None = None
    table: int | None = None

    def located(self, *, round: int | None = None, table: int | None = None) -> Problem:
        """Return a copy placed at a tournament round and table (the message itself is kept)."""
        return dataclasses.replace(self, round=round, table=table)

    def __str__(self) -> str:
        """The message, prefixed with the round and table when those are known."""
        place = []
        if self.round is not None:
            place.append(f"Round {self.round}")
        if self.table is not None:
            place.append(f"table {self.table}" if place else f"Table {self.table}")
        return f"{', '.join(place)}: {self.message}" if place else self.message


class ScoringError(ValueError):
    """Input refused by the rules engine; ``problems`` lists everything that is wrong."""

    problems: tuple[Problem, ...]

    def __init__(self, problems: Problem | Iterable[Problem]) -> None:
        """Wrap one problem or several (at least one)."""
        if isinstance(problems, Problem):
            problems = (problems,)
        self.problems = tuple(problems)
        if not self.problems:
            raise TypeError("ScoringError needs at least one problem")
        super().__init__("\n".join(str(problem) for problem in self.problems))

    def __reduce__(self) -> tuple[type[ScoringError], tuple[tuple[Problem, ...]]]:
        """Pickle by problems, so the error survives caches and worker processes."""
        return (type(self), (self.problems,))

    @property
    def codes(self) -> tuple[ErrorCode, ...]:
        """The codes of the problems, in order."""
        return tuple(problem.code for problem in self.problems)

    def located(self, *, round: int | None = None, table: int | None = None) -> ScoringError:
        """Return the same error with every problem placed at a round and table."""
        return ScoringError(problem.located(round=round, table=table) for problem in self.problems)
