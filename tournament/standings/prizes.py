"""The prizes of the final standings: the places the director announces (``prize_places``, ties
shared as ranked) and, by the clubs' tradition, the last place ("de verliezer"). Nobody wins
anything before the tournament is finished: provisional standings name no winner."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from tournament.models import Tournament
from tournament.standings.tables import StandingsRow


@dataclass(frozen=True, slots=True)
class Prizes:
    """The rows that win a prize, in rank order (``rank <= places``: two players sharing the
    third place both take the third prize, and nobody takes a fourth), and the rows of the last
    place when the tournament names it (``losers``: a tie shares it too; players who withdrew
    are not the last place, and a prize winner never is)."""

    places: int
    winners: list[StandingsRow] = field(default_factory=list)
    losers: list[StandingsRow] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.winners or self.losers)

    def wins(self, row: StandingsRow) -> bool:
        """Whether ``row`` (of the same standings, any copy of it) takes a prize."""
        return bool(self.winners) and row["rank"] <= self.places

    def loses(self, row: StandingsRow) -> bool:
        """Whether ``row`` is the last place named."""
        return bool(self.losers) and row["rank"] == self.losers[0]["rank"] and not row["withdrawn"]

    def labels(self) -> dict[int, str]:
        """Each prize's words by the player's id: "1e prijs", "de verliezer"."""
        labels = {row["player_id"]: prize_label(row["rank"]) for row in self.winners}
        labels.update((row["player_id"], _("the loser")) for row in self.losers)
        return labels


def prize_label(rank: int) -> str:
    return _("Prize %(place)s") % {"place": rank}


def standings_prizes(tournament: Tournament, rows: Sequence[StandingsRow]) -> Prizes:
    """The prizes of ``rows`` (the standings in rank order, as ``ranked_standings`` gives
    them); none until the tournament is finished."""
    if tournament.finished_at is None:
        return Prizes(places=tournament.prize_places)
    winners = [row for row in rows if row["rank"] <= tournament.prize_places]
    losers: list[StandingsRow] = []
    if tournament.prize_last_place:
        staying = [row for row in rows if not row["withdrawn"]]
        if staying:
            last = max(row["rank"] for row in staying)
            if last > tournament.prize_places:
                losers = [row for row in staying if row["rank"] == last]
    return Prizes(places=tournament.prize_places, winners=winners, losers=losers)
