"""Evenings are numbered by date: a competition's evenings are 1, 2, 3 ... in the order of their
tournaments' dates, then of when the tournaments were made (``models.season.evening_order``).
Every change that adds, takes out or puts back an evening renumbers (``evenings_renumber``), and
so does a change of a tournament's date (``tournaments.services.tournament_update``, through
``evenings_renumber_of``): "evening 4" is never listed after a later date.
"""

from __future__ import annotations

from django.db.models import Max

from tournament.models import Competition, CompetitionEvening, Tournament
from tournament.models.season import evening_order, evenings_renumber, evenings_renumber_of

__all__ = ["evening_attach", "evening_order", "evenings_renumber", "evenings_renumber_of"]


def evening_attach(*, competition: Competition, tournament: Tournament) -> CompetitionEvening:
    """Make ``tournament`` an evening of ``competition`` (checked by the caller) and renumber;
    returns the evening with its number by date."""
    last = competition.evenings.aggregate(n=Max("number"))["n"] or 0
    evening = CompetitionEvening.objects.create(
        competition=competition, tournament=tournament, number=last + 1
    )
    for numbered in evenings_renumber(competition=competition):
        if numbered.pk == evening.pk:
            return numbered
    raise AssertionError("the evening just made is one of the competition's")
