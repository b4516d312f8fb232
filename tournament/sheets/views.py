"""The director's score sheet of one table: entering it, its history, and restoring an earlier
version. How the page works is in ``tournament.sheets.page``."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from tournament.models import SheetVersion, Table, Tournament
from tournament.permissions import team_required, when_finished
from tournament.sheets.answers import sheet_poll
from tournament.sheets.conflict_context import EMPTY, describe_change
from tournament.sheets.forms import RestoreForm, SheetForm
from tournament.sheets.page import SheetPage
from tournament.sheets.page_context import sheet_context
from tournament.sheets.photo_rows import table_photo_rows
from tournament.sheets.selectors import sheet_history_entries
from tournament.sheets.services import sheet_record, sheet_restore
from tournament.sheets.submission import SheetConflict, SheetProblems, SheetSaved, SheetSubmission
from tournament.sheets.table_page import TablePage, director_table

__all__ = ["EMPTY", "sheet_edit", "sheet_history", "sheet_version_restore"]


def _edit_url(sheet: TablePage) -> str:
    table = sheet.table
    return reverse(
        "sheet_edit", args=[table.round.tournament.slug, table.round.number, table.number]
    )


class DirectorSheetPage(SheetPage):
    """The director's page of a table's sheet, with the way to the next and previous table."""

    @property
    def sheet_url(self) -> str:
        return _edit_url(self.sheet)

    def save(self, submission: SheetSubmission) -> SheetSaved:
        return sheet_record(table=self.sheet.table, submission=submission)

    def render(
        self, form: SheetForm, *, conflict: SheetConflict | None = None, status: int = 200
    ) -> HttpResponse:
        sheet = self.sheet
        tournament = sheet.table.round.tournament
        numbers = list(
            Table.objects.filter(round_id=sheet.table.round_id).values_list("number", flat=True)
        )
        here = numbers.index(sheet.table.number)
        context = sheet_context(
            tournament,
            sheet,
            form,
            sheet_url=self.sheet_url,
            conflict=conflict,
            # A draft round's seats may still change: its sheets open once it is published.
            mode="readonly" if tournament.finished or not sheet.table.round.published else "edit",
            photo_url=reverse("sheet_photo_page", args=[tournament.slug, sheet.photo.pk])
            if sheet.photo is not None
            else "",
        )
        context.update(
            {
                "tab": "rounds",
                "previous_table": numbers[here - 1] if here > 0 else None,
                "next_table": numbers[here + 1] if here + 1 < len(numbers) else None,
                "seat_players": [
                    {"pk": pk, "name": name}
                    for pk, name in zip(sheet.stored.player_ids, sheet.players, strict=True)
                ],
            }
        )
        return render(self.request, "sheets/sheet_edit.html", context, status=status)


@team_required
@when_finished  # the save refuses itself, answering the page's script as it expects
@require_http_methods(["GET", "POST"])
def sheet_edit(
    request: HttpRequest, tournament: Tournament, round: int, table: int
) -> HttpResponse:
    sheet = director_table(tournament, round, table)
    if request.method == "GET" and "state" in request.GET:
        return sheet_poll(request, sheet.table, lambda: DirectorSheetPage(request, sheet))
    page = DirectorSheetPage(request, sheet)
    return page.post() if request.method == "POST" else page.get()


@team_required
def sheet_history(
    request: HttpRequest, tournament: Tournament, round: int, table: int
) -> HttpResponse:
    sheet = director_table(tournament, round, table)
    rows = [
        {
            "version": entry.version,
            "changes": [describe_change(c, sheet.players) for c in entry.changes],
            "key": uuid.uuid4(),  # each restore button is its own submission
        }
        for entry in sheet_history_entries(sheet.table)
    ]
    return render(
        request,
        "sheets/sheet_history.html",
        {
            "tournament": tournament,
            "tab": "rounds",
            "table": sheet.table,
            "round": sheet.table.round,
            "rows": rows,
            "version": sheet.version,
            # The photos of the paper sheet, each with the version it ended up in: for a dispute.
            "photos": table_photo_rows(sheet.table),
        },
    )


@team_required
@require_POST
def sheet_version_restore(
    request: HttpRequest, tournament: Tournament, round: int, table: int, pk: int
) -> HttpResponse:
    sheet = director_table(tournament, round, table)
    if not SheetVersion.objects.filter(pk=pk, table=sheet.table).exists():
        raise Http404
    history = reverse("sheet_history", args=[tournament.slug, round, table])
    form = RestoreForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("The restore was not understood. Try again."))
        return redirect(history)
    try:
        submission = SheetSubmission(
            base_version=form.cleaned_data["base_version"],
            idempotency_key=form.cleaned_data["idempotency_key"],
            by_user=request.user,
            ip=request.META.get("REMOTE_ADDR"),
        )
        saved = sheet_restore(table=sheet.table, version_id=pk, submission=submission)
    except SheetConflict:
        messages.error(
            request,
            _("Not restored: the sheet was saved in the meantime. Look at the history again."),
        )
        return redirect(history)
    except SheetProblems as exc:
        messages.error(
            request, _("Not restored: %(problems)s") % {"problems": " ".join(exc.lines())}
        )
        return redirect(history)
    if saved.created:
        messages.success(request, _("Restored as version %(number)s.") % {"number": saved.version})
    else:
        messages.info(request, _("The sheet already is like that; nothing changed."))
    return redirect("sheet_edit", slug=tournament.slug, round=round, table=table)
