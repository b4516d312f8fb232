"""Benchmark of the seating planner on the instances of the seating issue.

Run from the repository root::

    .venv/bin/python bench/seating.py                  # every instance, default time limit
    .venv/bin/python bench/seating.py --only 32x10 --time-limit 10 --seed 3
    .venv/bin/python bench/seating.py --only 18x5 --only 23x6 --seeds 5   # seeds 0 to 4
    .venv/bin/python bench/seating.py --only 23x5 --time-limit 2.5   # a sweep instance alone
    .venv/bin/python bench/seating.py --search-only    # no finite-field designs: the search alone
    .venv/bin/python bench/seating.py --sweep          # and 13 to 47 players over 4 to 6 rounds
    .venv/bin/python bench/seating.py --sweep-only --balance even

Per instance, balance and seed it prints the repeats (over all pairs, times met minus one), the
most times any pair met, the 5-table spread (most minus fewest times a player sat at a larger
table), the planner's lower bound on repeats, two floors for plans where no pair meets three
times (``quality.spread_floor``): the fewest repeats of any such plan ("2x floor") and of any
such plan with a spread of at most one ("@spr<=1", the floor of the even balance), the seconds
taken, the repeats that the popular round-by-round greedy tool ("Good Enough Golfers", median
of 3 runs) reaches, and the target (the issue's; for the added mixed instances, what is known
to be reachable). Instances with tables of two sizes run under both balances, ``even`` (the
default: larger-table counts within one, then fewest repeats) and ``repeats`` (fewest repeats,
then balance); with one size the two plan alike ("both"). An instance stops early once it
provably cannot improve.

The closing note, ``bench/seating_results.md``, has the table of every instance beside the
floors and the figures from before the two balances, and says what is optimal, what is proven
impossible and what is still short. In short: in 18x5 every round has four tables, so each
5-table of one round keeps a pair together in any other round (two pairs per pair of rounds,
20 in all); with a spread of at most one it is 34, which the even balance reaches, so the
issue's "at most 10 with a spread of at most one" is impossible. 13x5 reaches 40, the least
of any plan without a triple. 24 players in fours over 7 rounds now meet nobody twice.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring.seating import Balance, plan_seating, planner
from scoring.seating.quality import spread_floor
from scoring.tables import table_split


@dataclass(frozen=True)
class Instance:
    name: str
    players: int
    rounds: int
    table_sizes: tuple[int, ...]
    prefer: int
    greedy: str
    target: str


INSTANCES = (
    Instance("16x5", 16, 5, (4,), 4, "8", "0"),
    Instance("20x5", 20, 5, (4,), 4, "3", "0"),
    Instance("25x6", 25, 6, (5,), 5, "24", "0"),
    Instance("32x8", 32, 8, (4,), 4, "7", "0"),
    Instance("32x10", 32, 10, (4,), 4, "32", "0 (exists)"),
    Instance("40x6", 40, 6, (5,), 5, "4", "0"),
    Instance("100x8", 100, 8, (4, 5), 4, "-", "0"),
    Instance("100x10", 100, 10, (4, 5), 4, "-", "0"),
    Instance("200x8", 200, 8, (4, 5), 4, "-", "0"),
    Instance("200x10", 200, 10, (4, 5), 4, "-", "0"),
    Instance("18x5", 18, 5, (4, 5), 4, "-", "<=10, spread<=1"),
    Instance("23x6", 23, 6, (4, 5), 4, "-", "<=4, spread<=1"),
    # Mixed tables, as most real tournaments have: the spread should be as small as the
    # fewest repeats allow.
    Instance("22x5", 22, 5, (4, 5), 4, "-", "0 (spread>=2)"),
    Instance("22x7", 22, 7, (4, 5), 4, "-", "35"),
    Instance("27x6", 27, 6, (4, 5), 4, "-", "-"),
    Instance("31x6", 31, 6, (4, 5), 4, "-", "0"),
    Instance("31x7", 31, 7, (4, 5), 4, "-", "0"),
    Instance("46x7", 46, 7, (4, 5), 4, "-", "0, spread 1"),
    # Where the planner stopped short (issue 14).
    Instance("24x7", 24, 7, (4,), 4, "-", "0 (believed)"),
    Instance("30x8", 30, 8, (4, 5), 4, "-", "0"),
    Instance("24x8", 24, 8, (4,), 4, "-", "12"),
    Instance("13x5", 13, 5, (4, 5), 4, "-", "32"),
    Instance("17x5", 17, 5, (4, 5), 4, "-", "-"),
    Instance("21x6", 21, 6, (4, 5), 4, "-", "12 even"),
)
"""The issue's instances; ``--sweep`` adds 13 to 47 players over 4 to 6 rounds at 4 and 5."""

