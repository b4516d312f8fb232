"""The published round's seating as the public pages show it: names as the club shows them
(``clubs.public_names``), a player without a name shown by their place ("Tafel 3, plaats 2")."""

from __future__ import annotations

from dataclasses import replace

from django.utils import translation

from tournament.clubs.public_names import PublicNames, tournament_public_names
from tournament.models import Seat, Tournament
from tournament.names import name_sort_key
from tournament.rounds.selectors import Place, PublicSeating, public_seating


def seating_for_public(
    tournament: Tournament, names: PublicNames | None = None
) -> tuple[PublicSeating, PublicNames]:
    """The seating with every name as it may be shown, named players by their shown names,
    then the others by table and seat; and the names used (for a search)."""
    names = names or tournament_public_names(tournament)
    seating = public_seating(tournament)
    round_ = seating["round"]
    if round_ is None:
        return seating, names
    seats = dict(Seat.objects.filter(round=round_).values_list("player_id", "position"))
    named: list[Place] = []
    unnamed: list[tuple[int, int, Place]] = []
    with translation.override(tournament.language):
        for place in seating["places"]:
            seat = seats.get(place.player, 0) + 1
            shown = replace(
                place,
                name=names.place(place.player, place.name, place.table, seat),
                club=names.club(place.player, place.club),
            )
            if names.hides(place.player):
                unnamed.append((place.table, seat, shown))
            else:
                named.append(shown)
    named.sort(key=lambda p: name_sort_key(p.name))
    places = named + [place for _table, _seat, place in sorted(unnamed, key=lambda u: u[:2])]
    return {**seating, "places": places}, names
