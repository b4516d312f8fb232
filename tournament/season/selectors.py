"""Reading a season: each evening's results as its tournament standings give them, added up by
``scoring.season``; and what the check-in needs to know of past evenings (the seating's
season meetings are ``rounds.season_seating``'s).

When a number is final: an evening is final once its tournament is finished
(``Tournament.finished_at``, set by the director's "Finish the tournament",
``tournaments.finish``). Before that it is still being played, whatever its rounds (one round
of three played, or every round complete but not finished yet): each of its results can still
change, so each is provisional. Within an evening the rules are the tournament standings' own
(``standings.selectors``: which sheets count, ``sheet_counts``; which scores are provisional,
``Standings.is_provisional``); a finished evening has none of those, as finishing refuses an
unconfirmed or unfinished sheet. A member's season points are provisional when any evening
result of theirs is (one in brackets too: still changing, it may yet enter the best evenings),
and the season is final when every evening is.

Evenings are ordered and numbered by their tournament's date, then by when the tournament was
created (``models.season.evening_order``), never by when they were added:
``competition_evenings`` is that order, and ``Evening.number`` the place in it (1, 2, 3 ...;
the stored number agrees once ``numbering`` has renumbered).

Guests of the club (``Member.guest``) and players tied to nobody are never ranked: the
standings rows hold the members alone, and the guests who played an evening are listed apart
(``Season.guests``). The season ranks by the total of the best evenings or by the average per
evening played (``Competition.ranking``, ``scoring.season``).

The season page reads every evening at once: a fixed number of queries however many evenings
(the kept sheet scores of ``SheetScore``; a sheet whose kept score is not current is scored
afresh per tournament, which a stored sheet never needs).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.season import (
    EveningResult,
    GuestRow,
    Ranking,
    SeasonRow,
    SeasonRule,
    season_guests,
    season_standings,
)
from scoring.standings import StandingRow
from tournament.adapter import load_tournaments_table_scores
from tournament.models import (
    Club,
    Competition,
    CompetitionEvening,
    Member,
    MemberQuestion,
    Player,
    Round,
    Tournament,
    tournaments_unconfirmed_table_ids,
)
from tournament.models.season import evening_order
from tournament.names import folded, name_sort_key
from tournament.standings.selectors import Standings, standings_of


def competition_rule(competition: Competition) -> SeasonRule:
    return SeasonRule(
        best=competition.best,
        min_evenings=competition.min_evenings,
        ranking=Ranking(competition.ranking),
    )


def competition_evenings(competition: Competition) -> list[CompetitionEvening]:
    """The competition's evenings (with their tournaments) in the season's order: the
    tournament's date, then its creation (``models.season.evening_order``)."""
    evenings = list(
        CompetitionEvening.objects.filter(competition=competition).select_related("tournament")
    )
    evenings.sort(key=lambda e: evening_order(e.tournament))
    return evenings


def average_shown(average: Fraction | None) -> Decimal | None:
    """An average as files and pages show it: two decimals, half up (the ranking compares the
    exact value)."""
    if average is None:
        return None
    return (Decimal(average.numerator) / Decimal(average.denominator)).quantize(
        Decimal("0.01"), rounding=ROUND_HALF_UP
    )


@dataclass(frozen=True, slots=True)
class Evening:
    """One evening of the season with its tournament's standings (``standings``, as
    ``standings.selectors.tournament_standings`` gives them). ``number``: its place in the
    season's order (the module). ``final``: its tournament is finished; until then every
    result of it is provisional (see the module). ``pending``: the players with no entered
    sheet yet on an evening not final (their 0 is no result yet)."""

    number: int
    tournament: Tournament
    standings: Standings
    pending: frozenset[int] = frozenset()

    @property
    def rows(self) -> list[StandingRow[int]]:
        return self.standings.rows

    @property
    def players(self) -> dict[int, Player]:
        return self.standings.players

    @property
    def final(self) -> bool:
        return self.standings.final

    @property
    def complete(self) -> bool:
        """Every result of the evening is in: it is finished, or every round played so far is
        complete with no provisional score (the director may yet finish it, or play on)."""
        standings = self.standings
        return self.final or bool(
            standings.rounds_counted and not standings.in_play and not standings.any_provisional
        )

    def is_provisional(self, player: int) -> bool:
        """Whether the player's result of this evening can still change: the evening is
        still being played, or its own standings mark the player's score provisional."""
        return not self.final or self.standings.is_provisional(player)

    @property
    def provisional(self) -> frozenset[int]:
        """The players with a provisional result (the pending ones have none yet)."""
        return frozenset(p for p in self.players if self.is_provisional(p)) - self.pending

    def title(self) -> str:
        """The evening's own standings heading ("Standings after round 1, round 2 being
        played (provisional)", "Final standings, <date>")."""
        return self.standings.state.title()


