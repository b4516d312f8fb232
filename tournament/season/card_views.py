"""A member's season card: the page and its PDF, for the directors and admins of the member's
club (as the member's page). ``?competition=<slug>`` chooses the competition, by default the
newest one the member played an evening of."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.text import slugify
from django.utils.translation import pgettext

from tournament.models import Competition, Member
from tournament.names import folded
from tournament.printing.render import PDF_TYPE, html_to_pdf
from tournament.season.card import card_competitions, card_of
from tournament.season.permissions import member_required


def _chosen(request: HttpRequest, member: Member) -> tuple[Competition | None, list[Competition]]:
    """The competition the card is of (404 for one of another club) and the ones to choose
    from."""
    competitions = card_competitions(member)
    slug = request.GET.get("competition")
    if not slug:
        return (competitions[0] if competitions else None), competitions
    chosen = next((c for c in competitions if c.slug == slug), None)
    if chosen is None:
        raise Http404
    return chosen, competitions


@member_required
def member_card(request: HttpRequest, member: Member) -> HttpResponse:
    competition, competitions = _chosen(request, member)
    return render(
        request,
        "season/card.html",
        {
            "member": member,
            "competition": competition,
            "competitions": competitions,
            "card": card_of(competition, member) if competition else None,
        },
    )


@member_required
def member_card_print(request: HttpRequest, member: Member) -> HttpResponse:
    """The card as a PDF, or its page with ``?format=html``."""
    competition, _competitions = _chosen(request, member)
    if competition is None:
        raise Http404
    html = render_to_string(
        "season/card_print.html",
        {"competition": competition, "card": card_of(competition, member)},
        request=request,
    )
    if request.GET.get("format") == "html":
        return HttpResponse(html)
    pdf = html_to_pdf(html, base_url=request.build_absolute_uri("/"))
    response = HttpResponse(pdf, content_type=PDF_TYPE)
    what = pgettext("file name", "season card")  # (outside the f-string: makemessages reads it)
    name = slugify(f"{what} {folded(member.name)}")
    response["Content-Disposition"] = f'inline; filename="{competition.slug}-{name}.pdf"'
    return response
