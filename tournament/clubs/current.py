"""Which club a request works in: for the pages of a club as a whole (the front page's buttons,
the register, the competitions, a new tournament, the club's settings and people).

Pages of one tournament, competition or member take the club from that object; these pages
have no object, so they work in the *current club*: the one club of an account with a role in
one club (every laptop), or the one it chose in the header's club switch (kept in the session),
else the first by name. A link from a tournament's page names the tournament's club
(``?club=<slug>``), which becomes the current one. The forms of these pages carry the club they
were shown for (``CLUB_FIELD``), so a form sent after switching clubs in another tab is refused
instead of landing in the other club.
"""

from __future__ import annotations

from django.http import HttpRequest

from tournament.clubs.roles import clubs_of
from tournament.models import Club

SESSION_KEY = "bollen_club"
CLUB_FIELD = "club_slug"
_REQUEST_CACHE = "_bollen_current_club"
_CLUBS_CACHE = "_bollen_clubs"
# An account with roles in more clubs than this (a superuser of a large hosted site) gets the
# first ones in its switch; the others are reached with ?club=<slug>.
CLUBS_LISTED = 200


def account_clubs(request: HttpRequest) -> list[Club]:
    """The clubs the request's account has a role in, by name (one query per request)."""
    if not hasattr(request, _CLUBS_CACHE):
        setattr(request, _CLUBS_CACHE, list(clubs_of(request.user)[:CLUBS_LISTED]))
    clubs: list[Club] = getattr(request, _CLUBS_CACHE)
    return clubs


def current_club(request: HttpRequest) -> Club | None:
    """The club the request works in, or ``None`` for an account without a club role (a
    scorer, an anonymous visitor). Asked once per request."""
    if hasattr(request, _REQUEST_CACHE):
        cached: Club | None = getattr(request, _REQUEST_CACHE)
        return cached
    clubs = account_clubs(request)
    session = getattr(request, "session", None)
    club = None
    asked = request.GET.get("club")
    if asked:  # a link from a page of one of the club's tournaments: ?club=<slug>
        club = next((c for c in clubs if c.slug == asked), None)
        if club is None and len(clubs) == CLUBS_LISTED:
            club = clubs_of(request.user).filter(slug=asked).first()
        if club is not None and session is not None:
            session[SESSION_KEY] = club.pk
    if club is None and session is not None:
        chosen = session.get(SESSION_KEY)
        club = next((c for c in clubs if c.pk == chosen), None)
        if club is None and isinstance(chosen, int) and len(clubs) == CLUBS_LISTED:
            club = clubs_of(request.user).filter(pk=chosen).first()
    if club is None and clubs:
        club = clubs[0]
    setattr(request, _REQUEST_CACHE, club)
    return club


def club_choose(request: HttpRequest, club: Club) -> None:
    """Work in ``club`` from now on (the caller checked the account has a role in it)."""
    request.session[SESSION_KEY] = club.pk
    setattr(request, _REQUEST_CACHE, club)


def posted_for_other_club(request: HttpRequest, club: Club) -> bool:
    """A form of a club page sent for another club than the current one (switched in another
    tab since the form was shown)."""
    sent = request.POST.get(CLUB_FIELD)
    return bool(sent) and sent != club.slug
