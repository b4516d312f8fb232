"""What the live public pages poll: the public standings and the published seating as one
compact JSON document, with a tag that changes exactly when what the pages show changes.

The document and its tag are kept in Django's cache beside the public standings, for as long
as those are (``PUBLIC_STANDINGS_SECONDS``), so a poll whose tag is still current is answered
from the cache without computing anything. The tag is a hash of the content without the time
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
from tournament.rounds.selectors import public_seating
from tournament.standings.prizes import standings_prizes
from tournament.standings.tables import (
    RANKED_ROWS_FORMAT,
    PublicStandings,
    public_state_key,
    standings_for_public,
    standings_notes,
)

# How often the pages poll, in seconds (the script adds jitter and backs off when hidden), and
# how long the projector shows one page of a list.
POLL_SECONDS = 20
PAGE_SECONDS = 10


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
    seating = public_seating(tournament)
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
    """The live document and its tag: from the cache while the public standings are kept,
    else computed (and kept for the rest of the standings' delay)."""
    seconds = settings.PUBLIC_STANDINGS_SECONDS
    key = live_cache_key(tournament)
    if seconds > 0:
        kept: LiveState | None = cache.get(key)
        if kept is not None:
            return kept
    standings = standings_for_public(tournament)
    content = live_content(tournament, standings)
    timeless = {name: value for name, value in content.items() if name not in TIME_KEYS}
    state = LiveState(
        tag='"' + hashlib.sha256(_encoded(timeless)).hexdigest()[:32] + '"',
        body=_encoded(content),
    )
    if seconds > 0:
        # Kept no longer than the standings it was made of: the document is never older than
        # the public standings page.
        remaining = seconds - (timezone.now() - standings.computed_at).total_seconds()
        if remaining > 0:
            cache.set(key, state, remaining)
    return state
