"""The second pair of eyes: someone on the team confirms a table's sheet by looking it over or
by re-typing the paper form; and the setting whether unconfirmed sheets count in the standings.

Both pages show the sheet with the sheet page's own template (``sheets/_sheet.html``): read-only
to look it over, a blank grid to re-type. The rules (not your own sheet, only the version you
saw, only a complete sheet, the tournament's confirmation rule) are
``tournament.sheets.confirmations``'s.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from tournament.errors import Refused
from tournament.models import SheetConfirmation, Tournament
from tournament.permissions import SignedInRequest, director_required, team_required
from tournament.sheets.confirmations import (
    ConfirmMethod,
    RetypeOutcome,
    sheet_confirm,
    sheet_confirm_refusal,
    sheet_confirm_refused,
    sheet_retype,
    tournament_count_unconfirmed_set,
)
from tournament.sheets.conflict_context import ChangeInWords, describe_change
from tournament.sheets.forms import SheetForm
from tournament.sheets.page_context import sheet_context
from tournament.sheets.selectors import sheet_latest_version
from tournament.sheets.submission import SheetRefusal
from tournament.sheets.table_page import TablePage, director_table
from tournament.team.confirmation_rule import confirmation_rule_explained

EMPTY_CHANGE = "\N{EN DASH}"


class ConfirmForm(forms.Form):
    """The version the director looked at."""

    version = forms.IntegerField(min_value=1, widget=forms.HiddenInput)


class CountUnconfirmedForm(forms.Form):
    count = forms.TypedChoiceField(
        choices=[("1", "1"), ("0", "0")], coerce=lambda value: value == "1"
    )


def _review_context(
    request: SignedInRequest, sheet: TablePage, method: ConfirmMethod
) -> dict[str, Any]:
    latest = sheet_latest_version(sheet.table)
    refused = sheet_confirm_refused(table=sheet.table, by_user=request.user, method=method)
    other = ConfirmMethod.RETYPE if method is ConfirmMethod.LOOK else ConfirmMethod.LOOK
    return {
        # The link to the other way is offered only when that way would be taken from this user.
        "other_way_open": sheet_confirm_refusal(
            table=sheet.table, by_user=request.user, method=other
        )
        is None,
        "tab": "rounds",
        "latest": latest,
        "refusal": "" if refused is None else refused.code,
        "refusal_message": "" if refused is None else refused.message,
        # Which rule is in force and why: "automatic" changes with the team, never unsaid.
        "rule": confirmation_rule_explained(sheet.table.round.tournament),
    }


def _confirmed(
    request: HttpRequest,
    tournament: Tournament,
    confirmation: SheetConfirmation,
    round: int,
    table: int,
) -> HttpResponse:
    messages.success(
        request,
        _("Table %(table)s is confirmed (version %(version)s, %(method)s).")
        % {
            "table": table,
            "version": confirmation.version.number,
            "method": confirmation.get_method_display(),
        },
    )
    return redirect("round_detail", slug=tournament.slug, number=round)


@team_required
@require_http_methods(["GET", "POST"])
def sheet_confirm_look(
    request: SignedInRequest, tournament: Tournament, round: int, table: int
) -> HttpResponse:
    """Look the stored sheet over, then confirm the version on the screen."""
    sheet = director_table(tournament, round, table)
    if request.method == "POST":
        form = ConfirmForm(request.POST)
        if form.is_valid():
            try:
                confirmation = sheet_confirm(
                    table=sheet.table,
                    version=form.cleaned_data["version"],
                    by_user=request.user,
                    method=SheetConfirmation.Method.LOOK,
                )
            except Refused as refused:
                messages.error(request, refused.message)
            else:
                return _confirmed(request, tournament, confirmation, round, table)
        else:
            messages.error(request, _("The confirmation was not understood. Try again."))
        return redirect("sheet_confirm", slug=tournament.slug, round=round, table=table)
    shown = SheetForm(players=sheet.players, stored=sheet.stored.sheet, version=sheet.version)
    context = sheet_context(tournament, sheet, shown, sheet_url=request.path, mode="readonly")
    context.update(_review_context(request, sheet, ConfirmMethod.LOOK))
    return render(request, "sheets/sheet_confirm.html", context)


@team_required
@require_http_methods(["GET", "POST"])
def sheet_confirm_retype(
    request: SignedInRequest, tournament: Tournament, round: int, table: int
) -> HttpResponse:
    """Type the paper form into a blank grid; equal to the stored sheet: confirmed; otherwise
    the page lists every box that differs and keeps what was typed, to look again."""
    sheet = director_table(tournament, round, table)
    data = request.POST if request.method == "POST" else None
    form = SheetForm(data, players=sheet.players, version=sheet.version)
    if form.malformed:
        # Not this table's sheet at all (boxes missing or added): refused as the save refuses
        # it, nothing compared.
        messages.error(request, SheetRefusal.MALFORMED.label)
        blank = SheetForm(players=sheet.players, version=sheet.version)
        context = sheet_context(tournament, sheet, blank, sheet_url=request.path, mode="retype")
        context.update(_review_context(request, sheet, ConfirmMethod.RETYPE))
        context["differences"] = []
        _keep_retyping(context, request)
        return render(request, "sheets/sheet_retype.html", context, status=400)
    differences: list[ChangeInWords] = []
    blind = False
    status = 200
    if data is not None and form.is_valid():
        try:
            outcome = sheet_retype(
                table=sheet.table,
                version=form.cleaned_data["base_version"],
                cells=form.cell_values(),
                penalties=form.penalty_values(),
                by_user=request.user,
            )
        except Refused as refused:
            messages.error(request, refused.message)
            status = 409
        else:
            if outcome.confirmation is not None:
                return _confirmed(request, tournament, outcome.confirmation, round, table)
            differences = _differences(outcome, sheet.players)
            _mark_differences(form, outcome)
            blind = outcome.blind
            status = 422
    elif data is not None:
        status = 422
    context = sheet_context(tournament, sheet, form, sheet_url=request.path, mode="retype")
    context.update(_review_context(request, sheet, ConfirmMethod.RETYPE))
    context["differences"] = differences
    context["blind"] = blind
    _keep_retyping(context, request)
    return render(request, "sheets/sheet_retype.html", context, status=status)


def _keep_retyping(context: dict[str, Any], request: SignedInRequest) -> None:
    """Where the page keeps a re-typing that is not compared yet (the browser's localStorage,
    as the sheet keeps unsent input): per table and per person, so that leaving the page loses
    nothing and nobody else's typing turns up."""
    table = context["table"]
    config = context["config"]
    config["retypeKey"] = (
        f"bollen-retype:{context['tournament'].slug}:{table.round.number}:{table.number}:"
        f"{request.user.pk}"
    )
    config["messages"]["retype_restored"] = _(
        "Your re-typing from before is back in the form; it stays on this device until you compare."
    )


