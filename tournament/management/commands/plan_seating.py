"""Plan seatings without saving anything: a planning tool for directors, and the benchmarks' way in.

``plan_seating --players N --rounds R [--seed S] [--time-limit SEC] [--prefer 4|5]
[--balance even|repeats] --format json`` prints ``{"first_round": 1, "rounds": [[[0, 1, 2, 3],
[4, 5, 6, 7, 8], ...], ...]}`` with the players numbered 0..N-1. ``plan_seating --tournament
SLUG`` plans the remaining rounds of a tournament from what was really played (withdrawn players
included), numbered on from the rounds it has (``first_round``), with names, with the
tournament's balance unless ``--balance`` says otherwise, and for round 1 with its clubs apart
when the tournament says so. Either way the plan's quality goes to standard error.
Seating a round for real is the director's "seat round" button
(``tournament.rounds.seating.round_seat``).
"""

import json
import sys
from collections.abc import Sequence
from itertools import combinations
from typing import Any, NotRequired, TypedDict, cast

from django.conf import settings
from django.core.management.base import CommandError, CommandParser
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.errors import ScoringError
from scoring.seating import Balance, PlanQuality, SeatingError, SeatingProblem, plan_seating
from scoring.tables import table_split
from tournament.errors import rule_message
from tournament.management.base import SiteCommand
from tournament.management.options import tournament_by_slug
from tournament.rounds.seating import seating_history
from tournament.rounds.seating_options import club_pairs
from tournament.rounds.selectors import next_round_number, players_for_round


class _Request(TypedDict):
    """What the command asks ``plan_seating`` for, besides the players and the limits."""

    rounds: int
    history: Sequence[Sequence[Sequence[int]]]
    table_sizes: tuple[int, ...]
    prefer: int
    balance: Balance | str
    apart: NotRequired[list[tuple[int, int]]]
    apart_first_round: NotRequired[Sequence[tuple[int, int]]]


