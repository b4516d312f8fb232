"""What every page's header shows of the club: the current club's name and, for an account
with roles in several clubs, the switch between them (asked only when a page shows them)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from tournament.clubs.current import account_clubs, current_club
from tournament.models import Club


def club(request: HttpRequest) -> dict[str, Any]:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}

    def others() -> list[Club]:
        clubs = account_clubs(request)
        return clubs if len(clubs) > 1 else []

    return {
        "header_club": SimpleLazyObject(lambda: current_club(request) or ""),
        "header_clubs": SimpleLazyObject(others),
    }