def evenings_standings(competition: Competition) -> list[Evening]:
    """Every evening's tournament standings, as ``standings.selectors.tournament_standings``
    gives them, in the season's order (``competition_evenings``), in seven queries."""
    evenings = competition_evenings(competition)
    tournaments = [e.tournament for e in evenings]
    players: dict[int, dict[int, Player]] = defaultdict(dict)
    for player in Player.objects.filter(tournament__in=tournaments):
        players[player.tournament_id][player.pk] = player
    complete: dict[int, list[int]] = defaultdict(list)
    for tournament_id, number in (
        Round.objects.with_state()
        .filter(tournament__in=tournaments, progress=Round.State.COMPLETE)
        .order_by("number")
        .values_list("tournament_id", "number")
    ):
        complete[tournament_id].append(number)
    scores = load_tournaments_table_scores(tournaments=tournaments)
    unconfirmed = tournaments_unconfirmed_table_ids(tournaments)
    result = []
    for number, evening in enumerate(evenings, start=1):
        tournament = evening.tournament
        of_tournament = players[tournament.pk]
        for player in of_tournament.values():
            player.tournament = tournament  # known already: no query when it is used
        tables = scores.get(tournament.pk, [])
        evening_standings = standings_of(
            tournament, of_tournament, tables, unconfirmed, tuple(complete[tournament.pk])
        )
        pending: frozenset[int] = frozenset()
        if not evening_standings.final:
            entered = {p for s in tables if s.has_entries for p in s.player_ids}
            pending = frozenset(of_tournament.keys() - entered)
        result.append(Evening(number, tournament, evening_standings, pending))
    return result


@dataclass(frozen=True, slots=True)
class Season:
    """The season standings of a competition and what they were made from.

    - ``rows``: the members' standings (never a guest); ``guests``: the guests who played an
      evening, apart and never ranked (``Season.guest_lines`` for a table of them).
    - ``members``: every register record tied to a player of an evening (the guests'
      included), by id: the current name of a player's member (``player_name``).
    - ``provisional`` holds ``(member, evening number)`` for each evening result that can still
      change (its evening is still being played: ``Evening.is_provisional``); ``pending``
      those of a member with no entered sheet yet on an evening still being played: no result
      (not counted, no 0), shown as the mark alone. Guests' included.
    """

    competition: Competition
    evenings: list[Evening]
    rows: list[SeasonRow[int]]
    members: dict[int, Member]
    open_questions: int
    provisional: frozenset[tuple[int, int]] = frozenset()
    pending: frozenset[tuple[int, int]] = frozenset()
    guests: list[GuestRow[int]] = field(default_factory=list)

    @property
    def rule(self) -> SeasonRule:
        return competition_rule(self.competition)

    @property
    def by_average(self) -> bool:
        """The season ranks by the average per evening played."""
        return self.rule.ranking == Ranking.AVERAGE

    def rule_text(self) -> str:
        """The rule in a sentence, for every page and file ("The best 2 of the 3 evenings
        count for each member. A member needs 2 evenings to be ranked.")."""
        rule, evenings = self.rule, len(self.evenings)
        if rule.ranking == Ranking.AVERAGE:
            text = _("Ranked by the average points per evening played; every evening counts.")
        elif rule.best is None:
            text = _("Every evening counts.")
        elif rule.best < evenings:
            text = ngettext(
                "The best %(best)s of the %(evenings)s evening count for each member.",
                "The best %(best)s of the %(evenings)s evenings count for each member.",
                evenings,
            ) % {"best": rule.best, "evenings": evenings}
        else:
            text = ngettext(
                "The best %(best)s evenings count for each member (%(evenings)s evening so far).",
                "The best %(best)s evenings count for each member (%(evenings)s evenings so far).",
                evenings,
            ) % {"best": rule.best, "evenings": evenings}
        if rule.min_evenings:
            text += " " + ngettext(
                "A member needs %(count)s evening to be ranked.",
                "A member needs %(count)s evenings to be ranked.",
                rule.min_evenings,
            ) % {"count": rule.min_evenings}
        return text

    def player_name(self, player: Player) -> str:
        """The player's name as the register has it now (a rename or a merge reaches every
        evening), or as typed for a player tied to nobody."""
        member = self.members.get(player.member_id) if player.member_id is not None else None
        return player.name if member is None else member.name

    def is_guest(self, player: Player) -> bool:
        """The player is a guest of the evening: tied to nobody, or to a guest of the club."""
        member = self.members.get(player.member_id) if player.member_id is not None else None
        return member is None or member.guest

    @property
    def guest_lines(self) -> list[dict[str, Any]]:
        """The guests as the season tables show them: the guest, its register record, each
        evening as (points or ``None``, provisional) and whether any of it is provisional."""
        return [
            {
                "row": guest,
                "member": self.members[guest.member],
                "cells": [
                    (None if result is None else result.points, self.is_provisional(guest, n))
                    for n, result in zip(self.numbers, guest.per_evening, strict=True)
                ],
                "provisional": self.is_provisional(guest),
            }
            for guest in self.guests
        ]

    @property
    def numbers(self) -> tuple[int, ...]:
        return tuple(e.number for e in self.evenings)

    @property
    def in_play(self) -> tuple[int, ...]:
        """The numbers of the evenings still being played (not finished)."""
        return tuple(e.number for e in self.evenings if not e.final)

    @property
    def final(self) -> bool:
        """Every evening is finished: no number of the season changes any more (until an
        evening is added or reopened)."""
        return not self.in_play and not self.any_provisional

    def is_provisional(
        self, row: SeasonRow[int] | GuestRow[int], number: int | None = None
    ) -> bool:
        """Whether a member's (or guest's) result of evening ``number`` is provisional, or
        (without a number) whether the member's points are: any evening result of theirs is,
        counted or not (a result still changing may yet enter the best evenings)."""
        if number is not None:
            return (row.member, number) in self.provisional or self.is_pending(row, number)
        return any(self.is_provisional(row, n) for n in self.numbers)

    def is_pending(self, row: SeasonRow[int] | GuestRow[int], number: int) -> bool:
        """Whether the member has no entered sheet yet on evening ``number`` (still being
        played): the cell shows the mark, not a 0."""
        return (row.member, number) in self.pending

    @property
    def any_provisional(self) -> bool:
        return bool(self.provisional or self.pending)

    def title(self) -> str:
        """The heading, as the state is: "Season standings, evening 4 still being played
        (provisional)" while one is; "Season standings after evening 4" once every evening is
        finished; never final wording while a number can still change."""
        if self.in_play:
            return ngettext(
                "Season standings, evening %(numbers)s still being played (provisional)",
                "Season standings, evenings %(numbers)s still being played (provisional)",
                len(self.in_play),
            ) % {"numbers": ", ".join(map(str, self.in_play))}
        if not self.evenings:
            return _("Season standings")
        title = _("Season standings after evening %(number)s") % {
            "number": self.evenings[-1].number
        }
        if self.any_provisional:
            title = _("%(title)s (provisional)") % {"title": title}
        return title


