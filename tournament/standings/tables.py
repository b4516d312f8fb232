"""The standings as django-tables2 tables, for the director and the public."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass

import django_tables2 as tables
from django.conf import settings
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournament.adapter import Standings, tournament_standings
from tournament.models import Tournament
from tournament.names import name_sort_key
from tournament.sheets.confirmations import tournament_counts_every_sheet


def standings_table_rows(
    tournament: Tournament, standings: Standings | None = None
) -> tuple[list[dict], tuple[int, ...]]:
    """One dict per player for the standings table, and the rounds that count so far (from
    ``standings`` when the caller has computed them already)."""
    standings = standings or tournament_standings(tournament)
    # The player page's address with the player's id in it, made once for all rows.
    before, after = reverse("player_detail", args=[tournament.slug, 0]).rsplit("/0/", 1)
    rows = []
    for row in standings.rows:
        player = standings.players[row.player]
        values = {
            "url": f"{before}/{player.pk}/{after}",
            "rank": row.rank,
            "player": player,
            "name": player.name,
            # Sorting by name sorts as Dutch lists do ("van der Meer" under M).
            "name_key": name_sort_key(player.name),
            "club": player.club,
            "tournament_points": row.tournament_points,
            "bollen": row.bollen,
            "correct": row.correct,
            "points": row.points,
            "withdrawn": player.withdrawn_round is not None,
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


# What the public pages show of a standings row (no model instances: the rows are cached).
PUBLIC_ROW_KEYS = (
    "rank",
    "name",
    "tournament_points",
    "bollen",
    "withdrawn",
    "provisional",
    "per_round_cells",
)


@dataclass(frozen=True, slots=True)
class PublicStandings:
    """The standings as the public pages show them, and when they were computed."""

    rows: list[dict]
    rounds: tuple[int, ...]
    computed_at: datetime.datetime


def standings_for_public(tournament: Tournament) -> PublicStandings:
    """The standings for the public page and the projector, computed at most once every
    ``PUBLIC_STANDINGS_SECONDS`` per server process.

    Every player's phone reloads this page during a round, and computing it scores every sheet
    of the tournament; a few seconds' delay on the public page keeps the table links' saves
    fast. The director's own standings are always computed afresh. Changing whether unconfirmed
    sheets count, or the confirmation rule, shows at once (both are part of the key).
    """
    seconds = settings.PUBLIC_STANDINGS_SECONDS
    key = (
        f"public-standings:{tournament.pk}:{tournament.slug}:{int(tournament.count_unconfirmed)}"
        f":{tournament.confirmation_rule}"
    )
    if seconds > 0:
        cached = cache.get(key)
        if cached is not None:
            return cached
    rows, rounds = standings_table_rows(tournament)
    result = PublicStandings(
        rows=[{name: row[name] for name in PUBLIC_ROW_KEYS} for row in rows],
        rounds=rounds,
        computed_at=timezone.now(),
    )
    if seconds > 0:
        cache.set(key, result, seconds)
    return result


def standings_notes(tournament: Tournament, rows: Sequence[dict]) -> dict:
    """What the standings pages say under the table: whether some scores are provisional and
    whether unconfirmed sheets count (every sheet does when the tournament confirms none)."""
    return {
        "count_unconfirmed": tournament_counts_every_sheet(tournament),
        "confirms_sheets": tournament.confirmation_rule != Tournament.ConfirmationRule.NONE,
        "any_provisional": any(row["provisional"] for row in rows),
    }


class StandingsTable(tables.Table):
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

    def __init__(self, data, *, rounds: Sequence[int], **kwargs) -> None:
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
