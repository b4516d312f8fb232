"""Reading a season: each evening's results as its tournament standings give them, added up by
``scoring.season``; and what the check-in needs to know of past evenings (the seating's
season meetings are ``rounds.season_seating``'s).

The season page reads every evening at once: a fixed number of queries however many evenings
(the kept sheet scores of ``SheetScore``; a sheet whose kept score is not current is scored
afresh per tournament, which a stored sheet never needs).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from scoring.season import EveningResult, SeasonRow, SeasonRule, season_standings
from scoring.standings import StandingRow, standings
from tournament.adapter import load_tournaments_table_scores, sheets_round_scores
from tournament.models import (
    Club,
    Competition,
    CompetitionEvening,
    Member,
    MemberQuestion,
    Player,
    Tournament,
)
from tournament.names import folded, name_sort_key
from tournament.standings.selectors import sheet_counts, tournaments_unconfirmed_table_ids


def competition_rule(competition: Competition) -> SeasonRule:
    return SeasonRule(best=competition.best, min_evenings=competition.min_evenings)


@dataclass(frozen=True, slots=True)
class Evening:
    """One evening of the season with its tournament's final standings rows; ``provisional``:
    the players whose score counts a sheet no director has confirmed yet (as the evening's own
    standings mark them with ``*``) or who sat at a table whose sheet is not complete;
    ``pending``: the players with no entered sheet at all on an evening not fully entered
    (their 0 is no result yet)."""

    number: int
    tournament: Tournament
    rows: list[StandingRow[int]]
    players: dict[int, Player]
    provisional: frozenset[int] = frozenset()
    pending: frozenset[int] = frozenset()


def evenings_standings(competition: Competition) -> list[Evening]:
    """Every evening's tournament standings, as ``standings.selectors.tournament_standings``
    ranks them (the same rule for unconfirmed sheets, the tournament's tie-breaks), in six
    queries."""
    evenings = list(
        CompetitionEvening.objects.filter(competition=competition)
        .select_related("tournament")
        .order_by("number")
    )
    tournaments = [e.tournament for e in evenings]
    players: dict[int, dict[int, Player]] = defaultdict(dict)
    for player in Player.objects.filter(tournament__in=tournaments):
        players[player.tournament_id][player.pk] = player
    scores = load_tournaments_table_scores(tournaments=tournaments)
    unconfirmed = tournaments_unconfirmed_table_ids(tournaments)
    result = []
    for evening in evenings:
        tournament = evening.tournament
        of_tournament = players[tournament.pk]
        counted = [
            s for s in scores.get(tournament.pk, []) if sheet_counts(tournament, s, unconfirmed)
        ]
        rows = standings(
            sheets_round_scores(counted),
            order=tournament.tiebreak_order,
            players=of_tournament.keys(),
            names={pk: p.name for pk, p in of_tournament.items()},
            name_keys={pk: name_sort_key(p.name) for pk, p in of_tournament.items()},
        )
        tables = scores.get(tournament.pk, [])
        entered = {p for s in tables if s.has_entries for p in s.player_ids}
        provisional = frozenset(
            player
            for s in tables
            if s.table_id in unconfirmed or not s.complete
            for player in s.player_ids
        )
        unfinished = not tables or any(not s.complete for s in tables)
        pending = frozenset(of_tournament.keys() - entered) if unfinished else frozenset()
        result.append(
            Evening(evening.number, tournament, rows, of_tournament, provisional - pending, pending)
        )
    return result


@dataclass(frozen=True, slots=True)
class Season:
    """The season standings of a competition and what they were made from; ``provisional``
    holds ``(member, evening number)`` for each evening result from an unconfirmed or not yet
    complete sheet; ``pending`` those of a member with no entered sheet yet on an evening not
    fully entered: no result (not counted, no 0), shown as the mark alone."""

    competition: Competition
    evenings: list[Evening]
    rows: list[SeasonRow[int]]
    members: dict[int, Member]
    open_questions: int
    provisional: frozenset[tuple[int, int]] = frozenset()
    pending: frozenset[tuple[int, int]] = frozenset()

    @property
    def numbers(self) -> tuple[int, ...]:
        return tuple(e.number for e in self.evenings)

    def is_provisional(self, row: SeasonRow[int], number: int | None = None) -> bool:
        """Whether a member's result of evening ``number`` is provisional, or (without a
        number) whether any evening that counts in the member's points is."""
        if number is not None:
            return (row.member, number) in self.provisional or self.is_pending(row, number)
        return any((row.member, n) in self.provisional for n in row.counted) or any(
            self.is_pending(row, n) for n in self.numbers
        )

    def is_pending(self, row: SeasonRow[int], number: int) -> bool:
        """Whether the member has no entered sheet yet on evening ``number`` (not fully
        entered): the cell shows the mark, not a 0."""
        return (row.member, number) in self.pending

    @property
    def any_provisional(self) -> bool:
        return bool(self.provisional or self.pending)


