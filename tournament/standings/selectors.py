"""Reading the standings: the tournament's ranked rows from its sheets' scores, with the rule
of which unconfirmed sheets count applied in one place. The sheets are read through
``tournament.adapter``; the ranking is ``scoring.standings``."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from scoring.standings import StandingRow, standings
from tournament.adapter import TableScore, load_table_scores, sheets_round_scores
from tournament.models import Player, Round, Tournament, unconfirmed_table_ids
from tournament.names import name_sort_key


def sheet_counts(tournament: Tournament, score: TableScore, unconfirmed: frozenset[int]) -> bool:
    """Whether a table's sheet counts in the standings: once anything is entered on it, and,
    while no director has confirmed it (its table in ``unconfirmed``), only when the tournament
    lets unconfirmed sheets count (then provisional)."""
    return score.has_entries and (tournament.count_unconfirmed or score.table_id not in unconfirmed)


@dataclass(frozen=True, slots=True)
class Standings:
    """The standings of a tournament with the players they name.

    - ``rounds_counted``: the rounds with a score in the standings (a round being played
      included); ``rounds_complete``: those whose every table's sheet is complete.
    - ``provisional`` holds ``(player id, round)`` for every round score that comes from a
      sheet no director has confirmed yet (when the tournament lets those count);
      ``unfinished`` those from a sheet that is still being played. Both can still change:
      ``is_provisional`` is either.
    - ``left_out`` counts the unconfirmed sheets that do not count (when it does not).
    - ``final``: the director has finished the tournament (``finished_at``): nothing changes
      any more. Before that the standings are "after round N" (``after_round``).
    """

    rows: list[StandingRow[int]]
    players: dict[int, Player]
    rounds_counted: tuple[int, ...]
    provisional: frozenset[tuple[int, int]] = frozenset()
    left_out: int = 0
    unfinished: frozenset[tuple[int, int]] = frozenset()
    rounds_complete: tuple[int, ...] = ()
    finished_at: datetime.datetime | None = None
    date: datetime.date | None = None  # the tournament's

    @property
    def final(self) -> bool:
        return self.finished_at is not None

    @property
    def in_play(self) -> tuple[int, ...]:
        """The counted rounds that are not complete: still being played."""
        return tuple(r for r in self.rounds_counted if r not in self.rounds_complete)

    def is_provisional(self, player: int, round: int | None = None) -> bool:
        """Whether a player's score in ``round`` (or in any round) can still change: from a
        sheet not confirmed yet, or not finished yet."""
        if round is not None:
            return (player, round) in self.provisional or (player, round) in self.unfinished
        return any(self.is_provisional(player, number) for number in self.rounds_counted)

    @property
    def any_provisional(self) -> bool:
        return bool(self.provisional or self.unfinished)

    @property
    def state(self) -> StandingsState:
        return StandingsState(
            finished_at=self.finished_at,
            rounds_complete=self.rounds_complete,
            in_play=self.in_play,
            any_provisional=self.any_provisional,
            date=self.date,
        )


def tournament_standings(tournament: Tournament) -> Standings:
    """Live standings: every deal entered so far counts, ranked by the tournament's tie-breaks.

    Sheets that nobody has confirmed count as provisional, or not at all when the
    tournament's ``count_unconfirmed`` is off: this is the one place that rule is applied.
    Under the confirmation rule "none" no sheet waits for a confirmation, so all count, final.
    """
    players = {p.pk: p for p in Player.objects.filter(tournament=tournament)}
    for player in players.values():
        player.tournament = tournament  # known already: no query per row when it is used
    return standings_of(
        tournament,
        players,
        load_table_scores(tournament=tournament),
        unconfirmed_table_ids(tournament),
        tuple(
            Round.objects.with_state()
            .filter(tournament=tournament, progress=Round.State.COMPLETE)
            .order_by("number")
            .values_list("number", flat=True)
        ),
    )


def standings_of(
    tournament: Tournament,
    players: dict[int, Player],
    tables: Sequence[TableScore],
    unconfirmed: frozenset[int],
    rounds_complete: tuple[int, ...],
) -> Standings:
    """The standings of ``tournament`` from what was read of it: its players, every table's
    score, the tables whose sheet waits for a confirmation and the complete rounds (the season
    reads those for all its evenings at once and ranks each evening here)."""
    sheets = [s for s in tables if s.has_entries]
    counted = [s for s in sheets if sheet_counts(tournament, s, unconfirmed)]
    scores = sheets_round_scores(counted)
    rows = standings(
        scores,
        order=tournament.tiebreak_order,
        players=players.keys(),
        names={pk: p.name for pk, p in players.items()},
        name_keys={pk: name_sort_key(p.name) for pk, p in players.items()},
    )
    return Standings(
        rows=rows,
        players=players,
        rounds_counted=tuple(sorted({score.round for score in scores})),
        provisional=frozenset(
            (player, s.round_number)
            for s in counted
            if s.table_id in unconfirmed
            for player in s.player_ids
        ),
        left_out=len(sheets) - len(counted),
        unfinished=frozenset(
            (player, s.round_number) for s in counted if not s.complete for player in s.player_ids
        ),
        rounds_complete=rounds_complete,
        finished_at=tournament.finished_at,
        date=tournament.date,
    )


@dataclass(frozen=True, slots=True)
class StandingsState:
    """How final the standings are, as every page and file says it (plain values: cached with
    the standings rows). ``title()`` is the heading."""

    finished_at: datetime.datetime | None
    rounds_complete: tuple[int, ...]
    in_play: tuple[int, ...]
    any_provisional: bool
    date: datetime.date | None = None  # the tournament's

    @property
    def final(self) -> bool:
        return self.finished_at is not None

    @property
    def after_round(self) -> int:
        """The last round N such that rounds 1..N are all complete (0: none yet)."""
        complete = set(self.rounds_complete)
        n = 0
        while n + 1 in complete:
            n += 1
        return n

    def title(self) -> str:
        """ "Final standings, 14 December 2026" once the tournament is finished; before that
        "Standings after round N" (with the round being played, and "provisional" while a
        number in it can still change), in the active language."""
        if self.finished_at is not None:
            day = self.date or timezone.localdate(self.finished_at)
            return _("Final standings, %(date)s") % {"date": date_format(day, "j F Y")}
        after = self.after_round
        playing = ", ".join(map(str, self.in_play))
        if after == 0:
            title = _("Standings")
            if playing:
                title = _("Standings, round %(playing)s being played") % {"playing": playing}
        elif playing:
            title = _("Standings after round %(round)s, round %(playing)s being played") % {
                "round": after,
                "playing": playing,
            }
        else:
            title = _("Standings after round %(round)s") % {"round": after}
        if self.any_provisional:
            title = _("%(title)s (provisional)") % {"title": title}
        return title
