"""Season-aware seating: round 1 of an evening seats members away from those they met most
this season.

The seating engine (``scoring.seating.plan_seating``) counts meetings from the history it is
given, rounds of tables. For round 1 of an evening of a competition with ``season_seating`` on,
``round_seat`` passes the season's meetings of tonight's members (``season_meetings``)
as that history: every meeting one two-seat table of a stand-in round, the stand-in rounds
packed so each player sits once per round. Tables of one size credit nobody with a larger
table, so only the meetings count.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from itertools import combinations

from tournament.models import Competition, CompetitionEvening, Player, Seat, Tournament


def season_meetings(
    competition: Competition, *, exclude: Tournament | None = None
) -> Counter[tuple[int, int]]:
    """How often each two members sat at one table this season: ``{(member, member): n}``
    with the lower id first (two queries)."""
    tournaments = CompetitionEvening.objects.filter(competition=competition)
    if exclude is not None:
        tournaments = tournaments.exclude(tournament=exclude)
    seats = Seat.objects.filter(
        round__tournament__in=tournaments.values("tournament_id"), player__member__isnull=False
    ).values_list("table_id", "player__member_id")
    tables: dict[int, list[int]] = defaultdict(list)
    for table_id, member_id in seats:
        tables[table_id].append(member_id)
    meetings: Counter[tuple[int, int]] = Counter()
    for members in tables.values():
        for a, b in combinations(sorted(members), 2):
            meetings[(a, b)] += 1
    return meetings


def season_pairs(tournament: Tournament, players: Sequence[int]) -> Counter[tuple[int, int]]:
    """How often each two of ``players`` (player pks of ``tournament``) met this season, over
    the tournament's competitions that have season seating on (the tournament left out)."""
    member_of = dict(
        Player.objects.filter(pk__in=players, member__isnull=False).values_list("member_id", "pk")
    )
    pairs: Counter[tuple[int, int]] = Counter()
    if len(member_of) < 2:
        return pairs
    for competition in Competition.objects.filter(
        season_seating=True, evenings__tournament=tournament
    ):
        for (a, b), count in season_meetings(competition, exclude=tournament).items():
            if a in member_of and b in member_of:
                pa, pb = sorted((member_of[a], member_of[b]))
                pairs[pa, pb] += count
    return pairs


def season_history(tournament: Tournament, players: Sequence[int]) -> list[list[list[int]]]:
    """The season's meetings of ``players`` as stand-in rounds of two-seat tables (empty when
    the tournament is no evening of a competition with season seating)."""
    rounds: list[list[list[int]]] = []
    seated: list[set[int]] = []
    for (a, b), count in sorted(season_pairs(tournament, players).items()):
        for _ in range(count):
            free = next((n for n, taken in enumerate(seated) if not {a, b} & taken), None)
            if free is None:
                free = len(rounds)
                rounds.append([])
                seated.append(set())
            rounds[free].append([a, b])
            seated[free].update((a, b))
    return rounds
