"""A club's season: the evenings of a competition added up into season standings.

Each evening is a tournament of its own; a member's result of an evening is what that
tournament's standings gave them (tournament points, bollen, correct), read by the caller and
never re-scored here. A member needs a minimum number of evenings to be ranked and is listed
unranked below it. The season ranks in one of two ways (``Ranking``):

- BEST: the total of the counted evenings, all of them or each member's best K. Ties go to
  fewer bollen over the counted evenings, then more correct, then a shared rank (1, 2, 2, 4).
  Which evenings count for the best K: the highest points; among evenings of equal points the
  one with fewer bollen, then more correct, then the earlier evening, so the choice is the
  member's best and never depends on the order the results came in.
- AVERAGE: the average points per evening played, every evening counting (``best`` is not
  used). Ties go to fewer bollen per evening, then more correct per evening (so one who played
  more evenings has no edge from their totals), then a shared rank. Averages are compared
  exactly (fractions), never as rounded decimals. A member with no evening has no average and
  is never ranked.

Guests of the club play evenings but are never ranked: the caller leaves them out of
``season_standings`` and lists them with ``season_guests``.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any, Generic, TypeVar

# Whatever the caller names a member by (the site: the member's id).
M = TypeVar("M", bound=Hashable)


class SeasonCode(StrEnum):
    """Why season arithmetic refuses its input."""

    BEST_COUNT = "season_best_count"
    """Best K needs K of at least 1."""
    MIN_EVENINGS = "season_min_evenings"
    """The minimum number of evenings cannot be negative."""
    EVENING_UNKNOWN = "season_evening_unknown"
    """A result names an evening that is not one of the competition's."""
    MERGE_OVERLAP = "season_merge_overlap"
    """Two records to merge both have a result on the same evening."""


