"""The club's privacy statement: the text its admins wrote, or the site's default, which says
what the public pages show (by the club's choice of names), how long results are kept and
whom to ask."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournament.models import Club

DISPLAY_SENTENCES = {
    Club.NameDisplay.FULL: gettext_lazy(
        "Our public pages (where do I sit, the standings, the projector and the season "
        "standings) show the names of players who agreed to it, in full."
    ),
    Club.NameDisplay.SHORT: gettext_lazy(
        "Our public pages (where do I sit, the standings, the projector and the season "
        "standings) show players who agreed to it by their first name and the initial of "
        "their surname, for example Marloes B."
    ),
    Club.NameDisplay.TABLE: gettext_lazy(
        "Our public pages (where do I sit, the standings, the projector and the season "
        "standings) show no names: a player is shown as their table and seat, for example "
        "Table 3, seat 2, or as a player number."
    ),
}


def default_statement(club: Club, name_display: str | None = None) -> str:
    """The site's privacy statement for ``club``, in the active language, ready to adapt; its
    sentence on names by the club's choice (or by ``name_display``)."""
    paragraphs = [
        _("Privacy at %(club)s") % {"club": club},
        _(
            "We keep the names of our members and guests, the club they play for, their member "
            "number if they have one, and their results of every evening and tournament. We "
            "use them to run the evenings and the season's competition, nothing else."
        ),
        str(DISPLAY_SENTENCES[Club.NameDisplay(name_display or club.name_display)]),
        _(
            "Whoever does not want their name on the public pages tells the tournament "
            "director or the club: they are then shown as their table and seat, or as a player "
            "number. The club's own lists keep the name."
        ),
        _(
            "Results are kept as long as the club exists, so that the season standings and "
            "past evenings stay correct. Members who leave can ask to be erased: their name "
            "then becomes Former member with a number everywhere; their scores stay, so "
            "nobody else's standings change."
        ),
        _(
            "You may ask for everything we keep about you as a file, have it corrected, or "
            "have it erased. Ask the club's board or the tournament director."
        ),
    ]
    return "\n\n".join(paragraphs)


def is_default_statement(club: Club, text: str) -> bool:
    """Whether ``text`` is the site's statement as the form showed it, for any choice of names:
    the admin who changes the choice and leaves the text keeps following the site's text."""
    text = "\n".join(line.rstrip() for line in text.strip().splitlines())
    return any(text == default_statement(club, choice) for choice in Club.NameDisplay.values)


def club_statement(club: Club) -> str:
    return club.privacy_text or default_statement(club)
