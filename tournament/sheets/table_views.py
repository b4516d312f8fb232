"""Table-side entry: the page a table's private link opens, and the director's pages that make,
show and revoke the links.

The link page needs no account: the token in its URL is the whole permission, and it opens the
sheet of its own table in its own round, nothing else. It is the director's sheet page in
phone dress (``sheets/_sheet.html`` and ``static/sheet.js``, saving through
``tournament.sheets.page.SheetPage``), read-only once a director has confirmed it.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from tournament.errors import Refused
from tournament.models import SheetConfirmation, TableLink, Tournament
from tournament.permissions import director_required, team_required
from tournament.sheets.answers import sheet_poll
from tournament.sheets.confirmations import sheet_confirmation_now
from tournament.sheets.forms import SheetForm
from tournament.sheets.page import SheetPage, wants_json
from tournament.sheets.page_context import sheet_context
from tournament.sheets.submission import SheetConflict, SheetSaved, SheetSubmission
from tournament.sheets.table_link_urls import table_link_url
from tournament.sheets.table_links import (
    LinkRefusal,
    table_link_active,
    table_link_by_token,
    table_link_closed_reason,
    table_link_issue,
    table_link_revoke,
    table_link_sheet_record,
)
from tournament.sheets.table_page import director_table, table_page
from tournament.venue.qr import qr_data_uri
from tournament.venue.site_address import address_warnings, site_url


def _private(response: HttpResponse) -> HttpResponse:
    """The token is in the address: keep it out of caches, search engines and other sites'
    referrers. ("no-referrer" would also make browsers send "Origin: null" with a form, which
    the CSRF check refuses.)"""
    response["X-Robots-Tag"] = "noindex, nofollow"
    response["Referrer-Policy"] = "same-origin"
    return response


def _refused(request: HttpRequest, message: str, *, status: int) -> HttpResponse:
    """The link may not save (any more): the script keeps the input and stops sending; the
    plain form goes back to the page, which says why."""
    if wants_json(request):
        return JsonResponse({"outcome": "refused", "message": message}, status=status)
    messages.error(request, message)
    return redirect(request.path)


class TableSheetPage(SheetPage):
    """The page a table's private link opens: the same sheet, read-only once confirmed, and
    no names of accounts."""

    accounts = False

    def __init__(self, request: HttpRequest, link: TableLink) -> None:
        super().__init__(request, table_page(link.table))
        self.link = link

    @property
    def sheet_url(self) -> str:
        return self.request.path

    def save(self, submission: SheetSubmission) -> SheetSaved:
        return table_link_sheet_record(link=self.link, submission=submission)

    def get(self, *, status: int = 200) -> HttpResponse:
        confirmation = sheet_confirmation_now(self.link.table)
        editable = confirmation is None and table_link_closed_reason(self.sheet.table) is None
        form = self.sheet.form(draft=editable)
        return self.render(form, confirmation=confirmation, status=status)

    def refused(self, refused: Refused, *, status: int = 409) -> HttpResponse:
        if refused.code == LinkRefusal.REVOKED:
            status = 404
        return _refused(self.request, refused.message, status=status)

    def render(
        self,
        form: SheetForm,
        *,
        confirmation: SheetConfirmation | None = None,
        conflict: SheetConflict | None = None,
        status: int = 200,
    ) -> HttpResponse:
        closed = table_link_closed_reason(self.sheet.table)
        context = sheet_context(
            self.sheet.table.round.tournament,
            self.sheet,
            form,
            sheet_url=self.sheet_url,
            conflict=conflict,
            mode="readonly" if confirmation is not None or closed else "edit",
            accounts=False,
            photo_url=reverse("table_entry_photo_page", args=[self.link.token, self.sheet.photo.pk])
            if self.sheet.photo is not None
            else "",
        )
        context["confirmation"] = confirmation
        context["round_closed"] = closed
        context["token"] = self.link.token
        return render(self.request, "table/table_entry.html", context, status=status)


@never_cache
@require_http_methods(["GET", "POST"])
def table_entry(request: HttpRequest, token: str) -> HttpResponse:
    link = table_link_by_token(token)
    if link is None:
        if request.method == "POST" and wants_json(request):
            return _private(_refused(request, str(LinkRefusal.REVOKED.label), status=404))
        raise Http404
    if request.method == "GET" and "state" in request.GET:
        return _private(sheet_poll(request, link.table, lambda: TableSheetPage(request, link)))
    page = TableSheetPage(request, link)
    return _private(page.post() if request.method == "POST" else page.get())


# The director's side: show a table's link (with its QR code), issue a new one, revoke it.


@team_required
def table_link_show(
    request: HttpRequest, tournament: Tournament, round: int, table: int
) -> HttpResponse:
    sheet = director_table(tournament, round, table)
    link = table_link_active(sheet.table)
    site = site_url(request, club=tournament.club)
    url = table_link_url(link, site=site) if link else None
    return render(
        request,
        "table/table_link.html",
        {
            "tournament": tournament,
            "tab": "rounds",
            "round": sheet.table.round,
            "table": sheet.table,
            "players": sheet.players,
            "link": link,
            "url": url,
            "qr": qr_data_uri(url) if url else None,
            **address_warnings(request, club=tournament.club),
        },
    )


@director_required
@require_POST
def table_link_new(
    request: HttpRequest, tournament: Tournament, round: int, table: int
) -> HttpResponse:
    sheet = director_table(tournament, round, table)
    replaced = table_link_active(sheet.table) is not None
    table_link_issue(table=sheet.table, by_user=request.user)
    if replaced:
        messages.success(
            request,
            _("Table %(table)s has a new link; the old one no longer works. Print its sheet again.")
            % {"table": table},
        )
    else:
        messages.success(request, _("Table %(table)s has a link now.") % {"table": table})
    return redirect("table_link", slug=tournament.slug, round=round, table=table)


@director_required
@require_POST
def table_link_remove(
    request: HttpRequest, tournament: Tournament, round: int, table: int
) -> HttpResponse:
    sheet = director_table(tournament, round, table)
    if table_link_revoke(table=sheet.table):
        messages.success(
            request, _("The link of table %(table)s no longer works.") % {"table": table}
        )
    else:
        messages.info(request, _("Table %(table)s had no link.") % {"table": table})
    return redirect("round_detail", slug=tournament.slug, number=round)
