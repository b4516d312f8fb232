"""Plausible random play: legal sheets and whole tournament files for demos, benchmarks and tests.

The simulation deals no cards; it draws the tricks of a deal first (every trick to one player),
then lets each player bid close to what they will take, the way real players mostly judge their
hands well and sometimes misjudge by one. The dealer bids last and, when the obvious bid is the
forbidden one, has to move off it, which is where most bollen come from, as at a real table.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from scoring.deals import DEAL_COUNT, bidding_order, deal_spec, forbidden_bid
from scoring.tables import table_split


def simulate_deal(
    deal: int, n_seats: int, rng: random.Random, *, accuracy: float = 0.62
) -> tuple[list[int], list[int]]:
    """One legal deal: ``(bids, tricks)`` lists indexed by seat."""
    hand = deal_spec(deal).hand_size
    tricks = [0] * n_seats
    for _trick in range(hand):
        tricks[rng.randrange(n_seats)] += 1
    bids = [0] * n_seats
    for seat in bidding_order(deal, n_seats)[:-1]:
        bids[seat] = _judged(tricks[seat], hand, rng, accuracy)
    dealer = bidding_order(deal, n_seats)[-1]
    others = [bids[s] for s in range(n_seats) if s != dealer]
    bid = _judged(tricks[dealer], hand, rng, accuracy)
    if bid == forbidden_bid(deal, others):
        choices = [b for b in (bid - 1, bid + 1) if 0 <= b <= hand]
        bid = rng.choice(choices)
    bids[dealer] = bid
    return bids, tricks


def _judged(actual: int, hand: int, rng: random.Random, accuracy: float) -> int:
    if rng.random() < accuracy:
        return actual
    guess = actual + rng.choice((-1, 1))
    return min(max(guess, 0), hand)


def simulate_sheet(
    n_seats: int, rng: random.Random, *, deals: int = DEAL_COUNT
) -> list[tuple[list[int], list[int]]]:
    """The first ``deals`` deals of a game: a list of ``(bids, tricks)``."""
    return [simulate_deal(deal, n_seats, rng) for deal in range(1, deals + 1)]


def random_seating(
    player_ids: Sequence[str],
    rounds: int,
    rng: random.Random,
    *,
    table_sizes: Sequence[int] | None = None,
    prefer: int = 4,
) -> list[list[list[str]]]:
    """Rounds of shuffled tables, with no care for who met whom: for benchmarks and tests that
    need a seating, not a good one. ``table_sizes`` lists every table's size (default: the
    tournament split of ``scoring.tables`` with tables of 4 and 5)."""
    if table_sizes is None:
        table_sizes = table_split(len(player_ids), prefer=prefer).sizes
    if sum(table_sizes) != len(player_ids):
        raise ValueError(f"tables of {sum(table_sizes)} seats for {len(player_ids)} players")
    schedule = []
    for _ in range(rounds):
        ids = list(player_ids)
        rng.shuffle(ids)
        tables, start = [], 0
        for size in table_sizes:
            tables.append(ids[start : start + size])
            start += size
        schedule.append(tables)
    return schedule


def simulate_tournament(
    *,
    name: str,
    players: Sequence[tuple[str, str, str]],
    seating: Sequence[Sequence[Sequence[str]]],
    rng: random.Random,
    played_deals: Sequence[Sequence[int]] | None = None,
    date: str | None = None,
    settings: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A v1 tournament document with plausible sheets.

    ``players`` holds ``(id, name, club)``; ``seating`` per round the tables as lists of player
    ids; ``played_deals[r][t]`` how many deals table t of round r has finished (default: all 11).
    """
    document: dict[str, Any] = {"format": "bollen-tournament", "version": 1, "name": name}
    if date:
        document["date"] = date
    document["settings"] = settings or {"table_sizes": [4, 5]}
    document["players"] = [
        {"id": pid, "name": pname, **({"club": club} if club else {})}
        for pid, pname, club in players
    ]
    rounds = []
    for r, tables in enumerate(seating):
        round_tables = []
        for t, seats in enumerate(tables):
            played = DEAL_COUNT if played_deals is None else played_deals[r][t]
            table: dict[str, Any] = {"number": t + 1, "seats": list(seats)}
            deals = simulate_sheet(len(seats), rng, deals=played)
            if deals:
                table["deals"] = [{"bids": b, "tricks": k} for b, k in deals]
                if rng.random() < 0.08:
                    table["penalties"] = [
                        {"player": rng.choice(list(seats)), "deal": rng.randint(1, played)}
                    ]
            round_tables.append(table)
        rounds.append({"number": r + 1, "tables": round_tables})
    document["rounds"] = rounds
    return document
