"""django-tables2 tables of the site."""

from __future__ import annotations

from collections.abc import Sequence

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from tournament.adapter import tournament_standings
from tournament.models import Tournament


def standings_table_rows(tournament: Tournament) -> tuple[list[dict], tuple[int, ...]]:
    """One dict per player for the standings table, and the rounds that count so far."""
    standings = tournament_standings(tournament)
    rows = []
    for row in standings.rows:
        player = standings.players[row.player]
        values = {
            "rank": row.rank,
            "player": player,
            "name": player.name,
            "club": player.club,
            "tournament_points": row.tournament_points,
            "bollen": row.bollen,
            "correct": row.correct,
            "points": row.points,
            "withdrawn": player.withdrawn_round is not None,
            "per_round_values": [row.per_round.get(n) for n in standings.rounds_counted],
        }
        for number in standings.rounds_counted:
            values[f"round_{number}"] = row.per_round.get(number)
        rows.append(values)
    return rows, standings.rounds_counted


class PlayerNameColumn(tables.Column):
    def render(self, value, record):
        url = reverse("player_detail", args=[record["player"].tournament.slug, record["player"].pk])
        withdrawn = format_html(' <span class="muted">({})</span>', _("withdrawn"))
        return format_html(
            '<a href="{}">{}</a>{}', url, value, withdrawn if record["withdrawn"] else ""
        )


class StandingsTable(tables.Table):
    """Sortable standings: rank (ties shared), name, club, points per round, totals."""

    rank = tables.Column(verbose_name=_("Rank"), attrs={"td": {"class": "num"}})
    name = PlayerNameColumn(verbose_name=_("Name"))
    club = tables.Column(verbose_name=_("Club"))
    tournament_points = tables.Column(
        verbose_name=_("Total"), attrs={"td": {"class": "num total"}, "th": {"class": "num"}}
    )
    bollen = tables.Column(verbose_name=_("Bollen"), attrs={"td": {"class": "num"}})
    correct = tables.Column(verbose_name=_("Correct"), attrs={"td": {"class": "num"}})

    class Meta:
        attrs = {"class": "data standings"}
        orderable = True
        template_name = "django_tables2/table.html"
        sequence = ("rank", "name", "club", "...", "tournament_points", "bollen", "correct")

    def __init__(self, data, *, rounds: Sequence[int], **kwargs) -> None:
        extra = [
            (
                f"round_{number}",
                tables.Column(
                    verbose_name=_("R%(number)s") % {"number": number},
                    default="\N{EN DASH}",
                    attrs={"td": {"class": "num"}, "th": {"class": "num"}},
                ),
            )
            for number in rounds
        ]
        super().__init__(data, extra_columns=extra, **kwargs)
