"""Tournament statistics from scored sheets: the numbers a club likes to read after the prizes.

How often each hand size ends in a bol, whether bidding blind (5B) goes wrong more often than
bidding with the cards in hand, which way the missed bids miss (over: more bid than taken; under:
fewer), the games without a single bol, and the best single game.

Only complete deals count (every bid and every trick written), so a tournament in progress gives
the statistics of what has been played. A revoke penalty is a misplay, not a misjudged bid: the
bid tallies count the deal's own bollen only, while a game with a penalty bol is not bol-free.
Games (for bol-free and best) count once all 11 deals are complete.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from scoring.deals import DEAL_COUNT, DEALS
from scoring.sheet import CellState, SeatTotals, SheetResult, deal_box

# Whatever the caller names a player by (the site: the player's id).
P = TypeVar("P", bound=Hashable)

HAND_SIZES: tuple[int, ...] = tuple(sorted({spec.hand_size for spec in DEALS}))
"""The hand sizes of the schedule, smallest first: 1 to 5 cards."""

BLIND_DEAL: int = next(spec.number for spec in DEALS if spec.blind)
"""The deal bid before looking at the cards (5B)."""


@dataclass(frozen=True, slots=True)
class Game(Generic[P]):
    """One table's game in one round: ``players[i]`` sat at seat ``i`` of ``result``."""

    round: int
    table: int
    players: tuple[P, ...]
    result: SheetResult


Boxes = Sequence[Sequence[Sequence[int | None]]]
"""Per deal, per seat, what is written: ``(bid, tricks)``, None where nothing is."""


@dataclass(frozen=True, slots=True)
class KeptGame(Generic[P]):
    """One table's game as its boxes and its kept totals, for a reader that has them and need
    not score the sheet again: ``boxes[d][i]`` is ``(bid, tricks)`` of seat ``i`` in deal
    ``d + 1`` (deals and seats not written may be left out), ``totals[i]`` what seat ``i``
    scores, ``complete`` whether all 11 deals are."""

    round: int
    table: int
    players: tuple[P, ...]
    boxes: Boxes
    totals: Sequence[SeatTotals]
    complete: bool


def _played(game: Game[Any] | KeptGame[Any]) -> tuple[Boxes, Sequence[SeatTotals], bool]:
    """The boxes, totals and completeness of either kind of game."""
    if isinstance(game, KeptGame):
        return game.boxes, game.totals, game.complete
    result = game.result
    boxes = [[(cell.bid, cell.tricks) for cell in row] for row in result.cells]
    return boxes, result.totals, result.complete


@dataclass(frozen=True, slots=True)
class BidTally:
    """Bids in complete deals: how many there were, how many were kept, how the rest missed.

    ``over`` counts bids above the tricks taken, ``under`` bids below; together they are the
    deal bollen. The rates are shares of ``bids`` (None when there were no bids).
    """

    bids: int = 0
    kept: int = 0
    over: int = 0
    under: int = 0

    @property
    def bollen(self) -> int:
        return self.over + self.under

    def _share(self, count: int) -> float | None:
        return count / self.bids if self.bids else None

    @property
    def accuracy(self) -> float | None:
        """The share of bids kept."""
        return self._share(self.kept)

    @property
    def bol_rate(self) -> float | None:
        """The share of bids that turned into a bol."""
        return self._share(self.bollen)

    @property
    def over_rate(self) -> float | None:
        return self._share(self.over)

    @property
    def under_rate(self) -> float | None:
        return self._share(self.under)

    def __add__(self, other: BidTally) -> BidTally:
        return BidTally(
            self.bids + other.bids,
            self.kept + other.kept,
            self.over + other.over,
            self.under + other.under,
        )


@dataclass(frozen=True, slots=True)
class GameScore(Generic[P]):
    """One player's complete game: where it was played and the totals of the form."""

    round: int
    table: int
    seat: int
    player: P
    tournament_points: int
    bollen: int
    points: int
    correct: int


@dataclass(frozen=True, slots=True)
class Statistics(Generic[P]):
    """What :func:`tournament_statistics` finds.

    ``by_deal[d - 1]`` is deal ``d``; ``by_hand_size`` maps 1..5 cards to the deals of that size
    together (5 includes 5Z and 5B). ``blind`` is deal 5B, ``others`` every other deal, ``overall``
    all deals. ``player_games`` counts complete games per player (a table of 4 plays 4);
    ``bol_free`` lists those without a bol, ``best`` the ones with the most tournament points
    (several on a tie), both in round, table, seat order.
    """

    by_deal: tuple[BidTally, ...]
    by_hand_size: dict[int, BidTally]
    blind: BidTally
    others: BidTally
    overall: BidTally
    player_games: int
    bol_free: tuple[GameScore[P], ...]
    best: tuple[GameScore[P], ...]


def _total(tallies: Iterable[BidTally]) -> BidTally:
    return sum(tallies, BidTally())


def tournament_statistics(games: Iterable[Game[P] | KeptGame[P]]) -> Statistics[P]:
    """Add up the complete deals and games of ``games`` (any order, any progress)."""
    counts = [[0, 0, 0, 0] for _ in range(DEAL_COUNT)]  # bids, kept, over, under per deal
    complete: list[GameScore[P]] = []
    for game in games:
        boxes, seat_totals, game_complete = _played(game)
        if len(game.players) != len(seat_totals):
            raise ValueError(
                f"{len(game.players)} players given for a table of {len(seat_totals)} "
                f"seats (round {game.round}, table {game.table})"
            )
        for deal_index, row in enumerate(boxes):
            tally = counts[deal_index]
            for bid, tricks in row:
                state, _points = deal_box(bid, tricks)
                if state is CellState.KEPT:
                    tally[0] += 1
                    tally[1] += 1
                elif state is CellState.BOL:
                    # A bol has both its bid and its tricks written.
                    assert bid is not None and tricks is not None
                    tally[0] += 1
                    tally[2 if bid > tricks else 3] += 1
        if game_complete:
            complete.extend(
                GameScore(
                    round=game.round,
                    table=game.table,
                    seat=seat,
                    player=player,
                    tournament_points=totals.tournament_points,
                    bollen=totals.bollen,
                    points=totals.points,
                    correct=totals.correct,
                )
                for seat, (player, totals) in enumerate(zip(game.players, seat_totals, strict=True))
            )

    by_deal = tuple(BidTally(*tally) for tally in counts)
    by_hand_size = {
        size: _total(by_deal[spec.number - 1] for spec in DEALS if spec.hand_size == size)
        for size in HAND_SIZES
    }
    blind = by_deal[BLIND_DEAL - 1]
    others = _total(t for number, t in enumerate(by_deal, start=1) if number != BLIND_DEAL)
    complete.sort(key=lambda g: (g.round, g.table, g.seat))
    top = max((g.tournament_points for g in complete), default=None)
    return Statistics(
        by_deal=by_deal,
        by_hand_size=by_hand_size,
        blind=blind,
        others=others,
        overall=blind + others,
        player_games=len(complete),
        bol_free=tuple(g for g in complete if g.bollen == 0),
        best=tuple(g for g in complete if g.tournament_points == top),
    )
