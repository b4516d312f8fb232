"""Reading the standings: the tournament's ranked rows from its sheets' scores, with the rule
of which unconfirmed sheets count applied in one place. The sheets are read through
``tournament.adapter``; the ranking is ``scoring.standings``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import Exists, OuterRef, Subquery

from scoring.standings import StandingRow, standings
from tournament.adapter import TableScore, load_table_scores, sheets_round_scores
from tournament.models import Player, SheetConfirmation, SheetVersion, Table, Tournament
from tournament.names import name_sort_key


def unconfirmed_table_ids(tournament: Tournament) -> frozenset[int]:
    """The tables whose sheet's current version no director has confirmed (one query).

    A sheet that was never saved on the site (empty, or as imported from a tournament file)
    has nothing to confirm: it is not in the set. Nor is any sheet of a tournament that
    confirms no sheets (confirmation rule "none"): there every sheet is final.
    """
    return tournaments_unconfirmed_table_ids([tournament])


def tournaments_unconfirmed_table_ids(tournaments: Sequence[Tournament]) -> frozenset[int]:
    """``unconfirmed_table_ids`` of many tournaments in one query (a season's evenings)."""
    ids = [t.pk for t in tournaments if t.confirmation_rule != Tournament.ConfirmationRule.NONE]
    if not ids:
        return frozenset()
    current = SheetVersion.objects.current(OuterRef("pk"))
    confirmed = SheetConfirmation.objects.filter(version=OuterRef("current"))
    return frozenset(
        Table.objects.filter(round__tournament_id__in=ids)
        .annotate(
            current=Subquery(current.values("pk")),
            current_number=Subquery(current.values("number")),
        )
        .filter(current_number__gt=0)  # a save: version 0 is nothing to confirm
        .annotate(confirmed=Exists(confirmed))
        .filter(confirmed=False)
        .values_list("pk", flat=True)
    )


def sheet_counts(tournament: Tournament, score: TableScore, unconfirmed: frozenset[int]) -> bool:
    """Whether a table's sheet counts in the standings: once anything is entered on it, and,
    while no director has confirmed it (its table in ``unconfirmed``), only when the tournament
    lets unconfirmed sheets count (then provisional)."""
    return score.has_entries and (tournament.count_unconfirmed or score.table_id not in unconfirmed)


@dataclass(frozen=True, slots=True)
class Standings:
    """The standings of a tournament with the players they name.

    ``provisional`` holds ``(player id, round)`` for every round score that comes from a sheet
    no director has confirmed yet (when the tournament lets those count); ``left_out`` counts
    the unconfirmed sheets that do not count (when it does not).
    """

    rows: list[StandingRow[int]]
    players: dict[int, Player]
    rounds_counted: tuple[int, ...]
    provisional: frozenset[tuple[int, int]] = frozenset()
    left_out: int = 0

    def is_provisional(self, player: int, round: int | None = None) -> bool:
        """Whether a player's score in ``round`` (or in any round) is provisional."""
        if round is not None:
            return (player, round) in self.provisional
        return any((player, number) in self.provisional for number in self.rounds_counted)


def tournament_standings(tournament: Tournament) -> Standings:
    """Live standings: every deal entered so far counts, ranked by the tournament's tie-breaks.

    Sheets that nobody has confirmed count as provisional, or not at all when the
    tournament's ``count_unconfirmed`` is off: this is the one place that rule is applied.
    Under the confirmation rule "none" no sheet waits for a confirmation, so all count, final.
    """
    players = {p.pk: p for p in Player.objects.filter(tournament=tournament)}
    for player in players.values():
        player.tournament = tournament  # known already: no query per row when it is used
    unconfirmed = unconfirmed_table_ids(tournament)
    sheets = [s for s in load_table_scores(tournament=tournament) if s.has_entries]
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
    )
