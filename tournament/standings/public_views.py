"""The public standings, the projector and the live document they poll (no sign-in)."""

from __future__ import annotations

import datetime

from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.http import parse_etags
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from tournament.models import Round, Tournament
from tournament.permissions import public_tournament
from tournament.standings import live
from tournament.standings.live import live_cached_tag, live_state
from tournament.standings.prizes import standings_prizes
from tournament.standings.public_seating import seating_for_public
from tournament.standings.selectors import StandingsState
from tournament.standings.tables import standings_for_public, standings_notes


def live_page_words(tournament: Tournament | None = None) -> dict[str, str]:
    """The words live.js writes, in the page's language (``%(name)s`` filled in by it).

    The headings follow ``StandingsState.title()`` word for word; the final one with the
    tournament's date is written here (a tournament without a date: today, the day it will most
    likely be finished)."""
    final_title = ""
    if tournament is not None:
        final_title = StandingsState(
            finished_at=timezone.now(),
            rounds_complete=(),
            in_play=(),
            any_provisional=False,
            date=tournament.date or timezone.localdate(),
        ).title()
    return {
        "title_final": final_title,
        "title_none": _("Standings"),
        "title_playing": _("Standings, round %(playing)s being played"),
        "title_after": _("Standings after round %(round)s"),
        "title_after_playing": _("Standings after round %(round)s, round %(playing)s being played"),
        "title_provisional": _("%(title)s (provisional)"),
        "loser": _("the loser"),
        "prize": _("Prize %(place)s"),
        "updated": _("Updated at %(time)s"),
        "offline": _("No connection: last updated at %(time)s; trying again."),
        "page": _("Page %(page)s of %(pages)s"),
        "withdrawn": _("withdrawn"),
        "guest": _("guest"),
        "legend": _("provisional: sheet not complete yet or not confirmed"),
        "round": _("R%(number)s"),
        "seating_round": _("Round %(number)s: tables"),
        "home_round": _("Where do I sit in round %(number)s?"),
        "finished": _("The tournament is over"),
        "finished_text": _("Thank you for playing. The final standings:"),
        "round_over": _("Round %(number)s is over"),
        "round_over_text": _(
            "The seating of the next round shows here as soon as it is published. The "
            "standings so far:"
        ),
        "final_standings": _("Final standings"),
        "standings": _("Standings"),
    }


def live_config(
    slug: str,
    page: str,
    *,
    since: datetime.datetime | None = None,
    tournament: Tournament | None = None,
    **more: object,
) -> dict[str, object]:
    """What live.js needs on ``page`` (a JSON data block: no inline script); ``since`` is when
    what the page shows was computed (default: now); ``tournament``: the page writes the
    standings' heading (its final one has the tournament's date)."""
    timing = live.live_timing(page)
    return {
        "page": page,
        "url": reverse("public_live", args=[slug]),
        "player_url": reverse("public_player", args=[slug, 0]),
        "poll_seconds": timing.poll_seconds,
        "poll_jitter": timing.poll_jitter,
        "change_seconds": timing.change_seconds,
        "page_seconds": live.PAGE_SECONDS,
        "time": timezone.localtime(since or timezone.now()).strftime("%H:%M"),
        "words": live_page_words(tournament),
        **more,
    }


def public_standings(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = public_tournament(slug)
    standings = standings_for_public(tournament)
    return render(
        request,
        "public/standings.html",
        {
            "tournament": tournament,
            "rows": standings.rows,
            "rounds": standings.rounds,
            "computed_at": standings.computed_at,
            "state": standings.state,
            "link_players": True,  # each name opens the player's own page
            "live": live_config(
                slug,
                "standings",
                since=standings.computed_at,
                tournament=tournament,
                link_players=True,
            ),
            **standings_notes(tournament, standings.rows),
        },
    )


def done_playing(tournament: Tournament, state: StandingsState, round_: Round | None) -> bool:
    """Whether every round is played: the planned rounds are all complete and no round was
    published after them (``round_``: the latest published). The projector then shows the
    standings across the whole width, without the last round's tables (live.js: the same)."""
    after = state.after_round
    return after >= tournament.rounds_planned and (round_.number if round_ else 0) <= after


# How many prize winners the projector's final view shows large (more prize places: the rest
# are in the list beside them).
PODIUM_ROWS = 8


def public_screen(request: HttpRequest, slug: str) -> HttpResponse:
    """The projector: seating and standings in large type, paging through everyone and
    updating itself from the live document. Once the tournament is finished: the final view,
    the prize winners large beside everyone's standings, no seating."""
    tournament = public_tournament(slug)
    standings = standings_for_public(tournament)
    rows = standings.rows
    prizes = standings_prizes(tournament, rows)
    seating, _names = seating_for_public(tournament)
    with translation.override(tournament.language):
        return render(
            request,
            "public/screen.html",
            {
                "tournament": tournament,
                "rows": rows,
                "rounds": standings.rounds,
                "computed_at": standings.computed_at,
                "state": standings.state,
                "prizes": prizes,
                "podium": prizes.winners[:PODIUM_ROWS],
                "live": live_config(
                    slug,
                    "screen",
                    since=standings.computed_at,
                    tournament=tournament,
                    podium_rows=PODIUM_ROWS,
                    rounds_planned=tournament.rounds_planned,
                ),
                "done_playing": done_playing(tournament, standings.state, seating["round"]),
                **standings_notes(tournament, rows),
                **seating,
            },
        )


def _matches(asked: list[str], tag: str) -> bool:
    """If-None-Match compares weakly: ``W/"x"`` matches ``"x"``; ``*`` matches any tag."""
    return "*" in asked or tag in (t.removeprefix("W/") for t in asked)


@require_safe
def public_live(request: HttpRequest, slug: str) -> HttpResponse:
    """The live document with its ``ETag``; 304 without a body when the tag sent is current.

    A current tag kept in the cache is answered before anything is computed (the tournament's
    row is the only query)."""
    tournament = public_tournament(slug)
    asked = parse_etags(request.headers.get("If-None-Match", ""))
    kept = live_cached_tag(tournament) if asked else None
    if kept is not None and _matches(asked, kept):
        return _not_modified(kept)
    state = live_state(tournament)
    if asked and _matches(asked, state.tag):
        return _not_modified(state.tag)
    response = HttpResponse(state.body, content_type="application/json")
    response.headers["ETag"] = state.tag
    response.headers["Cache-Control"] = "no-cache"
    return response


def _not_modified(tag: str) -> HttpResponse:
    response = HttpResponseNotModified()
    response.headers["ETag"] = tag
    response.headers["Cache-Control"] = "no-cache"
    return response
