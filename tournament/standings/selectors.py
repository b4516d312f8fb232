"""Reading the standings: the tournament's ranked rows from its sheets' scores, with the rule
of which unconfirmed sheets count applied in one place. The sheets are read through
``tournament.adapter``; the ranking is ``scoring.standings``."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Exists, OuterRef, Subquery

from scoring.standings import StandingRow, standings
from tournament.adapter import load_table_scores, sheets_round_scores
from tournament.models import Player, SheetConfirmation, SheetVersion, Table, Tournament
from tournament.names import name_sort_key


def unconfirmed_table_ids(tournament: Tournament) -> frozenset[int]:
    """The tables whose sheet's current version no director has confirmed (one query).

    A sheet that was never saved on the site (empty, or as imported from a tournament file)
    has nothing to confirm: it is not in the set. Nor is any sheet of a tournament that
    confirms no sheets (confirmation rule "none"): there every sheet is final.
    """
    if tournament.confirmation_rule == Tournament.ConfirmationRule.NONE:
        return frozenset()
    latest = SheetVersion.objects.filter(table=OuterRef("pk"), number__gt=0).order_by("-number")
    confirmed = SheetConfirmation.objects.filter(version=OuterRef("latest"))
    return frozenset(
        Table.objects.filter(round__tournament=tournament)
        .annotate(latest=Subquery(latest.values("pk")[:1]))
        .filter(latest__isnull=False)
        .annotate(confirmed=Exists(confirmed))
        .filter(confirmed=False)
        .values_list("pk", flat=True)
    )


@dataclass(frozen=True, slots=True)
class Standings:
    """The standings of a tournament with the players they name.

    ``provisional`` holds ``(player id, round)`` for every round score that comes from a sheet
    no director has confirmed yet (when the tournament lets those count); ``left_out`` counts
    the unconfirmed sheets that do not count (when it does not).
    """

    rows: list[StandingRow]
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
    counted = [s for s in sheets if tournament.count_unconfirmed or s.table_id not in unconfirmed]
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