class Command(SiteCommand):
    help = "Plan the seating of several rounds and print it with its quality (saves nothing)."

    def add_arguments(self, parser: CommandParser) -> None:
        who = parser.add_mutually_exclusive_group(required=True)
        who.add_argument("--players", type=int, help="plan for N players numbered 0..N-1")
        who.add_argument("--tournament", metavar="SLUG", help="plan a tournament's next rounds")
        parser.add_argument("--rounds", type=int, default=None, help="rounds to plan")
        parser.add_argument(
            "--seed", type=int, default=0, help="the planner's random seed (default 0)"
        )
        parser.add_argument(
            "--time-limit",
            type=float,
            default=settings.SEATING_TIME_LIMIT,
            metavar="SECONDS",
            help=f"stop searching after this many seconds (default {settings.SEATING_TIME_LIMIT})",
        )
        parser.add_argument(
            "--prefer",
            type=int,
            choices=[3, 4, 5, 6],
            default=None,
            help="the table size to have most of (default 4; with --tournament its own)",
        )
        parser.add_argument(
            "--table-sizes", default=None, help="allowed sizes, e.g. 4,5 (default 4,5)"
        )
        parser.add_argument(
            "--apart-clubs",
            choices=["first", "all"],
            default=None,
            help="with --tournament: no two players of a club at one table, in the first "
            "planned round or in all",
        )
        parser.add_argument(
            "--balance",
            choices=[str(b) for b in Balance],
            default=None,
            help="even: larger tables shared out within one, then fewest repeats (the default); "
            "repeats: fewest repeats first. With --tournament the tournament's choice is the "
            "default.",
        )
        parser.add_argument(
            "--format",
            choices=["json", "text"],
            default="text",
            help="text: the tables with names and the quality (the default); json: "
            '{"first_round": N, "rounds": [[[players of a table], ...], ...]}, the quality on '
            "standard error",
        )

    def handle(self, *args: object, **options: Any) -> None:
        if options["players"] is not None:
            if options["rounds"] is None:
                raise CommandError(_("--players needs --rounds."))
            if options["apart_clubs"]:
                raise CommandError(
                    _("--apart-clubs needs --tournament (numbered players have no club).")
                )
            keys = list(range(options["players"]))
            names = {key: str(key) for key in keys}
            request: _Request = {
                "rounds": options["rounds"],
                "history": (),
                "table_sizes": self._sizes(options["table_sizes"], (4, 5)),
                "prefer": options["prefer"] or 4,
                "balance": options["balance"] or Balance.EVEN,
            }
            label: dict[int, int | str] = {key: key for key in keys}
            first = 1
        else:
            # The plan goes on after the rounds the tournament has (played, playing or seated).
            first, keys, names, label, request = self._tournament(options)
        if request["rounds"] < 1:
            raise CommandError(_("--rounds must be at least 1."))
        try:
            plan = plan_seating(
                keys,
                seed=options["seed"],
                time_limit=options["time_limit"],
                max_iterations=settings.SEATING_MAX_ITERATIONS,
                **request,
            )
        except SeatingError as exc:
            who = ", ".join(names[cast(int, key)] for key in exc.players)  # the keys given
            if exc.code == SeatingProblem.APART_IMPOSSIBLE:
                raise CommandError(
                    _("These players cannot all be kept apart: %(names)s.") % {"names": who}
                ) from exc
            raise CommandError(f"{exc} ({who})" if who else str(exc)) from exc
        except ScoringError as exc:
            raise CommandError("\n".join(rule_message(p) for p in exc.problems)) from exc

        if options["format"] == "json":
            rounds = [[[label[key] for key in table] for table in tables] for tables in plan.rounds]
            self.stdout.write(json.dumps({"first_round": first, "rounds": rounds}))
        else:
            for number, tables in enumerate(plan.rounds, start=first):
                self.stdout.write(_("Round %(number)s") % {"number": number})
                for table_number, table in enumerate(tables, start=1):
                    self.stdout.write(
                        "  "
                        + _("table %(number)s (%(size)s): %(players)s")
                        % {
                            "number": table_number,
                            "size": len(table),
                            "players": ", ".join(names[key] for key in table),
                        }
                    )
        report = sys.stderr if options["format"] == "json" else self.stdout
        for line in quality_lines(plan.quality, names, balance=str(request["balance"])):
            report.write(line + "\n")

    @staticmethod
    def _sizes(text: str | None, default: tuple[int, ...]) -> tuple[int, ...]:
        if text is None:
            return default
        try:
            return tuple(int(part) for part in text.split(",") if part.strip())
        except ValueError:
            raise CommandError(f"--table-sizes {text!r}: give sizes like 4,5.") from None

    def _tournament(
        self, options: dict[str, Any]
    ) -> tuple[int, list[int], dict[int, str], dict[int, int | str], _Request]:
        """The number of the first round to plan, its players, their names and file ids, and
        what to ask the planner."""
        tournament = tournament_by_slug(options["tournament"])
        number = next_round_number(tournament)
        players = list(players_for_round(tournament, number).order_by("pk"))
        names = {p.pk: p.name for p in tournament.players.all()}
        label: dict[int, int | str] = {p.pk: p.file_id for p in tournament.players.all()}
        clubs_apart: list[tuple[int, int]] = []
        if options["apart_clubs"]:
            clubs_apart = [
                (a.pk, b.pk) for a, b in combinations(players, 2) if a.club and a.club == b.club
            ]
        rounds = options["rounds"] or max(1, tournament.rounds_planned - number + 1)
        history = seating_history(tournament, before=number)
        sizes = self._sizes(options["table_sizes"], tuple(tournament.table_sizes))
        prefer = options["prefer"] or tournament.prefer_size
        first_round: Sequence[tuple[int, int]] = (
            clubs_apart if options["apart_clubs"] == "first" else ()
        )
        if not options["apart_clubs"] and not history and tournament.clubs_apart_first_round:
            # What "seat round 1" does.
            tables = len(table_split(len(players), sizes=sizes, prefer=prefer).sizes)
            first_round = club_pairs({p.pk: p.club for p in players}, tables)
        request: _Request = {
            "rounds": rounds,
            "history": history,
            "table_sizes": sizes,
            "prefer": prefer,
            "apart": [
                *(clubs_apart if options["apart_clubs"] == "all" else ()),
                *tournament.apart_pairs.values_list("player_a_id", "player_b_id"),
            ],
            "apart_first_round": first_round,
            "balance": options["balance"] or tournament.seating_balance,
        }
        return number, [p.pk for p in players], names, label, request


def quality_lines(quality: PlanQuality[int], names: dict[int, str], *, balance: str) -> list[str]:
    """The plan's quality in the active language: its repeats against the least possible, the
    most meetings of one pair, the spread of the larger tables; then each pair met again."""
    summary = ngettext(
        "%(count)s repeated meeting (at least %(bound)s unavoidable)",
        "%(count)s repeated meetings (at least %(bound)s unavoidable)",
        quality.repeats,
    ) % {"count": quality.repeats, "bound": quality.lower_bound}
    details = _(
        "most meetings of one pair: %(most)s; larger-table spread: %(spread)s (--balance "
        "%(balance)s); %(seconds)s s"
    ) % {
        "most": quality.max_meetings,
        "spread": quality.five_spread,
        "balance": balance,
        "seconds": number_format(quality.seconds, decimal_pos=1),
    }
    pairs = [
        "  "
        + ngettext(
            "%(a)s and %(b)s meet %(times)s time", "%(a)s and %(b)s meet %(times)s times", times
        )
        % {"a": names[a], "b": names[b], "times": times}
        for a, b, times in quality.pairs_repeated
    ]
    return [f"{summary}; {details}", *pairs]
