"""The standings as django-tables2 tables, for the director and the public."""

from __future__ import annotations

import datetime
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TypedDict

import django_tables2 as tables
from django.conf import settings
from django.core.cache import cache
from django.db.models import Count, Exists, Max, OuterRef, Q, Subquery, Sum
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from tournament.clubs.public_names import tournament_public_names
from tournament.models import (
    CompetitionEvening,
    Player,
    Seat,
    SheetConfirmation,
    SheetScore,
    SheetVersion,
    Tournament,
)
from tournament.names import name_sort_key
from tournament.sheets.confirmations import tournament_counts_every_sheet
from tournament.standings.selectors import Standings, StandingsState, tournament_standings

# A row of the standings table: plain values (they are cached), by name: ``url``, ``rank``,
# ``player_id``, ``name``, ``name_key``, ``club``, the totals, ``withdrawn``, ``guest``, the
# provisional marks, ``per_round_cells`` and ``round_<n>`` for every round counted (so not a
# TypedDict).
StandingsRow = dict[str, Any]


def evening_guests(tournament: Tournament) -> frozenset[int]:
    """The players marked as guests in the standings of an evening of a competition: a guest
    of the club (``Member.guest``) or tied to nobody in the register. None in a tournament
    that is no competition's evening: there everyone simply plays."""
    if not CompetitionEvening.objects.filter(tournament=tournament).exists():
        return frozenset()
    return frozenset(
        Player.objects.filter(tournament=tournament)
        .filter(Q(member=None) | Q(member__guest=True))
        .values_list("pk", flat=True)
    )


def standings_table_rows(
    tournament: Tournament,
    standings: Standings | None = None,
    guests: frozenset[int] | None = None,
) -> tuple[list[StandingsRow], tuple[int, ...]]:
    """One dict per player for the standings table, and the rounds that count so far (from
    ``standings`` and ``guests`` when the caller has read them already)."""
    standings = standings or tournament_standings(tournament)
    guests = evening_guests(tournament) if guests is None else guests
    # The player page's address with the player's id in it, made once for all rows.
    before, after = reverse("player_detail", args=[tournament.slug, 0]).rsplit("/0/", 1)
    rows: list[StandingsRow] = []
    for row in standings.rows:
        player = standings.players[row.player]
        values: StandingsRow = {
            "url": f"{before}/{player.pk}/{after}",
            "rank": row.rank,
            "player_id": player.pk,
            "name": player.name,
            # Sorting by name sorts as Dutch lists do ("van der Meer" under M).
            "name_key": name_sort_key(player.name),
            "club": player.club,
            "tournament_points": row.tournament_points,
            "bollen": row.bollen,
            "correct": row.correct,
            "points": row.points,
            "withdrawn": player.withdrawn_round is not None,
            "guest": player.pk in guests,
            # (score, provisional) per round: a score from a sheet not confirmed yet.
            "per_round_cells": [
                (row.per_round.get(n), standings.is_provisional(row.player, n))
                for n in standings.rounds_counted
            ],
            "provisional": standings.is_provisional(row.player),
            "provisional_rounds": {
                n for n in standings.rounds_counted if standings.is_provisional(row.player, n)
            },
        }
        for number in standings.rounds_counted:
            values[f"round_{number}"] = row.per_round.get(number)
        rows.append(values)
    return rows, standings.rounds_counted


@dataclass(frozen=True, slots=True)
class RankedStandings:
    """The standings table's rows (plain values, no model instances), the rounds that count,
    and how many unconfirmed sheets are left out: what the standings pages draw."""

    rows: list[StandingsRow]
    rounds: tuple[int, ...]
    left_out: int
    state: StandingsState


# Part of every cache key: a change to what the rows hold changes it, so that servers running
# different releases against one shared cache never read each other's rows.
RANKED_ROWS_FORMAT = 4


def _tally(
    model: type[Seat] | type[SheetVersion] | type[SheetConfirmation] | type[SheetScore],
    path: str,
    *,
    versions: bool = False,
) -> list[Subquery]:
    """How many rows of ``model`` belong to the tournament, their highest id (and the sum of
    their versions): subqueries for one query."""
    rows = model.objects.filter(**{path: OuterRef("pk")}).order_by().values(path)
    tallies = [
        Subquery(rows.annotate(n=Count("pk")).values("n")),
        Subquery(rows.annotate(n=Max("pk")).values("n")),
    ]
    if versions:
        tallies.append(Subquery(rows.annotate(n=Sum("version")).values("n")))
    return tallies


