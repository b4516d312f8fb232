"""The print page and the printouts: score sheets, blank sheets, seating, standings, workbook."""

from __future__ import annotations

from functools import partial

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from scoring.deals import DEALS
from tournament.exports.workbook import FinalWorkbookExporter
from tournament.models import Tournament
from tournament.permissions import director_required
from tournament.printing import documents
from tournament.printing.links import table_entry_url
from tournament.printing.render import printable_response


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
        },
    )


@director_required
def print_sheets(request: HttpRequest, tournament: Tournament, round: int) -> HttpResponse:
    forms = documents.round_sheet_forms(tournament, round, partial(table_entry_url, request))
    if not forms:
        raise Http404
    return printable_response(
        request,
        tournament=tournament,
        template="printing/score_sheets.html",
        context={"forms": forms, "deals": DEALS, "round": round},
        filename=f"{tournament.slug}-round-{round}-sheets.pdf",
    )


@director_required
def print_blank(request: HttpRequest, tournament: Tournament, seats: int) -> HttpResponse:
    if seats not in documents.BLANK_SEAT_COUNTS:
        raise Http404
    return printable_response(
        request,
        tournament=tournament,
        template="printing/score_sheets.html",
        context={"forms": [documents.blank_sheet_form(seats)], "deals": DEALS},
        filename=f"{tournament.slug}-blank-sheet-{seats}.pdf",
    )


@director_required
def print_seating(request: HttpRequest, tournament: Tournament, round: int) -> HttpResponse:
    seating = documents.round_seating(tournament, round)
    if not seating.tables:
        raise Http404
    return printable_response(
        request,
        tournament=tournament,
        template="printing/seating.html",
        context={"seating": seating},
        filename=f"{tournament.slug}-round-{round}-seating.pdf",
    )


@director_required
def print_standings(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return printable_response(
        request,
        tournament=tournament,
        template="printing/standings.html",
        context={"standings": documents.standings_list(tournament)},
        filename=f"{tournament.slug}-standings.pdf",
    )


@director_required
def print_workbook(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return FinalWorkbookExporter(tournament).render().response()
