"""Each printout as one value: its template, what it shows and its file name. The print views
and the ``print_*`` commands both make them here, and ``render`` turns them into a PDF."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.urls import reverse
from django.utils.translation import pgettext

from scoring.deals import DEALS
from tournament.exports.base import download_name
from tournament.models import Round, Tournament
from tournament.permissions import AnyUser
from tournament.printing import documents
from tournament.sheets.table_link_urls import table_entry_urls
from tournament.venue.qr import qr_data_uri


@dataclass(frozen=True, slots=True)
class Printout:
    template: str
    filename: str
    context: dict[str, object] = field(default_factory=dict)


def current_round(tournament: Tournament) -> Round | None:
    """The round being played now: the highest one that is seated or under way."""
    return (
        tournament.rounds.with_state()
        .filter(progress__in=[Round.State.SEATED, Round.State.PLAYING])
        .order_by("-number")
        .first()
    )


def sheets_printout(
    tournament: Tournament, round_number: int, *, site: str, by_user: AnyUser | None = None
) -> Printout | None:
    """The score sheets of a round, their QR codes under ``site``; ``None`` without tables.

    Tables without a link get one now, made by ``by_user``.
    """
    entry_urls = table_entry_urls(
        tournament=tournament, round_number=round_number, site=site, by_user=by_user
    )
    forms = documents.round_sheet_forms(tournament, round_number, entry_urls)
    if not forms:
        return None
    return Printout(
        template="printing/score_sheets.html",
        filename=download_name(
            tournament,
            pgettext("file name", "round %(number)s sheets") % {"number": round_number},
            "pdf",
        ),
        context={"forms": forms, "deals": DEALS, "round": round_number},
    )


def blank_sheet_printout(tournament: Tournament, n_seats: int) -> Printout:
    return Printout(
        template="printing/score_sheets.html",
        filename=download_name(
            tournament, pgettext("file name", "blank sheet %(seats)s") % {"seats": n_seats}, "pdf"
        ),
        context={"forms": [documents.blank_sheet_form(n_seats)], "deals": DEALS},
    )


def seating_printout(tournament: Tournament, round_number: int, *, site: str) -> Printout | None:
    """The seating list of a round; ``None`` when the round has no tables.

    With the public pages on, its "where do I sit" page carries a QR code of the public page
    (under ``site``), where a player finds their table on their phone.
    """
    seating = documents.round_seating(tournament, round_number)
    if not seating.tables:
        return None
    public_url = site + reverse("public_home", args=[tournament.slug]) if tournament.public else ""
    return Printout(
        template="printing/seating.html",
        filename=download_name(
            tournament,
            pgettext("file name", "round %(number)s seating") % {"number": round_number},
            "pdf",
        ),
        context={
            "seating": seating,
            "public_url": public_url,
            "public_qr": qr_data_uri(public_url) if public_url else "",
        },
    )


def standings_printout(tournament: Tournament) -> Printout:
    return Printout(
        template="printing/standings.html",
        filename=download_name(tournament, pgettext("file name", "standings"), "pdf"),
        context={"standings": documents.standings_list(tournament)},
    )