def season_of(competition: Competition) -> Season:
    """The season standings: each member's evenings (through the players tied to them)."""
    evenings = evenings_standings(competition)
    results: dict[int, dict[int, EveningResult]] = defaultdict(dict)
    provisional: set[tuple[int, int]] = set()
    pending: set[tuple[int, int]] = set()
    for evening in evenings:
        for row in evening.rows:
            member_id = evening.players[row.player].member_id
            if member_id is None:
                continue
            if row.player in evening.pending:
                pending.add((member_id, evening.number))
                results.setdefault(member_id, {})
                continue
            if row.player in evening.provisional:
                provisional.add((member_id, evening.number))
            results[member_id][evening.number] = EveningResult(
                points=row.tournament_points, bollen=row.bollen, correct=row.correct
            )
    members = {m.pk: m for m in Member.objects.filter(pk__in=results)}
    rows = season_standings(
        results,
        evenings=[e.number for e in evenings],
        rule=competition_rule(competition),
        names={pk: m.name for pk, m in members.items()},
        name_keys={pk: name_sort_key(m.name) for pk, m in members.items()},
    )
    questions = (
        MemberQuestion.objects.filter(
            player__tournament__competition_evenings__competition=competition
        )
        .values("player_id")
        .distinct()
        .count()
    )
    return Season(
        competition,
        evenings,
        rows,
        members,
        questions,
        frozenset(provisional),
        frozenset(pending),
    )


def last_evening_members(competition: Competition) -> list[int]:
    """The members who played the competition's last evening ("all from last evening")."""
    last = competition.evenings.order_by("-number").first()
    if last is None:
        return []
    return list(
        Player.objects.filter(tournament_id=last.tournament_id)
        .exclude(member=None)
        .values_list("member_id", flat=True)
    )


def competitions_of(club: Club) -> list[Competition]:
    """The club's competitions, the newest first."""
    return list(Competition.objects.filter(club=club))


def members_listed(register: Club, *, search: str = "", active_only: bool = False) -> list[Member]:
    """``register`` in Dutch list order, filtered by a folded search."""
    members = Member.objects.filter(register=register)
    if active_only:
        members = members.filter(active=True)
    wanted = folded(search)
    listed = [m for m in members if not wanted or wanted in folded(f"{m.name} {m.club} {m.number}")]
    listed.sort(key=lambda m: name_sort_key(m.name))
    return listed


def open_questions(competition: Competition) -> list[tuple[Player, list[Member]]]:
    """The near matches to answer, per player of the competition's evenings."""
    grouped: dict[int, tuple[Player, list[Member]]] = {}
    for question in MemberQuestion.objects.filter(
        player__tournament__competition_evenings__competition=competition
    ).select_related("player__tournament", "member"):
        grouped.setdefault(question.player_id, (question.player, []))[1].append(question.member)
    return list(grouped.values())