def season_of(competition: Competition) -> Season:
    """The season standings: each member's evenings (through the players tied to them); the
    guests' apart, players tied to nobody in neither."""
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
            if evening.is_provisional(row.player):
                provisional.add((member_id, evening.number))
            results[member_id][evening.number] = EveningResult(
                points=row.tournament_points, bollen=row.bollen, correct=row.correct
            )
    members = {m.pk: m for m in Member.objects.filter(pk__in=results)}
    numbers = [e.number for e in evenings]
    names = {pk: m.name for pk, m in members.items()}
    name_keys = {pk: name_sort_key(m.name) for pk, m in members.items()}
    rows = season_standings(
        {pk: r for pk, r in results.items() if not members[pk].guest},
        evenings=numbers,
        rule=competition_rule(competition),
        names=names,
        name_keys=name_keys,
    )
    guests = season_guests(
        {pk: r for pk, r in results.items() if members[pk].guest},
        evenings=numbers,
        names=names,
        name_keys=name_keys,
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
        guests,
    )


def last_evening_members(competition: Competition) -> list[int]:
    """The members (and guests) who played the competition's last evening in the season's
    order ("all from last evening")."""
    evenings = competition_evenings(competition)
    if not evenings:
        return []
    return list(
        Player.objects.filter(tournament_id=evenings[-1].tournament_id)
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


def untied_players(competition: Competition) -> list[Player]:
    """The players of the competition's evenings tied to nobody in the register and not asked
    about (added on an evening's player page, say): guests of the evening, until the director
    ties them to a member or a guest of the register on the questions page."""
    players = Player.objects.filter(
        tournament__competition_evenings__competition=competition,
        member__isnull=True,
        member_questions__isnull=True,
    ).select_related("tournament")
    return sorted(players, key=lambda player: (name_sort_key(player.name), player.pk))


def open_questions(competition: Competition) -> list[tuple[Player, list[Member]]]:
    """The near matches to answer, per player of the competition's evenings (a player asked
    about with no member near has an empty list)."""
    grouped: dict[int, tuple[Player, list[Member]]] = {}
    for question in MemberQuestion.objects.filter(
        player__tournament__competition_evenings__competition=competition
    ).select_related("player__tournament", "member"):
        near = grouped.setdefault(question.player_id, (question.player, []))[1]
        if question.member is not None:  # None: "who is this?", nobody's name near
            near.append(question.member)
    return list(grouped.values())
