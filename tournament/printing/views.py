"""The print page and the printouts: score sheets, blank sheets, seating, standings, workbook."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from tournament.models import Tournament
from tournament.permissions import director_required
from tournament.printing import documents, printouts
from tournament.printing.render import printable_response
from tournament.printing.workbook import FinalWorkbookExporter
from tournament.venue.site_address import address_warnings, site_address_changes, site_url


@director_required
def print_index(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return render(
        request,
        "printing/index.html",
        {
            "tournament": tournament,
            "tab": "print",
            "rounds": documents.printable_rounds(tournament),
            "blank_seat_counts": documents.BLANK_SEAT_COUNTS,
            # Which address the QR codes get, whether phones reach it, and who changed it.
            **address_warnings(request, club=tournament.club),
            "changes": site_address_changes(tournament.club, limit=3),
        },
    )


@director_required
def print_sheets(request: HttpRequest, tournament: Tournament, round: int) -> HttpResponse:
    printout = printouts.sheets_printout(
        tournament, round, site=site_url(request, club=tournament.club), by_user=request.user
    )
    if printout is None:
        raise Http404
    return printable_response(request, tournament=tournament, printout=printout)


@director_required
def print_blank(request: HttpRequest, tournament: Tournament, seats: int) -> HttpResponse:
    if seats not in documents.BLANK_SEAT_COUNTS:
        raise Http404
    printout = printouts.blank_sheet_printout(tournament, seats)
    return printable_response(request, tournament=tournament, printout=printout)


@director_required
def print_seating(request: HttpRequest, tournament: Tournament, round: int) -> HttpResponse:
    printout = printouts.seating_printout(
        tournament, round, site=site_url(request, club=tournament.club)
    )
    if printout is None:
        raise Http404
    return printable_response(request, tournament=tournament, printout=printout)


@director_required
def print_standings(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    printout = printouts.standings_printout(tournament)
    return printable_response(request, tournament=tournament, printout=printout)


@director_required
def print_workbook(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return FinalWorkbookExporter(tournament).render().response()