def standings_key(tournament: Tournament) -> str:
    """A key that changes whenever the standings may (``_standings_key_and_guests``)."""
    return _standings_key_and_guests(tournament)[0]


def _standings_key_and_guests(tournament: Tournament) -> tuple[str, frozenset[int]]:
    """A key that changes whenever the standings may: read from the database (two queries),
    never from this process, so every server computes the same key for the same standings.

    Every save, restore and import of a sheet adds a ``SheetVersion`` or a ``SheetScore`` with a
    new id or a higher version; seating, swaps and withdrawals add or delete seats; confirming
    adds or deletes a ``SheetConfirmation``; ids are never used again (SQLite AUTOINCREMENT,
    PostgreSQL sequences). So the count and highest id of those rows, with the scores' versions,
    change with them. Players are edited in place (names, clubs, withdrawals, their member and
    whether that member is a guest): their values themselves are part of the key, as are the
    tournament's settings that rank and count and whether it is an evening of a competition.
    Read on the way: the players marked as guests (``evening_guests``), without a query more.
    """
    tallies = [
        *_tally(Seat, "round__tournament"),
        *_tally(SheetVersion, "table__round__tournament"),
        *_tally(SheetConfirmation, "version__table__round__tournament"),
        *_tally(SheetScore, "table__round__tournament", versions=True),
    ]
    tallies.append(Exists(CompetitionEvening.objects.filter(tournament=OuterRef("pk"))))
    (counts,) = (
        Tournament.objects.filter(pk=tournament.pk)
        .annotate(**{f"t{i}": tally for i, tally in enumerate(tallies)})
        .values_list(*(f"t{i}" for i in range(len(tallies))))
    )
    players = list(
        Player.objects.filter(tournament=tournament)
        .order_by("pk")
        .values_list(
            "pk", "name", "club", "joined_round", "withdrawn_round", "member_id", "member__guest"
        )
    )
    facts = (
        RANKED_ROWS_FORMAT,
        tournament.pk,
        tournament.slug,
        tournament.tiebreaks,
        tournament.count_unconfirmed,
        tournament.confirmation_rule,
        tournament.finished_at,
        tournament.date,
        counts,
        players,
    )
    digest = hashlib.blake2b(repr(facts).encode(), digest_size=20).hexdigest()
    evening = counts[-1]
    guests = frozenset(
        pk for pk, *_values, member, guest in players if evening and (member is None or guest)
    )
    return f"standings:{tournament.pk}:{digest}", guests


def ranked_standings(tournament: Tournament) -> RankedStandings:
    """The standings rows, computed once for each state of the tournament's sheets, seats,
    confirmations and players, and then read from the cache (shared by every server process
    when ``CACHES`` is the database cache): a warm standings page only draws them.

    The key says what the rows were computed from (``standings_key``), so a cached entry is
    never out of date; nothing invalidates it, an old one is simply never asked for again.
    """
    key, guests = _standings_key_and_guests(tournament)
    found: RankedStandings | None = cache.get(key)
    if found is not None:
        return found
    standings = tournament_standings(tournament)
    rows, rounds = standings_table_rows(tournament, standings, guests)
    result = RankedStandings(
        rows=rows, rounds=rounds, left_out=standings.left_out, state=standings.state
    )
    cache.set(key, result, settings.STANDINGS_CACHE_SECONDS)
    return result


# What the public pages show of a standings row (no model instances: the rows are cached).
PUBLIC_ROW_KEYS = (
    "rank",
    "player_id",  # the player's public page
    "name",
    "tournament_points",
    "bollen",
    "withdrawn",
    "guest",
    "provisional",
    "per_round_cells",
)


@dataclass(frozen=True, slots=True)
class PublicStandings:
    """The standings as the public pages show them, and when they were computed."""

    rows: list[StandingsRow]
    rounds: tuple[int, ...]
    computed_at: datetime.datetime
    state: StandingsState


