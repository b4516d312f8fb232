"""The shared result as one value, and as plain text: the tournament, the heading ("Final
standings", or before the end the provisional state), the prizes once final, everyone's place."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.formats import date_format
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament.clubs.public_names import tournament_public_names
from tournament.models import Tournament
from tournament.standings.prizes import standings_prizes
from tournament.standings.tables import StandingsRow, ranked_standings


@dataclass(frozen=True, slots=True)
class ResultLine:
    """One player's place: ``shared`` when another player has the same rank; ``prize`` the
    prize's words ("Prize 1", "the loser") once the tournament is finished."""

    rank: int
    shared: bool
    name: str
    club: str
    points: int
    provisional: bool
    withdrawn: bool
    prize: str = ""

    def who(self) -> str:
        """ "Name (club)", with "(withdrawn)" for a player who withdrew."""
        text = f"{self.name} ({self.club})" if self.club else self.name
        return f"{text} ({_('withdrawn')})" if self.withdrawn else text


@dataclass(frozen=True, slots=True)
class SharedResult:
    """What every form of the shared result says, in the active language.

    ``final``: the tournament is finished. Before that ``title`` is the standings' state
    ("Standings after round 3 (provisional)") and nobody has a prize."""

    name: str
    date: str
    place: str
    final: bool
    title: str
    lines: list[ResultLine]
    winners: list[ResultLine]
    losers: list[ResultLine]
    prize_places: int
    any_provisional: bool


def shared_result(tournament: Tournament) -> SharedResult:
    """The tournament's result from its (cached) standings, in the active language, with names
    as the club shows them in public (``clubs.public_names``): the result is shared."""
    ranked = ranked_standings(tournament)
    names = tournament_public_names(tournament)
    prizes = standings_prizes(tournament, ranked.rows)
    labels = prizes.labels()
    ranks: dict[int, int] = {}
    for row in ranked.rows:
        ranks[row["rank"]] = ranks.get(row["rank"], 0) + 1

    def line(row: StandingsRow) -> ResultLine:
        return ResultLine(
            rank=row["rank"],
            shared=ranks[row["rank"]] > 1,
            name=names.name(row["player_id"], row["name"]),
            club=names.club(row["player_id"], row["club"]),
            points=row["tournament_points"],
            provisional=row["provisional"],
            withdrawn=row["withdrawn"],
            prize=labels.get(row["player_id"], ""),
        )

    lines = [line(row) for row in ranked.rows]
    by_player = {row["player_id"]: entry for row, entry in zip(ranked.rows, lines, strict=True)}
    state = ranked.state
    return SharedResult(
        name=tournament.name,
        date=date_format(tournament.date, "DATE_FORMAT") if tournament.date else "",
        place=tournament.place,
        final=state.final,
        title=_("Final standings") if state.final else state.title(),
        lines=lines,
        winners=[by_player[row["player_id"]] for row in prizes.winners],
        losers=[by_player[row["player_id"]] for row in prizes.losers],
        prize_places=tournament.prize_places,
        any_provisional=any(entry.provisional for entry in lines),
    )


def points_text(points: int) -> str:
    return ngettext("%(points)s point", "%(points)s points", abs(points)) % {"points": points}


def result_text(result: SharedResult) -> str:
    """The result as plain text, ready to paste into WhatsApp or an e-mail: the tournament, its
    date and place, the heading, the prizes (once final), then "1. Name (club) 61" for everyone.
    Provisional totals carry a ``*`` and the legend says why."""
    out = [result.name]
    when = ", ".join(part for part in (result.date, result.place) if part)
    if when:
        out.append(when)
    out += ["", result.title]
    if not result.final:
        out.append(_("This is not the final result yet: the tournament has not been finished."))
    if result.winners or result.losers:
        out.append("")
        out += [f"{w.prize}: {w.who()}, {points_text(w.points)}" for w in result.winners]
        out += [f"{capfirst(w.prize)}: {w.who()}, {points_text(w.points)}" for w in result.losers]
    out.append("")
    out += [
        f"{entry.rank}. {entry.who()} {entry.points}{'*' if entry.provisional else ''}"
        for entry in result.lines
    ]
    if result.any_provisional:
        out += ["", "* " + _("provisional: sheet not complete yet or not confirmed")]
    return "\n".join(out) + "\n"
