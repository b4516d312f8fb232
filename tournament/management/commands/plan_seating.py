"""Show the seating plan for the next round and every round after it, without saving anything.

A thin wrapper around ``scoring.seating.plan_seating``: the players of the next round, the rounds
already played (withdrawn players included) and the tournament's table sizes go in; the planned
tables, with names, and the plan's quality come out. Seating a round for real is
``tournament.services.seating.round_seat`` (the director's "seat next round" button).
"""

from itertools import combinations

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from scoring.errors import ScoringError
from scoring.seating import SeatingError, plan_seating
from tournament.management.commands.export_tournament import tournament_by_slug
from tournament.selectors import next_round_number, players_for_round
from tournament.services.seating import seating_history


class Command(BaseCommand):
    help = "Print the planned seating of the remaining rounds and how good it is (saves nothing)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("slug")
        parser.add_argument(
            "--rounds", type=int, default=None, help="rounds to plan (default: all remaining)"
        )
        parser.add_argument("--seed", type=int, default=None, help="default: the round number")
        parser.add_argument("--time-limit", type=float, default=settings.SEATING_TIME_LIMIT)
        parser.add_argument(
            "--apart-clubs",
            choices=["first", "all"],
            default=None,
            help="players of one club do not share a table in the first planned round / in all",
        )

    def handle(self, *args, slug: str, rounds, seed, time_limit: float, apart_clubs, **options):
        tournament = tournament_by_slug(slug)
        number = next_round_number(tournament)
        players = list(players_for_round(tournament, number))
        names = dict(tournament.players.values_list("pk", "name"))
        if rounds is None:
            rounds = max(1, tournament.rounds_planned - number + 1)
        club_pairs = []
        if apart_clubs:
            club_pairs = [
                (a.pk, b.pk) for a, b in combinations(players, 2) if a.club and a.club == b.club
            ]
        try:
            plan = plan_seating(
                [player.pk for player in players],
                rounds=rounds,
                history=seating_history(tournament, before=number),
                table_sizes=tournament.table_sizes,
                prefer=tournament.prefer_size,
                apart=club_pairs if apart_clubs == "all" else (),
                apart_first_round=club_pairs if apart_clubs == "first" else (),
                seed=number if seed is None else seed,
                time_limit=time_limit,
            )
        except SeatingError as exc:
            who = ", ".join(names[pk] for pk in exc.players)
            raise CommandError(f"{exc} ({who})" if who else str(exc)) from exc
        except ScoringError as exc:
            raise CommandError(str(exc)) from exc
        for offset, tables in enumerate(plan.rounds):
            self.stdout.write(f"Round {number + offset}")
            for table_number, table in enumerate(tables, start=1):
                who = ", ".join(names[pk] for pk in table)
                self.stdout.write(f"  table {table_number} ({len(table)}): {who}")
        quality = plan.quality
        self.stdout.write(
            f"repeats {quality.repeats} (lower bound {quality.lower_bound}), "
            f"most meetings of one pair {quality.max_meetings}, "
            f"larger-table spread {quality.five_spread}, {quality.seconds:.1f} s"
        )
        for a, b, times in quality.pairs_repeated:
            self.stdout.write(f"  {names[a]} and {names[b]} meet {times} times")
