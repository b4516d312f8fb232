"""Creating and changing tournaments."""

from __future__ import annotations

import datetime
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from scoring.standings import tie_break_order
from scoring.tables import table_split
from tournament.errors import refuse_when_finished
from tournament.models import Club, Tournament
from tournament.models.season import evenings_renumber_of
from tournament.tournament_file.importing import tournament_created

EDITABLE = (
    "name",
    "date",
    "place",
    "rounds_planned",
    "language",
    "public",
    "table_sizes",
    "prefer_size",
    "seating_balance",
    "clubs_apart_first_round",
    "tiebreaks",
    "confirmation_rule",
    "first_dealer_rule",
)
# What ranks and counts the standings: fixed while the tournament is finished (its standings are
# final, its final backup holds them); reopening it makes them editable again.
RANKING = ("tiebreaks", "confirmation_rule")


def _validate(fields: dict[str, Any]) -> None:
    # scoring refuses impossible sizes and tie-break orders; a bug in a form surfaces here.
    table_split(12, sizes=fields["table_sizes"], prefer=fields["prefer_size"])
    tie_break_order(fields["tiebreaks"])


@transaction.atomic
def tournament_create(
    *, club: Club, director: User, name: str, date: datetime.date | None, **fields: Any
) -> Tournament:
    """Create a tournament of ``club`` directed by ``director``."""
    fields = {"name": name, "date": date, **fields}
    _validate(fields)
    unknown = set(fields) - set(EDITABLE)
    if unknown:
        raise TypeError(f"tournament_create() got unknown fields {sorted(unknown)}")
    rest = {key: value for key, value in fields.items() if key not in ("name", "date")}
    tournament = tournament_created(club=club, name=name, date=date, **rest)
    tournament.directors.add(director)
    return tournament


@transaction.atomic
def tournament_update(*, tournament: Tournament, **fields: Any) -> Tournament:
    """Change a tournament's settings (its slug stays, so printed links keep working)."""
    unknown = set(fields) - set(EDITABLE)
    if unknown:
        raise TypeError(f"tournament_update() got unknown fields {sorted(unknown)}")
    # The row as it is now, locked: a finish (or a prize change) made meanwhile is kept, and
    # only the fields given are written.
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    _validate({**{f: getattr(locked, f) for f in EDITABLE}, **fields})
    if any(fields.get(f, getattr(locked, f)) != getattr(locked, f) for f in RANKING):
        refuse_when_finished(locked)
    moved = "date" in fields and fields["date"] != locked.date
    for name, value in fields.items():
        setattr(locked, name, value)
    locked.save(update_fields=list(fields))
    if moved:  # the evenings of a competition are numbered by date
        evenings_renumber_of(tournament=locked)
    for name, value in fields.items():  # the caller's copy says what was saved too
        setattr(tournament, name, value)
    return locked


@transaction.atomic
def tournament_prizes_set(*, tournament: Tournament, places: int, last_place: bool) -> Tournament:
    """How many places the final standings announce and whether the last place is named (the
    form keeps ``places`` from 0 to the number of players: anything else is a bug)."""
    if not 0 <= places <= tournament.players.count():
        raise ValueError(f"prize places {places} outside 0..the number of players")
    tournament.prize_places = places
    tournament.prize_last_place = last_place
    tournament.save(update_fields=["prize_places", "prize_last_place"])
    return tournament