COLUMNS = (
    ("instance", 8),
    ("balance", 7),
    ("seed", 4),
    ("players", 7),
    ("rounds", 6),
    ("tables", 12),
    ("repeats", 7),
    ("max met", 7),
    ("5-spread", 8),
    ("bound", 5),
    ("2x floor", 8),
    ("@spr<=1", 7),
    ("seconds", 7),
    ("greedy", 6),
    ("target", 15),
)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", action="append", help="run only this instance (repeatable)")
    parser.add_argument("--time-limit", type=float, default=None, help="seconds per instance")
    parser.add_argument("--seed", type=int, default=0, help="first seed")
    parser.add_argument("--seeds", type=int, default=1, help="how many seeds, from --seed on")
    parser.add_argument(
        "--search-only", action="store_true", help="seed from the greedy start, not from designs"
    )
    parser.add_argument(
        "--balance",
        action="append",
        choices=[str(b) for b in Balance],
        help="only this balance (repeatable; default both)",
    )
    parser.add_argument(
        "--sweep", action="store_true", help="also 13 to 47 players over 4 to 6 rounds"
    )
    parser.add_argument(
        "--sweep-only", action="store_true", help="only 13 to 47 players over 4 to 6 rounds"
    )
    args = parser.parse_args(argv)
    names = {instance.name for instance in (*INSTANCES, *SWEEP)}
    unknown = set(args.only or ()) - names
    if unknown:
        parser.error(f"unknown instance {', '.join(sorted(unknown))}; choose from {sorted(names)}")
    if args.search_only:
        planner.design_for = lambda sizes, rounds: None
    options = {}
    if args.time_limit is not None:
        options["time_limit"] = args.time_limit

    balances = [Balance(b) for b in args.balance or Balance]
    instances = [] if args.sweep_only else list(INSTANCES)
    if args.sweep or args.sweep_only:
        instances += SWEEP
    elif args.only:
        # A sweep instance named with --only runs without the whole sweep.
        listed = {instance.name for instance in INSTANCES}
        instances += [i for i in SWEEP if i.name in args.only and i.name not in listed]
    print("  ".join(title.rjust(width) for title, width in COLUMNS))
    for instance in instances:
        if args.only and instance.name not in args.only:
            continue
        # With one table size there is no larger table and both balances plan alike.
        mixed = table_split(instance.players, sizes=instance.table_sizes, prefer=instance.prefer)
        for balance in balances if len(set(mixed.sizes)) > 1 else balances[:1]:
            for seed in range(args.seed, args.seed + args.seeds):
                _run(instance, balance, {**options, "seed": seed})


SWEEP = tuple(
    Instance(f"{n}x{r}", n, r, (4, 5), 4, "-", "-") for n in range(13, 48) for r in range(4, 7)
)


def _run(instance: Instance, balance: Balance, options: dict) -> None:
    plan = plan_seating(
        list(range(instance.players)),
        rounds=instance.rounds,
        table_sizes=instance.table_sizes,
        prefer=instance.prefer,
        balance=balance,
        **options,
    )
    quality = plan.quality
    sizes = [len(table) for table in plan.rounds[0]]
    shape = "+".join(f"{sizes.count(s)}x{s}" for s in sorted(set(sizes), reverse=True))
    floors = [spread_floor(tuple(sizes), instance.rounds, spread) for spread in (None, 1)]
    row = (
        instance.name,
        balance if len(set(sizes)) > 1 else "both",
        options["seed"],
        instance.players,
        instance.rounds,
        shape,
        quality.repeats,
        quality.max_meetings,
        quality.five_spread,
        quality.lower_bound,
        floors[0],
        floors[1] if len(set(sizes)) > 1 else "-",
        f"{quality.seconds:.2f}",
        instance.greedy,
        instance.target,
    )
    cells = (str(value).rjust(width) for value, (_, width) in zip(row, COLUMNS, strict=True))
    print("  ".join(cells), flush=True)


if __name__ == "__main__":
    main()
