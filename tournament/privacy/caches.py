"""Forget what the caches keep of a tournament's names, once a name may no longer be shown
(consent withdrawn, a member erased): erased data is gone, not hidden for a while."""

from __future__ import annotations

from collections.abc import Iterable

from django.core.cache import cache

from tournament.models import Tournament
from tournament.share.documents import shared_result_cache_keys
from tournament.standings.live import live_cache_key
from tournament.standings.tables import public_standings_key, standings_key


def tournament_cache_keys(tournament: Tournament) -> list[str]:
    """The keys under which the caches keep what names the tournament's players."""
    return [
        standings_key(tournament),
        public_standings_key(tournament),
        live_cache_key(tournament),
        *shared_result_cache_keys(tournament),
    ]


def cache_keys_forget(keys: Iterable[str]) -> None:
    cache.delete_many(list(keys))