class SeasonError(ValueError):
    """Season input refused: ``code`` says why, ``evening`` where (when one evening is)."""

    def __init__(self, code: SeasonCode, message: str, *, evening: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.evening = evening


@dataclass(frozen=True, slots=True)
class EveningResult:
    """A member's result of one evening, as that evening's tournament standings give it."""

    points: int
    bollen: int
    correct: int


class Ranking(StrEnum):
    """How the season ranks (the module says each rule and its tie-breaks)."""

    BEST = "best"
    """The total of the counted evenings (all, or each member's best K)."""
    AVERAGE = "average"
    """The average points per evening played, every evening counting."""


@dataclass(frozen=True, slots=True)
class SeasonRule:
    """How a season adds up: ``best`` evenings per member (``None``: all of them; not used when
    ranking by the average), the ``min_evenings`` a member must have played to be ranked, and
    the ``ranking``."""

    best: int | None = None
    min_evenings: int = 0
    ranking: Ranking = Ranking.BEST

    @property
    def counting(self) -> int | None:
        """How many of each member's evenings count (``None``: all of them)."""
        return None if self.ranking == Ranking.AVERAGE else self.best

    def __post_init__(self) -> None:
        if self.best is not None and self.best < 1:
            raise SeasonError(
                SeasonCode.BEST_COUNT, f"Best {self.best} evenings: K must be at least 1."
            )
        if self.min_evenings < 0:
            raise SeasonError(
                SeasonCode.MIN_EVENINGS,
                f"The minimum of {self.min_evenings} evenings cannot be negative.",
            )


@dataclass(frozen=True, slots=True)
class SeasonRow(Generic[M]):
    """One member's line of the season standings.

    - ``rank``: shared when points, bollen and correct are all equal; ``None`` for a member
      below the minimum number of evenings (listed after the ranked ones).
    - ``points``, ``bollen``, ``correct``: summed over the counted evenings only (every evening
      played, when ranking by the average).
    - ``played``: the evenings the member played; ``counted``: the evening numbers that count,
      in evening order.
    - ``per_evening``: the member's result of every evening of the season, in evening order
      (``None``: absent).
    - ``average``: the points of every evening played divided by ``played``, exact (``None``
      with no evening); what the AVERAGE ranking ranks by.
    """

    rank: int | None
    member: M
    name: str
    points: int
    bollen: int
    correct: int
    played: int
    counted: tuple[int, ...]
    per_evening: tuple[EveningResult | None, ...]
    average: Fraction | None = None

    @property
    def ranked(self) -> bool:
        return self.rank is not None


@dataclass(frozen=True, slots=True)
class GuestRow(Generic[M]):
    """A guest's line, apart from the standings and never ranked: ``points``, ``bollen`` and
    ``correct`` summed over every evening played, ``per_evening`` as in ``SeasonRow``."""

    member: M
    name: str
    points: int
    bollen: int
    correct: int
    played: int
    per_evening: tuple[EveningResult | None, ...]


def counted_evenings(results: Mapping[int, EveningResult], best: int | None) -> tuple[int, ...]:
    """The evening numbers that count for a member, in evening order: all of them, or the best
    ``best`` (highest points, then fewer bollen, then more correct, then the earlier)."""
    if best is None or len(results) <= best:
        return tuple(sorted(results))
    ordered = sorted(
        results.items(),
        key=lambda item: (-item[1].points, item[1].bollen, -item[1].correct, item[0]),
    )
    return tuple(sorted(number for number, _result in ordered[:best]))


def season_merge(
    first: Mapping[int, EveningResult], second: Mapping[int, EveningResult]
) -> dict[int, EveningResult]:
    """The results of two records of one person put together (a member merged mid-season).

    SeasonError MERGE_OVERLAP when both played the same evening: then they are two people.
    """
    both = sorted(set(first) & set(second))
    if both:
        raise SeasonError(
            SeasonCode.MERGE_OVERLAP,
            f"Both records played evening {both[0]}: they cannot be one person.",
            evening=both[0],
        )
    return dict(sorted({**first, **second}.items()))


def _check_evenings(
    results: Mapping[M, Mapping[int, EveningResult]], evenings: Sequence[int]
) -> list[int]:
    """The evening numbers in order; SeasonError EVENING_UNKNOWN for a result of another."""
    known = set(evenings)
    for member, by_evening in results.items():
        for number in by_evening:
            if number not in known:
                raise SeasonError(
                    SeasonCode.EVENING_UNKNOWN,
                    f"Member {member} has a result for evening {number}, "
                    "which is not an evening of the season.",
                    evening=number,
                )
    return sorted(known)


def _average(by_evening: Mapping[int, EveningResult]) -> Fraction | None:
    if not by_evening:
        return None
    return Fraction(sum(r.points for r in by_evening.values()), len(by_evening))


def season_standings(
    results: Mapping[M, Mapping[int, EveningResult]],
    *,
    evenings: Sequence[int],
    rule: SeasonRule = SeasonRule(),
    names: Mapping[M, str] | None = None,
    name_keys: Mapping[M, tuple[Any, ...]] | None = None,
) -> list[SeasonRow[M]]:
    """The season standings of the members in ``results`` (member -> evening number -> result;
    an evening a member missed is simply absent) over the competition's ``evenings``.

    Ranked members first, by the rule's ranking and its tie-breaks (the module); rows that
    share a rank (and the unranked ones among themselves) are listed by ``name_keys``, then
    name, then member. SeasonError EVENING_UNKNOWN when a result names an evening not in
    ``evenings``.
    """
    order = _check_evenings(results, evenings)

    def name_of(member: M) -> str:
        name = names.get(member) if names is not None else None
        return str(member) if name is None else name

    tallies = []
    for member, by_evening in results.items():
        counted = counted_evenings(by_evening, rule.counting)
        totals = (
            sum(by_evening[n].points for n in counted),
            sum(by_evening[n].bollen for n in counted),
            sum(by_evening[n].correct for n in counted),
        )
        average = _average(by_evening)
        merit: tuple[Fraction, Fraction, Fraction]
        if rule.ranking == Ranking.AVERAGE:
            played = len(by_evening) or 1
            merit = (
                -(average or Fraction(0)),
                Fraction(totals[1], played),
                -Fraction(totals[2], played),
            )
            ranked = average is not None and len(by_evening) >= rule.min_evenings
        else:
            merit = (Fraction(-totals[0]), Fraction(totals[1]), Fraction(-totals[2]))
            ranked = len(by_evening) >= rule.min_evenings
        listed = name_keys.get(member, ()) if name_keys is not None else ()
        name = name_of(member)
        key = (not ranked, merit, listed, name.casefold(), name, str(member), repr(member))
        tallies.append((key, member, by_evening, counted, totals, average, merit, ranked))
    tallies.sort(key=lambda item: item[0])

    rows: list[SeasonRow[M]] = []
    previous: tuple[Fraction, Fraction, Fraction] | None = None
    for position, (_key, member, by_evening, counted, totals, average, merit, ranked) in enumerate(
        tallies, start=1
    ):
        rank: int | None = None
        if ranked:
            rank = rows[-1].rank if merit == previous and rows else position
            previous = merit
        rows.append(
            SeasonRow(
                rank=rank,
                member=member,
                name=name_of(member),
                points=totals[0],
                bollen=totals[1],
                correct=totals[2],
                played=len(by_evening),
                counted=counted,
                per_evening=tuple(by_evening.get(n) for n in order),
                average=average,
            )
        )
    return rows


def season_guests(
    results: Mapping[M, Mapping[int, EveningResult]],
    *,
    evenings: Sequence[int],
    names: Mapping[M, str] | None = None,
    name_keys: Mapping[M, tuple[Any, ...]] | None = None,
) -> list[GuestRow[M]]:
    """The guests' lines (never ranked), listed by ``name_keys``, then name, then guest.
    SeasonError EVENING_UNKNOWN as ``season_standings``."""
    order = _check_evenings(results, evenings)
    rows = []
    for member, by_evening in results.items():
        name = names.get(member) if names is not None else None
        name = str(member) if name is None else name
        listed = name_keys.get(member, ()) if name_keys is not None else ()
        row = GuestRow(
            member=member,
            name=name,
            points=sum(r.points for r in by_evening.values()),
            bollen=sum(r.bollen for r in by_evening.values()),
            correct=sum(r.correct for r in by_evening.values()),
            played=len(by_evening),
            per_evening=tuple(by_evening.get(n) for n in order),
        )
        rows.append(((listed, name.casefold(), name, str(member), repr(member)), row))
    rows.sort(key=lambda item: item[0])
    return [row for _key, row in rows]
