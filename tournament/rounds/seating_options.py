"""What the seating engine offers for a round: a plan per balance, and round 1 with clubs apart.

With tables of two sizes the two balances (``scoring.seating.Balance``) can give quite different
tournaments, so ``round_seat`` plans the remaining rounds with each, stores the tournament's
choice as the draft and both as ``Round.seating_options``, and the director compares them
("Even tables: 24 repeated meetings, everyone 1-2x at a table of 5. Fewest repeats: 10
repeated meetings, but unevenly: 0-5x at a table of 5 (Anna 5x).") and may take the other
before publishing. Each plan gets half of the time limit, so the director waits no longer than
for one plan.

The round page's sentence under the repeats so far (``repeats_note``) is here too: what the
seating of a round could still have avoided, after the rounds before it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from itertools import combinations
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.seating import Balance, SeatingError, SeatingPlan, SeatingProblem, plan_seating
from scoring.seating.repeats_after import RepeatsAfter
from scoring.tables import table_split


@dataclass(frozen=True, slots=True)
class SeatingRequest:
    """What the planner is asked for a round: the players (pks, in registration order), the
    rounds played, the tables, and the pairs to keep apart."""

    players: tuple[int, ...]
    rounds: int
    history: list[list[list[int]]]
    table_sizes: tuple[int, ...]
    prefer: int
    seed: int
    apart: tuple[tuple[int, int], ...] = ()
    apart_first_round: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True, slots=True)
class SeatingOption:
    """What one balance gives over the whole tournament (the rounds played and the rounds
    planned), and the tables of the round being seated.

    ``fewest`` and ``most``: the fewest and most times a player of this round sits at a larger
    table, ``most_player`` (a pk) one who sits there most; ``larger_size``: that table's size.
    """

    balance: str
    repeats: int
    fewest: int
    most: int
    most_player: int
    spread: int
    larger_size: int
    tables: list[list[int]] = field(default_factory=list)

    @classmethod
    def of(cls, balance: Balance, plan: SeatingPlan[int]) -> SeatingOption:
        counts = plan.quality.larger_counts
        return cls(
            balance=str(balance),
            repeats=plan.quality.repeats,
            fewest=min(count for _pk, count in counts),
            most=counts[0][1],
            most_player=counts[0][0],
            spread=plan.quality.five_spread,
            larger_size=max(len(table) for table in plan.rounds[0]),
            tables=[list(table) for table in plan.rounds[0]],
        )

    @property
    def figures(self) -> tuple[int, int, int]:
        """What the director compares: the repeats, and the fewest and most times at a larger
        table."""
        return (self.repeats, self.fewest, self.most)

    def summary(
        self, names: dict[int, str], compared: Sequence[SeatingOption] = (), *, same: bool = False
    ) -> str:
        """The option in one sentence, in the director's words, beside the ``compared`` ones.

        Every option says the same things (its repeats; how often its players sit at a larger
        table, from the fewest to the most), so the director compares like with like. An
        uneven one names the player who sits there most only when no other option seats
        anyone that often: "Anna 4x" is no warning when the even tables seat people 4x too.
        ``same``: said once for all the options, which give the same figures.
        """
        label = _("Even tables") if self.balance == Balance.EVEN else _("Fewest repeats")
        if same:  # every option gives these figures: nothing to choose
            label = _("Both balances give the same")
        count = ngettext(
            "%(count)s repeated meeting", "%(count)s repeated meetings", self.repeats
        ) % {"count": self.repeats}
        values = {"size": self.larger_size, "fewest": self.fewest, "most": self.most}
        if self.fewest == self.most:
            larger = _("everyone %(most)s× at a table of %(size)s") % values  # noqa: RUF001
        elif self.spread <= 1:
            larger = _("everyone %(fewest)s-%(most)s× at a table of %(size)s") % values  # noqa: RUF001
        elif self.most > max((o.most for o in compared if o.balance != self.balance), default=0):
            larger = _(
                "but unevenly: %(fewest)s-%(most)s× at a table of %(size)s (%(name)s %(most)s×)"  # noqa: RUF001
            ) % {**values, "name": names.get(self.most_player, "?")}
        else:
            larger = _("but unevenly: %(fewest)s-%(most)s× at a table of %(size)s") % values  # noqa: RUF001
        return f"{label}: {count}, {larger}."


def repeats_note(counted: RepeatsAfter) -> str:
    """What the round page says under the repeated meetings so far (``counted`` over the rounds
    up to this one, the rounds before it as played): whether a seating of this round could
    have had fewer, and at most how many fewer (the least is a lower bound, so never more is
    promised). Nothing when this round repeats nobody."""
    if counted.repeats <= counted.earlier:
        return ""
    if counted.repeats <= counted.least:
        return _(
            "Fewer is not possible: after the rounds before it, no seating of this round, with "
            "these players at tables of these sizes, has fewer repeated meetings."
        )
    values = {
        "least": counted.least,
        "earlier": counted.earlier,
        "fewer": counted.repeats - counted.least,
    }
    if counted.earlier:
        text = ngettext(
            "At least %(least)s of them cannot be avoided (%(earlier)s in the rounds before); "
            "seating this round differently could avoid at most %(fewer)s.",
            "At least %(least)s of them cannot be avoided (%(earlier)s in the rounds before); "
            "seating this round differently could avoid at most %(fewer)s.",
            counted.least,
        )
    else:
        text = ngettext(
            "At least %(least)s of them cannot be avoided with these players at tables of these "
            "sizes; seating this round differently could avoid at most %(fewer)s.",
            "At least %(least)s of them cannot be avoided with these players at tables of these "
            "sizes; seating this round differently could avoid at most %(fewer)s.",
            counted.least,
        )
    return text % values


def options_store(options: Sequence[SeatingOption]) -> dict[str, dict[str, Any]]:
    """The options as ``Round.seating_options`` keeps them."""
    return {option.balance: asdict(option) for option in options}


def options_load(stored: dict[str, dict[str, Any]]) -> list[SeatingOption]:
    """The stored options, even tables first."""
    return [SeatingOption(**stored[str(b)]) for b in Balance if str(b) in stored]


def plan_options(
    request: SeatingRequest, *, chosen: Balance, time_limit: float
) -> tuple[SeatingPlan[int], list[SeatingOption]]:
    """Plan with the ``chosen`` balance and, when the round has tables of two sizes, with the
    other one too (each in half the time). Returns the chosen plan and the options to compare
    (none with one table size: both balances plan alike).

    Raises SeatingError or ScoringError as ``plan_seating`` does.
    """
    split = table_split(len(request.players), sizes=request.table_sizes, prefer=request.prefer)
    if len(set(split.sizes)) < 2:
        return _plan(request, chosen, time_limit), []
    plan = _plan(request, chosen, time_limit / 2)
    other = Balance.REPEATS if chosen == Balance.EVEN else Balance.EVEN
    plans = {chosen: plan, other: _plan(request, other, time_limit / 2)}
    return plan, [SeatingOption.of(balance, plans[balance]) for balance in Balance]


def _plan(request: SeatingRequest, balance: Balance, time_limit: float) -> SeatingPlan[int]:
    return plan_seating(
        request.players,
        rounds=request.rounds,
        history=request.history,
        table_sizes=request.table_sizes,
        prefer=request.prefer,
        apart=request.apart,
        apart_first_round=request.apart_first_round,
        seed=request.seed,
        time_limit=time_limit,
        max_iterations=settings.SEATING_MAX_ITERATIONS,
        balance=balance,
    )


def club_pairs(clubs: dict[int, str], tables: int) -> tuple[tuple[int, int], ...]:
    """Pairs of players (pks, in registration order) of one club to seat at different tables.

    A club with more players than there are tables cannot be seated apart; it is cut into
    groups of at most ``tables`` players (in registration order), each group apart, so the
    club's players still spread over every table.
    """
    members: dict[str, list[int]] = defaultdict(list)
    for pk in sorted(clubs):
        if clubs[pk].strip():
            members[clubs[pk].strip().casefold()].append(pk)
    pairs: list[tuple[int, int]] = []
    for club in members.values():
        for start in range(0, len(club), max(1, tables)):
            pairs.extend(combinations(club[start : start + tables], 2))
    return tuple(pairs)


def is_apart_refusal(error: Exception) -> bool:
    return isinstance(error, SeatingError) and error.code == SeatingProblem.APART_IMPOSSIBLE
