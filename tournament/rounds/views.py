"""Rounds: seat the next round, look at the plan, adjust it, publish it, follow the sheets."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from scoring.seating import Balance
from tournament.errors import Refused, show_refused
from tournament.models import Round, Tournament
from tournament.permissions import SignedInRequest, director_required, team_required
from tournament.rounds import seating as services
from tournament.rounds.forms import RoundAdjustForm, RoundBalanceForm
from tournament.rounds.overview import planned_rounds_done, tournament_overview
from tournament.rounds.selectors import (
    round_changed_by_hand,
    round_seating,
    round_seating_choices,
)
from tournament.rounds.services import round_close, round_reopen, round_unfinished_tables
from tournament.sheets.photo_rows import round_waiting_tables


@team_required
def round_list(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    overview = tournament_overview(tournament)
    return render(
        request,
        "tournament/round_list.html",
        {"tournament": tournament, "tab": "rounds", **overview},
    )


@director_required
@require_POST
def round_seat(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    overview = tournament_overview(tournament)
    incomplete = overview["incomplete_round"]
    if incomplete and "confirm" not in request.POST:
        messages.warning(
            request,
            ngettext(
                "Round %(round)s still has %(count)s sheet that is not complete. "
                "Seat round %(next)s anyway?",
                "Round %(round)s still has %(count)s sheets that are not complete. "
                "Seat round %(next)s anyway?",
                incomplete.missing,
            )
            % {
                "round": incomplete.round.number,
                "count": incomplete.missing,
                "next": overview["next_round"],
            },
        )
        return redirect("round_list", slug=tournament.slug)
    try:
        round_, note = services.round_seat(tournament=tournament)
    except Refused as exc:
        show_refused(request, exc)
        return redirect("round_list", slug=tournament.slug)
    messages.success(
        request,
        _("Round %(round)s is seated as a draft: check it, adjust it, then publish it.")
        % {"round": round_.number},
    )
    if note:
        messages.warning(request, note)
    return redirect("round_detail", slug=tournament.slug, number=round_.number)


@team_required
def round_detail(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    round_ = get_object_or_404(Round.objects.with_state(), tournament=tournament, number=number)
    seating = round_seating(round_, user=request.user)
    editable = (
        round_.state in services.EDITABLE_STATES
        and not tournament.finished
        and not any(t.status != "empty" for t in seating["tables"])
    )
    form = RoundAdjustForm(
        players=seating["all_seated"] + seating["unseated"],
        tables=[t.number for t in seating["tables"]],
    )
    # Only before publishing: afterwards the printed lists must keep matching.
    choices = editable and round_.state == Round.State.DRAFT
    unfinished = [t.number for t in seating["tables"] if t.status != "complete"]
    # After this round comes the end: it is the planned last (or later) and nothing is seated
    # after it, or the rounds after it are all played (a correction after reopening).
    ends = planned_rounds_done(tournament) or (
        number >= tournament.rounds_planned
        and not tournament.rounds.filter(number__gt=number).exists()
    )
    return render(
        request,
        "tournament/round_detail.html",
        {
            "tournament": tournament,
            "tab": "rounds",
            "round": round_,
            "editable": editable,
            "form": form,
            "seating_choices": round_seating_choices(round_) if choices else [],
            "changed_by_hand": choices and round_changed_by_hand(round_),
            "unfinished_tables": unfinished,
            "ends_tournament": ends,  # the planned last round (or later), none after it
            "photo_tables": round_waiting_tables(round_),
            **seating,
        },
    )


@director_required
@require_POST
def round_adjust(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    round_ = get_object_or_404(Round.objects.with_state(), tournament=tournament, number=number)
    seating = round_seating(round_)
    form = RoundAdjustForm(
        request.POST,
        players=seating["all_seated"] + seating["unseated"],
        tables=[t.number for t in seating["tables"]],
    )
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, str(error))
        return redirect("round_detail", slug=tournament.slug, number=number)
    data = form.cleaned_data
    try:
        if data["action"] == "swap":
            services.round_swap(round_=round_, player_a=data["player"], player_b=data["other"])
            messages.success(
                request,
                _("%(a)s and %(b)s swapped places.")
                % {"a": data["player"].name, "b": data["other"].name},
            )
        else:
            services.round_move(round_=round_, player=data["player"], table_number=data["table"])
            messages.success(
                request,
                _("%(name)s now sits at table %(table)s.")
                % {"name": data["player"].name, "table": data["table"]},
            )
    except Refused as exc:
        show_refused(request, exc)
    return redirect("round_detail", slug=tournament.slug, number=number)


@director_required
@require_POST
def round_balance(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    round_ = get_object_or_404(Round.objects.with_state(), tournament=tournament, number=number)
    form = RoundBalanceForm(request.POST)
    if not form.is_valid():
        raise Http404
    balance = Tournament.SeatingBalance(form.cleaned_data["balance"])
    try:
        services.round_balance(round_=round_, balance=Balance(balance))
    except Refused as exc:
        show_refused(request, exc)
    else:
        messages.success(
            request,
            _(
                "Round %(round)s is seated again: %(balance)s. The next rounds will be seated "
                "so too."
            )
            % {"round": number, "balance": balance.label},
        )
    return redirect("round_detail", slug=tournament.slug, number=number)


@director_required
@require_POST
def round_publish(request: SignedInRequest, tournament: Tournament, number: int) -> HttpResponse:
    round_ = get_object_or_404(Round.objects.with_state(), tournament=tournament, number=number)
    services.round_publish(round_=round_, by_user=request.user)
    messages.success(request, _("Round %(round)s is published.") % {"round": number})
    return redirect("round_detail", slug=tournament.slug, number=number)


@director_required
@require_POST
def round_close_view(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    """Close the round: every table link of it shows its sheet and saves nothing. Refused while
    a sheet is unfinished, unless the director closes it anyway (``confirm``)."""
    round_ = get_object_or_404(Round.objects.with_state(), tournament=tournament, number=number)
    unfinished = [] if not round_.published else round_unfinished_tables(round_)
    if unfinished and "confirm" not in request.POST:
        messages.error(
            request,
            ngettext(
                "Not closed: the sheet of table %(tables)s is not complete. Tick “close anyway” "
                "to close the round all the same.",
                "Not closed: the sheets of tables %(tables)s are not complete. Tick “close "
                "anyway” to close the round all the same.",
                len(unfinished),
            )
            % {"tables": ", ".join(str(n) for n in unfinished)},
        )
        return redirect("round_detail", slug=tournament.slug, number=number)
    try:
        round_close(round_=round_)
    except Refused as exc:
        show_refused(request, exc)
    else:
        messages.success(
            request,
            _(
                "Round %(round)s is closed: its table links show the sheets and save nothing. "
                "You can still correct a sheet here."
            )
            % {"round": number},
        )
    return redirect("round_detail", slug=tournament.slug, number=number)


@director_required
@require_POST
def round_reopen_view(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    round_ = get_object_or_404(Round.objects.with_state(), tournament=tournament, number=number)
    round_reopen(round_=round_)
    messages.success(
        request,
        _("Round %(round)s is open again: its table links save again.") % {"round": number},
    )
    return redirect("round_detail", slug=tournament.slug, number=number)


@director_required
@require_POST
def round_unseat(request: HttpRequest, tournament: Tournament, number: int) -> HttpResponse:
    round_ = get_object_or_404(Round.objects.with_state(), tournament=tournament, number=number)
    try:
        services.round_unseat(round_=round_)
    except Refused as exc:
        show_refused(request, exc)
        return redirect("round_detail", slug=tournament.slug, number=number)
    messages.success(request, _("The seating of round %(round)s was removed.") % {"round": number})
    return redirect("round_list", slug=tournament.slug)
