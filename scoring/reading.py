"""Choosing a sheet's numbers from what a reader saw in its boxes, by the rules of the game.

A reader of handwriting gives, per box, how likely the box is empty and how likely each digit
is. Alone that misreads a sloppy 1 as a 7; together with the rules most such mistakes cannot
stand: a bid or a trick count is at most the hand size, the tricks of a deal add up to the hand
size, the bids may not (the dealer's rule), and deals are played in order (every earlier deal
complete; the last one begun may have its bids only). So this module takes the most probable
sheet that obeys the rules, and for every box how probable its chosen value is under the rules
(its marginal), which says which boxes a person must look at.

A deal is, on paper, in one of three states: ``EMPTY`` (nothing written), ``BIDS`` (bids
written, no tricks yet: the deal is being played) or ``FULL``; a sheet is ``FULL`` deals, at
most one ``BIDS`` deal, then ``EMPTY`` deals. Within a state the bids and the tricks of a deal
are independent apart from their sums, so every quantity here is a small sum over the sums of
the other boxes (a convolution), never an enumeration of every sheet.

Plain Python: no Django, no NumPy.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from scoring.deals import DEALS

DIGITS = 10


@dataclass(frozen=True, slots=True)
class BoxBelief:
    """What the reader saw in one box: ``empty``, the probability that nothing is written, and
    ``digits``, the probability of each digit 0-9 if something is."""

    empty: float
    digits: tuple[float, ...]

    def value(self, digit: int) -> float:
        """The probability that the box holds ``digit``."""
        return (1.0 - self.empty) * self.digits[digit]

    @property
    def best(self) -> int | None:
        """The reading of the box alone: its most probable value (``None``: empty)."""
        digit = max(range(DIGITS), key=self.digits.__getitem__)
        return None if self.empty >= self.value(digit) else digit


class State(Enum):
    EMPTY = "empty"
    BIDS = "bids"
    FULL = "full"


FOLLOWS: dict[State, tuple[State, ...]] = {
    State.FULL: (State.FULL, State.BIDS, State.EMPTY),
    State.BIDS: (State.EMPTY,),
    State.EMPTY: (State.EMPTY,),
}
"""Which state the next deal may be in: deals are played in order."""


@dataclass(frozen=True, slots=True)
class DealBeliefs:
    """The boxes of one deal, one per row (the sheet's rows from the top)."""

    bids: tuple[BoxBelief, ...]
    tricks: tuple[BoxBelief, ...]


@dataclass(frozen=True, slots=True)
class ChosenDeal:
    """A deal as chosen: the values per row (``None``: empty) and how probable each is."""

    deal: int
    bids: tuple[int | None, ...]
    tricks: tuple[int | None, ...]
    bid_certainty: tuple[float, ...]
    tricks_certainty: tuple[float, ...]


def _sum_distribution(rows: Sequence[Sequence[float]]) -> list[float]:
    """The (unnormalised) distribution of the sum of independent boxes, each given as weights of
    the values 0..k."""
    total = [1.0]
    for weights in rows:
        new = [0.0] * (len(total) + len(weights) - 1)
        for s, ws in enumerate(total):
            if ws:
                for v, wv in enumerate(weights):
                    new[s + v] += ws * wv
        total = new
    return total


def _at(distribution: list[float], index: int) -> float:
    return distribution[index] if 0 <= index < len(distribution) else 0.0


@dataclass(frozen=True, slots=True)
class _Boxes:
    """The digit weights of a deal's bids or tricks, limited to 0..hand size, with, per box, the
    weight of each value (the others' sums in a constraint) and the mass of all valid sums."""

    weights: tuple[tuple[float, ...], ...]
    hand: int
    must_add_up: bool  # the tricks must add up to the hand; the bids must not

    @classmethod
    def of(cls, beliefs: Sequence[BoxBelief], hand: int, *, must_add_up: bool) -> _Boxes:
        weights = tuple(tuple(b.value(v) for v in range(hand + 1)) for b in beliefs)
        return cls(weights, hand, must_add_up)

    def _fits(self, others: list[float], value: int) -> float:
        """The weight of the other boxes' values that, with ``value`` here, obey the sum rule."""
        matching = _at(others, self.hand - value)
        return matching if self.must_add_up else sum(others) - matching

    @property
    def mass(self) -> float:
        """The probability (unnormalised) that the boxes hold digits obeying the rules."""
        return self._fits(_sum_distribution(self.weights), 0) if self.weights else 1.0

    def marginals(self) -> list[list[float]]:
        """Per box, the weight of each value among the readings that obey the rules."""
        result = []
        for i, own in enumerate(self.weights):
            others = _sum_distribution(self.weights[:i] + self.weights[i + 1 :])
            result.append([w * self._fits(others, v) for v, w in enumerate(own)])
        return result

    def best(self) -> tuple[int, ...]:
        """The most probable values that obey the rule."""
        if self.must_add_up:
            return _best_composition(self.weights, self.hand)
        values = [max(range(len(w)), key=w.__getitem__) for w in self.weights]
        if sum(values) != self.hand:
            return tuple(values)
        # Any single change breaks the forbidden sum: take the cheapest one.
        _, row, value = max(
            (self.weights[row][v] / max(self.weights[row][values[row]], 1e-300), row, v)
            for row in range(len(values))
            for v in range(self.hand + 1)
            if v != values[row]
        )
        values[row] = value
        return tuple(values)


def _best_composition(weights: Sequence[Sequence[float]], total: int) -> tuple[int, ...]:
    """The most probable values (one per box) that add up to ``total`` (max-product DP)."""
    best: dict[int, tuple[float, tuple[int, ...]]] = {0: (1.0, ())}
    for w in weights:
        step: dict[int, tuple[float, tuple[int, ...]]] = {}
        for s, (p, values) in best.items():
            for v, wv in enumerate(w):
                if s + v <= total and (s + v not in step or p * wv > step[s + v][0]):
                    step[s + v] = (p * wv, (*values, v))
        best = step
    return best[total][1] if total in best else tuple(0 for _ in weights)


def _empty(beliefs: Sequence[BoxBelief]) -> float:
    product = 1.0
    for belief in beliefs:
        product *= belief.empty
    return product


def _state_weights(deal: DealBeliefs, hand: int) -> dict[State, float]:
    bids = _Boxes.of(deal.bids, hand, must_add_up=False).mass
    return {
        State.EMPTY: _empty(deal.bids) * _empty(deal.tricks),
        State.BIDS: bids * _empty(deal.tricks),
        State.FULL: bids * _Boxes.of(deal.tricks, hand, must_add_up=True).mass,
    }


def _state_posteriors(weights: list[dict[State, float]]) -> list[dict[State, float]]:
    """Per deal, the probability of each state given the whole sheet (forward-backward over the
    deals, with "deals in order" as the only transitions), each deal's weights rescaled so that
    eleven small numbers do not underflow."""
    scaled = []
    for w in weights:
        top = max(w.values()) or 1.0
        scaled.append({s: v / top for s, v in w.items()})
    forward: list[dict[State, float]] = []
    previous: dict[State, float] | None = None
    for w in scaled:
        if previous is None:
            reach = {s: 1.0 for s in State}
        else:
            reach = {s: 0.0 for s in State}
            for s, p in previous.items():
                for nxt in FOLLOWS[s]:
                    reach[nxt] += p
        current = {s: reach[s] * w[s] for s in State}
        norm = sum(current.values()) or 1.0
        previous = {s: v / norm for s, v in current.items()}
        forward.append(previous)
    backward: list[dict[State, float]] = [{s: 1.0 for s in State}]
    for w in reversed(scaled[1:]):
        after = backward[0]
        back = {s: sum(w[n] * after[n] for n in FOLLOWS[s]) for s in State}
        norm = sum(back.values()) or 1.0
        backward.insert(0, {s: v / norm for s, v in back.items()})
    posteriors = []
    for f, b in zip(forward, backward, strict=True):
        joint = {s: f[s] * b[s] for s in State}
        norm = sum(joint.values()) or 1.0
        posteriors.append({s: v / norm for s, v in joint.items()})
    return posteriors


def _best_states(weights: list[dict[State, float]]) -> list[State]:
    """The most probable sequence of states (Viterbi over the deals)."""
    paths: dict[State, tuple[float, list[State]]] = {s: (weights[0][s], [s]) for s in State}
    for w in weights[1:]:
        step: dict[State, tuple[float, list[State]]] = {}
        for s, (p, path) in paths.items():
            top = max(w.values()) or 1.0
            for nxt in FOLLOWS[s]:
                score = p * w[nxt] / top
                if nxt not in step or score > step[nxt][0]:
                    step[nxt] = (score, [*path, nxt])
        paths = step
    return max(paths.values(), key=lambda item: item[0])[1]


def _normalised(rows: list[list[float]]) -> list[list[float]]:
    return [[v / (sum(row) or 1.0) for v in row] for row in rows]


def choose_sheet(deals: Sequence[DealBeliefs]) -> list[ChosenDeal]:
    """The most probable sheet that obeys the rules, deal by deal, with each box's certainty:
    the probability, given everything read and the rules, that the box holds what is chosen
    (a deal's state and its values both count)."""
    weights = [_state_weights(deal, DEALS[i].hand_size) for i, deal in enumerate(deals)]
    states = _best_states(weights)
    posteriors = _state_posteriors(weights)
    chosen = []
    for index, (deal, state, posterior) in enumerate(zip(deals, states, posteriors, strict=True)):
        hand = DEALS[index].hand_size
        bids = _Boxes.of(deal.bids, hand, must_add_up=False)
        tricks = _Boxes.of(deal.tricks, hand, must_add_up=True)
        bid_values = bids.best() if state is not State.EMPTY else (None,) * len(deal.bids)
        trick_values = tricks.best() if state is State.FULL else (None,) * len(deal.tricks)
        written_bids = posterior[State.BIDS] + posterior[State.FULL]
        bid_sure = [
            written_bids * m[v] if v is not None else posterior[State.EMPTY]
            for v, m in zip(bid_values, _normalised(bids.marginals()), strict=True)
        ]
        trick_sure = [
            posterior[State.FULL] * m[v] if v is not None else 1.0 - posterior[State.FULL]
            for v, m in zip(trick_values, _normalised(tricks.marginals()), strict=True)
        ]
        chosen.append(
            ChosenDeal(
                deal=index + 1,
                bids=tuple(bid_values),
                tricks=tuple(trick_values),
                bid_certainty=tuple(bid_sure),
                tricks_certainty=tuple(trick_sure),
            )
        )
    return chosen
