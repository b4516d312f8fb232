"""The score sheet page's workings, shared by every page that shows a table's sheet: the
director's sheet page, the table's own link page, and the confirmation pages.

The page works as a plain HTML form; ``static/sheet.js`` adds rule hints while typing and sends
the same form with ``fetch`` (``X-Requested-With: XMLHttpRequest``), then gets JSON back: the
saved version and the server's scores, the problems at their boxes, or the conflict.

``SheetPage`` holds the steps every such page shares (parse, save, answer); beside it:
``table_page`` (the table and its sheet as stored), ``page_context`` (what the template draws
and the script's settings), ``answers`` (the JSON answers), ``held`` (what a save held back,
in words) and ``conflict_context`` (a conflict in words).
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from tournament.errors import Refused
from tournament.sheets.answers import conflict_payload, problems_payload, saved_payload
from tournament.sheets.conflict_context import apply_picks, conflict_context, conflict_form_data
from tournament.sheets.forms import SheetForm
from tournament.sheets.photo_context import photo_kept
from tournament.sheets.submission import (
    SheetConflict,
    SheetProblems,
    SheetRefusal,
    SheetSaved,
    SheetSubmission,
)
from tournament.sheets.table_page import TablePage


def wants_json(request: HttpRequest) -> bool:
    return request.headers.get("X-Requested-With") == "XMLHttpRequest"


def _photo_id(request: HttpRequest) -> int | None:
    """The waiting photo the page showed (its hidden ``photo`` field), if any."""
    value = request.POST.get("photo", "")
    return int(value) if value.isdigit() and len(value) < 12 else None


class SheetPage:
    """A page that shows a table's sheet and takes it back, whoever sends it: the steps every
    such page shares. A subclass says where the page is, how a sheet is saved there and how
    the page looks (the director's page and the table's link page).

    A posted sheet is parsed by the form, judged and stored by the save service, and answered
    as the script wants it (JSON) or as the plain form does (a redirect, or the page again with
    the problems or the conflict).
    """

    accounts = True  # whether the page may name the people who saved

    def __init__(self, request: HttpRequest, sheet: TablePage) -> None:
        self.request = request
        self.sheet = sheet

    @property
    def sheet_url(self) -> str:
        raise NotImplementedError

    def save(self, submission: SheetSubmission) -> SheetSaved:
        raise NotImplementedError

    def render(
        self, form: SheetForm, *, conflict: SheetConflict | None = None, status: int = 200
    ) -> HttpResponse:
        raise NotImplementedError

    def get(self, *, status: int = 200) -> HttpResponse:
        return self.render(self.sheet.form(), status=status)

    def refused(self, refused: Refused, *, status: int = 409) -> HttpResponse:
        """Nothing was stored: the script shows the message and stops sending; the plain form
        gets the page as stored, with the message."""
        if wants_json(self.request):
            return JsonResponse({"outcome": "refused", "message": refused.message}, status=status)
        messages.error(self.request, refused.message)
        return self.get(status=status)

    def post(self) -> HttpResponse:
        request, sheet = self.request, self.sheet
        form = SheetForm(apply_picks(request.POST, len(sheet.players)), players=sheet.players)
        if form.malformed:
            return self.refused(Refused.because(SheetRefusal.MALFORMED), status=400)
        if form.is_valid():
            # The script's saves hold back what breaks a rule and count the rest; the plain
            # form is answered all or nothing, with the problems at their boxes.
            submission = form.submission(
                by_user=request.user,
                ip=request.META.get("REMOTE_ADDR"),
                hold=wants_json(request),
                draft_seen=request.POST.get("draft_seen") if wants_json(request) else None,
                photo_id=_photo_id(request),
            )
            try:
                saved = self.save(submission)
            except SheetProblems as exc:
                if not exc.rule_problems:  # nothing to mark at a box: its own words instead
                    return self.refused(exc)
                form.add_problems(exc.rule_problems)
            except SheetConflict as conflict:
                return self._conflict_response(conflict)
            except Refused as refused:
                return self.refused(refused)
            else:
                return self._saved_response(saved)
        if wants_json(request):
            return JsonResponse(problems_payload(form), status=422)
        return self.render(form, status=422)

    def _saved_response(self, saved: SheetSaved) -> HttpResponse:
        request = self.request
        if wants_json(request):
            tournament = self.sheet.table.round.tournament
            payload = saved_payload(request, tournament, self.sheet, saved)
            photo_id = _photo_id(request)
            if photo_id is not None:  # the page checks a photo: is it kept with this version?
                payload["photo_kept"] = photo_kept(table=self.sheet.table, photo_id=photo_id)
            return JsonResponse(payload)
        if saved.created or saved.replayed:
            messages.success(request, _("Saved (version %(number)s).") % {"number": saved.version})
        else:
            messages.info(request, _("Nothing changed."))
        return redirect(request.get_full_path())

    def _conflict_response(self, conflict: SheetConflict) -> HttpResponse:
        """Show both versions. The page's form keeps the writer's values, now based on the
        version that is in the way, so saving again puts them over it (the script does the
        same)."""
        request, sheet = self.request, self.sheet
        if wants_json(request):
            html = render_to_string(
                "sheets/_conflict.html",
                {
                    "conflict": conflict_context(conflict, sheet.players, accounts=self.accounts),
                    "sheet_url": self.sheet_url,
                },
                request=request,
            )
            return JsonResponse(conflict_payload(conflict, html), status=409)
        data = conflict_form_data(request.POST, conflict, len(sheet.players))
        form = SheetForm(data, players=sheet.players, version=conflict.current_number)
        form.is_valid()  # it was valid a moment ago; this lays out its boxes
        return self.render(form, conflict=conflict, status=409)
