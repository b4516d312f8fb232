"""What the live public pages poll: the public standings and the published seating as one
compact JSON document, with a tag that changes exactly when what the pages show changes.

The document and its tag are kept in Django's cache beside the public standings, for the
server's part of ``PUBLIC_STANDINGS_SECONDS`` (``live_timing``: the pages' polls take the
rest), so a poll whose tag is still current is answered from the cache without computing
anything. The tag is a hash of the content without the time
it was computed: every server process (each may keep its own cache) gives the same tag for the
same standings, so a phone that reaches another process next time is not sent the same
document again.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

from tournament.models import Tournament
from tournament.standings.prizes import standings_prizes
from tournament.standings.public_seating import seating_for_public
from tournament.standings.tables import (
    RANKED_ROWS_FORMAT,
    PublicStandings,
    public_state_key,
    standings_for_public,
    standings_notes,
)

# How long the projector shows one page of a list, in seconds.
PAGE_SECONDS = 10
# How often the pages poll: never more often than every MIN_POLL_SECONDS, never less often than
# every POLL_SECONDS (a long PUBLIC_STANDINGS_SECONDS), each wait made POLL_JITTER longer or
# shorter at random (the phones of a room spread over the interval).
POLL_SECONDS = 20.0
MIN_POLL_SECONDS = 1.0
POLL_JITTER = 0.25
# PUBLIC_STANDINGS_SECONDS is the longest a saved change may take to show on a page left open.
# It is shared out as these parts of it: the standings the live document is made of are at most
# CACHE_SHARE of it old; a phone asks again at most PHONE_POLL_SHARE later, the projector at most
# SCREEN_POLL_SHARE later, and then turns to the page with the change (if it is not on the page
# shown) once the page shown has been up for CHANGE_SHARE. The rest is for the request itself.
CACHE_SHARE = 0.4
PHONE_POLL_SHARE = 0.5
SCREEN_POLL_SHARE = 0.3
CHANGE_SHARE = 0.2
SLACK_SHARE = 0.1


@dataclass(frozen=True, slots=True)
class LiveTiming:
    """How a live page keeps up, in seconds: ``cache_seconds`` (the server's part: how old the
    standings of the live document may be), ``poll_seconds`` and ``poll_jitter`` (the page asks
    again after ``poll_seconds`` times 1 ± ``poll_jitter``) and, on the projector,
    ``change_seconds`` (how long the page shown stays up before the one with a change)."""

    cache_seconds: float
    poll_seconds: float
    poll_jitter: float
    change_seconds: float

    @property
    def worst_case(self) -> float:
        """The longest a saved change takes to show on a page left open (without the request
        itself): kept just before the save, asked for at the end of the longest wait."""
        return self.cache_seconds + self.poll_seconds * (1 + self.poll_jitter) + self.change_seconds


def _poll_seconds(share: float) -> float:
    delay = settings.PUBLIC_STANDINGS_SECONDS * share / (1 + POLL_JITTER)
    return min(POLL_SECONDS, max(MIN_POLL_SECONDS, delay))


def _cache_seconds() -> float:
    """The server's part of the delay: what is left of it once the slowest page's part is
    taken (the polls' floor of MIN_POLL_SECONDS may leave nothing of a short delay)."""
    seconds = settings.PUBLIC_STANDINGS_SECONDS
    pages = max(
        _timing_without_cache("home").worst_case, _timing_without_cache("screen").worst_case
    )
    return max(0.0, min(seconds * CACHE_SHARE, seconds * (1 - SLACK_SHARE) - pages))


def _timing_without_cache(page: str) -> LiveTiming:
    seconds = settings.PUBLIC_STANDINGS_SECONDS
    if page == "screen":
        change = min(PAGE_SECONDS, seconds * CHANGE_SHARE)
        return LiveTiming(0.0, _poll_seconds(SCREEN_POLL_SHARE), POLL_JITTER, change)
    return LiveTiming(0.0, _poll_seconds(PHONE_POLL_SHARE), POLL_JITTER, 0.0)


def live_timing(page: str) -> LiveTiming:
    """How the live ``page`` ("home", "standings", "screen") keeps up, from
    ``PUBLIC_STANDINGS_SECONDS``: by default (10) the live document is at most 4 s old, a phone
    asks every 3-5 s, the projector every 1.8-3 s and turns to a change after 2 s, so a saved
    change shows within 9 s."""
    timing = _timing_without_cache(page)
    return LiveTiming(
        _cache_seconds(), timing.poll_seconds, timing.poll_jitter, timing.change_seconds
    )


@dataclass(frozen=True, slots=True)
class LiveState:
    """The live document as sent (``body``, UTF-8 JSON) and its entity tag (quoted)."""

    tag: str
    body: bytes


def live_cache_key(tournament: Tournament) -> str:
    """The key of a tournament's live document: what the public standings' key holds (whether
    unconfirmed sheets count and the confirmation rule change what they show)."""
    return (
        f"public-live:{RANKED_ROWS_FORMAT}:{tournament.pk}:{tournament.slug}"
        f":{int(tournament.count_unconfirmed)}"
        f":{tournament.confirmation_rule}:{public_state_key(tournament)}"
        f":{tournament.prize_places}:{int(tournament.prize_last_place)}"
        f":{tournament.club.name_display}"
    )


def live_cached_tag(tournament: Tournament) -> str | None:
    """The tag of the live document kept in the cache, if any (no query)."""
    kept = cache.get(live_cache_key(tournament))
    return kept.tag if kept is not None else None


def live_content(tournament: Tournament, standings: PublicStandings) -> dict[str, Any]:
    """The live document: what the public standings, the projector and "where do I sit" show.

    Words are left to the pages (they speak the visitor's language); the document holds
    numbers, names and flags only: ``final`` (the director finished the tournament) and the
    standings' state (``rounds_complete``, ``after_round``, ``in_play``, ``any_provisional``)
    are what a page writes its heading from, "Final standings" or "Standings after round 3
    (provisional)". ``computed_at`` and ``time`` (the clock time, as the pages print it) say
    when the standings were computed. ``tournament/formats/live-v1.schema.json`` describes it.
    """
    seating, _names = seating_for_public(tournament)
    round_ = seating["round"]
    state = standings.state
    prizes = standings_prizes(tournament, standings.rows)
    return {
        "final": state.final,
        "computed_at": standings.computed_at.isoformat(),
        "time": timezone.localtime(standings.computed_at).strftime("%H:%M"),
        "standings": {
            "rounds": list(standings.rounds),
            "rounds_complete": list(state.rounds_complete),
            "after_round": state.after_round,
            "in_play": list(state.in_play),
            "prize_places": tournament.prize_places,
            "rows": [
                {
                    "rank": row["rank"],
                    "player": row["player_id"],
                    "name": row["name"],
                    "tournament_points": row["tournament_points"],
                    "bollen": row["bollen"],
                    "withdrawn": row["withdrawn"],
                    "guest": row["guest"],
                    "provisional": row["provisional"],
                    "per_round_cells": [list(cell) for cell in row["per_round_cells"]],
                    "prize": prizes.wins(row),
                    "loser": prizes.loses(row),
                }
                for row in standings.rows
            ],
            **standings_notes(tournament, standings.rows),
        },
        "seating": {
            "round": round_.number if round_ is not None else None,
            "over": seating["over"],
            "finished": seating["finished"],
            "places": [
                {"player": p.player, "name": p.name, "club": p.club, "table": p.table}
                for p in seating["places"]
            ],
        },
    }


# Not part of the tag (see the module's docstring).
TIME_KEYS = ("computed_at", "time")


def _encoded(content: dict[str, Any]) -> bytes:
    return json.dumps(content, ensure_ascii=False, separators=(",", ":")).encode()


def live_state(tournament: Tournament) -> LiveState:
    """The live document and its tag: from the cache while its standings are at most the
    server's part of the delay old (``LiveTiming.cache_seconds``), else computed (and kept for
    the rest of that part)."""
    seconds = _cache_seconds()
    key = live_cache_key(tournament)
    if seconds > 0:
        kept: LiveState | None = cache.get(key)
        if kept is not None:
            return kept
    standings = standings_for_public(tournament, max_age=seconds)
    content = live_content(tournament, standings)
    timeless = {name: value for name, value in content.items() if name not in TIME_KEYS}
    state = LiveState(
        tag='"' + hashlib.sha256(_encoded(timeless)).hexdigest()[:32] + '"',
        body=_encoded(content),
    )
    if seconds > 0:
        # Kept until the standings it was made of are the server's part of the delay old.
        remaining = seconds - (timezone.now() - standings.computed_at).total_seconds()
        if remaining > 0:
            cache.set(key, state, remaining)
    return state