def _differences(outcome: RetypeOutcome, players: tuple[str, ...]) -> list[ChangeInWords]:
    """The boxes that differ in words; re-typing blind (one's own input), without what is
    stored: only where, and what was typed there."""
    differences = [describe_change(change, players) for change in outcome.changes]
    if outcome.blind:
        for difference in differences:
            difference["before"] = ""
    return differences


def _mark_differences(form: SheetForm, outcome: RetypeOutcome) -> None:
    """Put "stored: 2" at every box that differs from the stored sheet; re-typing blind, only
    "differs from the stored sheet"."""
    for change in outcome.changes:
        if change.what not in ("bid", "tricks"):
            continue
        if outcome.blind:
            message = _("differs from the stored sheet")
        else:
            stored = EMPTY_CHANGE if change.before is None else change.before
            message = _("stored: %(value)s") % {"value": stored}
        form.cell_form(change.deal, change.seat).add_error(
            change.what, ValidationError(message, code="differs")
        )


@director_required
@require_POST
def standings_unconfirmed(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = CountUnconfirmedForm(request.POST)
    if form.is_valid():
        count = form.cleaned_data["count"]
        tournament_count_unconfirmed_set(tournament=tournament, count=count)
        if count:
            messages.success(
                request, _("Unconfirmed sheets count in the standings, marked provisional.")
            )
        else:
            messages.success(request, _("Only confirmed sheets count in the standings now."))
    return redirect("standings", slug=tournament.slug)