def standings_for_public(
    tournament: Tournament, *, max_age: float | None = None
) -> PublicStandings:
    """The standings for the public page and the projector, computed at most once every
    ``PUBLIC_STANDINGS_SECONDS`` per server process; kept ones older than ``max_age`` seconds
    are computed afresh (the live document's share of that delay, ``standings.live``).

    Every player's phone reloads this page during a round, and computing it scores every sheet
    of the tournament; a few seconds' delay on the public page keeps the table links' saves
    fast. The director's own standings are always computed afresh. Changing whether unconfirmed
    sheets count, or the confirmation rule, shows at once (both are part of the key).
    """
    seconds = settings.PUBLIC_STANDINGS_SECONDS
    key = public_standings_key(tournament)
    if seconds > 0:
        cached: PublicStandings | None = cache.get(key)
        if cached is not None and (
            max_age is None or (timezone.now() - cached.computed_at).total_seconds() <= max_age
        ):
            return cached
    ranked = ranked_standings(tournament)
    names = tournament_public_names(tournament)
    with translation.override(tournament.language):
        rows = [
            {
                **{name: row[name] for name in PUBLIC_ROW_KEYS},
                "name": names.name(row["player_id"], row["name"]),
            }
            for row in ranked.rows
        ]
    result = PublicStandings(
        rows=rows,
        rounds=ranked.rounds,
        computed_at=timezone.now(),
        state=ranked.state,
    )
    if seconds > 0:
        cache.set(key, result, seconds)
    return result


def public_standings_key(tournament: Tournament) -> str:
    """The key of the public standings: what changes what they show at once (the club's
    choice of names too; a change of consent clears the key, ``privacy.services``)."""
    return (
        f"public-standings:{RANKED_ROWS_FORMAT}:{tournament.pk}:{tournament.slug}"
        f":{int(tournament.count_unconfirmed)}"
        f":{tournament.confirmation_rule}:{public_state_key(tournament)}"
        f":{tournament.club.name_display}"
    )


def public_state_key(tournament: Tournament) -> str:
    """The part of the public pages' cache keys that changes when the tournament is finished
    or reopened: those show at once, as a change of the confirmation rule does."""
    finished = tournament.finished_at
    return finished.isoformat() if finished is not None else "open"


class StandingsNotes(TypedDict):
    count_unconfirmed: bool
    confirms_sheets: bool
    any_provisional: bool


def standings_notes(tournament: Tournament, rows: Sequence[StandingsRow]) -> StandingsNotes:
    """What the standings pages say under the table: whether some scores are provisional and
    whether unconfirmed sheets count (every sheet does when the tournament confirms none)."""
    return {
        "count_unconfirmed": tournament_counts_every_sheet(tournament),
        "confirms_sheets": tournament.confirmation_rule != Tournament.ConfirmationRule.NONE,
        "any_provisional": any(row["provisional"] for row in rows),
    }


class StandingsTable(tables.Table):  # type: ignore[misc]  # django-tables2 has no types
    """Sortable standings: rank (ties shared), name, club, points per round, totals.

    The table orders the rows and draws the headers; ``tournament/_standings_table.html``
    draws the cells, so keep its columns in this sequence."""

    rank = tables.Column(verbose_name=_("Rank"))
    name = tables.Column(verbose_name=_("Name"), order_by=("name_key",))
    club = tables.Column(verbose_name=_("Club"))
    tournament_points = tables.Column(verbose_name=_("Total"), attrs={"th": {"class": "num"}})
    bollen = tables.Column(verbose_name=_("Bollen"))
    correct = tables.Column(verbose_name=_("Correct"))

    class Meta:
        attrs = {"class": "data standings"}
        orderable = True
        template_name = "django_tables2/table.html"
        # The total right after the name: on a phone it is visible without scrolling sideways.
        sequence = ("rank", "name", "tournament_points", "bollen", "correct", "...", "club")

    def __init__(
        self, data: Sequence[StandingsRow], *, rounds: Sequence[int], **kwargs: Any
    ) -> None:
        extra = [
            (
                f"round_{number}",
                tables.Column(
                    verbose_name=_("R%(number)s") % {"number": number},
                    default="\N{EN DASH}",
                    attrs={"th": {"class": "num"}},
                ),
            )
            for number in rounds
        ]
        super().__init__(data, extra_columns=extra, **kwargs)
