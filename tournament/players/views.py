"""Registering players: one by one, pasted, or imported from Excel/CSV with a preview."""

from __future__ import annotations

from dataclasses import replace

from django import forms
from django.contrib import messages
from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST

from tournament.errors import Refused, form_page_status, show_refused
from tournament.models import Player, Tournament
from tournament.permissions import director_required
from tournament.players import services
from tournament.players.forms import (
    ApartPairForm,
    PlayerConfirmForm,
    PlayerForm,
    PlayerLayoutForm,
    PlayerPasteForm,
    PlayerUploadForm,
    PlayerWithdrawForm,
)
from tournament.players.importing import (
    NoteRow,
    PlayerFileError,
    PlayerRow,
    check_rows,
    parse_pasted,
    pasted_clubs_after_commas,
    read_players,
    read_upload,
)
from tournament.players.layout import Layout, LayoutSummary, Table, layout_guess, layout_summary
from tournament.players.selectors import player_history, player_rows, players_kept_apart
from tournament.venue.costly import costly

PREVIEW_SALT = "tournament.players.preview"
TABLE_SALT = "tournament.players.table"
# The uploaded list rides along the preview, signed, to be laid out again without a new upload;
# past this many characters of its cells (2000 players with a long name and club each) the
# preview offers no other layout. What is posted back is refused past what such a list signs to.
TABLE_KEPT_MAX = 1_000_000
TABLE_POSTED_MAX = TABLE_KEPT_MAX * 2
# A pasted list of this many lines or more is counted like an uploaded file (``costly``).
PASTE_COUNTED_FROM = 200
PASTE_TOO_OFTEN = gettext_lazy(
    "You have previewed many long lists in the last few minutes; wait a few minutes before "
    "the next one. Nothing was stored."
)


def signing_salt(kind: str, tournament: Tournament, request: HttpRequest) -> str:
    """The salt of a preview's signed list or rows: for this tournament and this account, so a
    preview cannot be sent to another tournament, or by another person."""
    return f"{kind}:{tournament.pk}:{request.user.pk}"


def _table_size(table: Table) -> int:
    """About the characters a table signs to, before compression."""
    return sum(len(text) + 3 for row in table for text in row) + 3 * len(table)


def _register(
    request: HttpRequest,
    tournament: Tournament,
    rows: list[PlayerRow],
    form: PlayerForm | None = None,
) -> bool:
    """Register ``rows``; a refusal is told at ``form``'s name (one player typed) or, line by
    line, above the page."""
    try:
        created = services.players_register(tournament=tournament, rows=rows)
    except Refused as exc:
        if form is None:
            show_refused(request, exc)
        else:
            form.add_error("name", " ".join(p.message for p in exc.problems))
        return False
    late = [p for p in created if p.joined_round > 1]
    messages.success(
        request,
        ngettext("%(count)s player registered.", "%(count)s players registered.", len(created))
        % {"count": len(created)}
        + (
            " " + _("Late entry: they play from round %(round)s.") % {"round": late[0].joined_round}
            if late
            else ""
        ),
    )
    return True


@director_required
def player_list(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    form = PlayerForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        row = PlayerRow(
            line=1, name=form.cleaned_data["name"].strip(), club=form.cleaned_data["club"].strip()
        )
        if _register(request, tournament, [row], form):
            return redirect("player_list", slug=tournament.slug)
    return render(
        request,
        "tournament/player_list.html",
        {
            "tournament": tournament,
            "tab": "players",
            "form": form,
            "players": player_rows(tournament),
            "open_round": services.first_open_round(tournament),
        },
        status=form_page_status(request),
    )


def _preview(
    request: HttpRequest,
    tournament: Tournament,
    rows: list[PlayerRow],
    source_form: PlayerPasteForm | PlayerUploadForm,
    *,
    comma_hint: bool = False,
    layout: LayoutSummary | None = None,
    layout_form: PlayerLayoutForm | None = None,
    notes: list[NoteRow] | None = None,
    too_large: bool = False,
) -> HttpResponse:
    checked = check_rows(rows, existing=tournament.players.values_list("name", flat=True))
    good = [{"line": r.line, "name": r.name, "club": r.club} for r in checked if r.ok]
    salt = signing_salt(PREVIEW_SALT, tournament, request)
    confirm = PlayerConfirmForm(initial={"payload": signing.dumps(good, salt=salt)})
    return render(
        request,
        "tournament/player_preview.html",
        {
            "tournament": tournament,
            "tab": "players",
            "rows": checked,
            "good": len(good),
            # The words for a ticked count (bollen.js): the template's own msgids.
            "count_words": [
                ngettext("Register %(counter)s player", "Register %(counter)s players", n)
                % {"counter": "%s"}
                for n in (1, 2)
            ],
            "count_sentence": [
                ngettext(
                    "%(counter)s player will be registered.",
                    "%(counter)s players will be registered.",
                    n,
                )
                % {"counter": "%s"}
                for n in (1, 2)
            ],
            "bad": len(checked) - len(good),
            "confirm": confirm,
            "open_round": services.first_open_round(tournament),
            "source_form": source_form,
            "comma_hint": comma_hint,
            "layout": layout,
            "layout_form": layout_form,
            "notes": notes or [],
            "too_large": too_large,
        },
    )


def _table_preview(
    request: HttpRequest, tournament: Tournament, table: Table, layout: Layout
) -> HttpResponse:
    """The preview of an uploaded list, with the header row and columns taken and a form to
    choose others (the list comes along signed, when it is not too large)."""
    form = None
    too_large = _table_size(table) > TABLE_KEPT_MAX
    if not too_large:
        salt = signing_salt(TABLE_SALT, tournament, request)
        signed = signing.dumps(table, salt=salt, compress=True)
        form = PlayerLayoutForm(table=table, layout=layout, initial={"table": signed})
    rows, notes = read_players(table, layout)
    return _preview(
        request,
        tournament,
        rows,
        PlayerUploadForm(),
        layout=layout_summary(table, layout),
        layout_form=form,
        notes=notes,
        too_large=too_large,
    )


def _laid_out(request: HttpRequest, tournament: Tournament) -> tuple[Table, Layout] | str:
    """The signed list posted back and the layout chosen for it, or what is wrong."""
    signed = request.POST["table"]
    try:
        salt = signing_salt(TABLE_SALT, tournament, request)
        table: Table = signing.loads(signed, salt=salt, max_age=3600)
    except signing.BadSignature:
        return _("The preview has expired; upload the list again.")
    form = PlayerLayoutForm(request.POST, table=table)
    if not form.is_valid():
        return _("Choose the header row and the columns from the lists.")
    return table, form.layout()


def _relayout(request: HttpRequest, tournament: Tournament) -> HttpResponse | None:
    """The preview again with the header row and columns the director chose: as costly as
    the upload (the list is read again), so counted and run as one."""
    if len(request.POST["table"]) > TABLE_POSTED_MAX:
        messages.error(
            request, _("The list that came along is larger than a preview sends; upload it again.")
        )
        return None
    try:
        found = costly(request.user, lambda: _laid_out(request, tournament), club=tournament.club)
    except Refused as refused:
        show_refused(request, refused)
        return None
    if isinstance(found, str):
        messages.error(request, found)
        return None
    return _table_preview(request, tournament, *found)


def _confirm(request: HttpRequest, tournament: Tournament) -> HttpResponse | None:
    form = PlayerConfirmForm(request.POST)
    if not form.is_valid():
        return None
    try:
        salt = signing_salt(PREVIEW_SALT, tournament, request)
        good = signing.loads(form.cleaned_data["payload"], salt=salt, max_age=3600)
    except signing.BadSignature:
        messages.error(request, _("The preview has expired; upload the list again."))
        return None
    ticked = form.lines_ticked()
    rows = [
        PlayerRow(line=r["line"], name=r["name"], club=r["club"])
        for r in good
        if ticked is None or r["line"] in ticked
    ]
    if not rows:
        messages.error(request, _("There is nothing to register."))
        return None
    if _register(request, tournament, rows):
        return redirect("player_list", slug=tournament.slug)
    return None


@director_required
def player_paste(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    if request.method == "POST" and "payload" in request.POST:
        done = _confirm(request, tournament)
        if done:
            return done
    form = PlayerPasteForm(request.POST if "text" in request.POST else None)
    if form.is_bound and form.is_valid():
        text = form.cleaned_data["text"]
        try:
            # A long list costs what a file costs; a short one (the usual paste) is not counted.
            rows = (
                costly(request.user, lambda: parse_pasted(text), club=tournament.club)
                if text.count("\n") >= PASTE_COUNTED_FROM
                else parse_pasted(text)
            )
        except Refused:
            form.add_error("text", PASTE_TOO_OFTEN)
        else:
            return _preview(
                request, tournament, rows, form, comma_hint=pasted_clubs_after_commas(rows)
            )
    return render(
        request,
        "tournament/player_add_many.html",
        {"tournament": tournament, "tab": "players", "form": form, "mode": "paste"},
        status=form_page_status(request),
    )


@director_required
def player_import(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    if request.method == "POST" and "payload" in request.POST:
        done = _confirm(request, tournament)
        if done:
            return done
    if request.method == "POST" and "table" in request.POST:
        shown = _relayout(request, tournament)
        if shown:
            return shown
    form = PlayerUploadForm(
        request.POST if request.FILES else None, request.FILES if request.FILES else None
    )
    if form.is_bound and form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            data = upload.read()
            table = costly(
                request.user, lambda: read_upload(upload.name, data), club=tournament.club
            )
        except PlayerFileError as exc:
            form.add_error("file", str(exc))
        except Refused as refused:
            form.add_error("file", refused.message)
        else:
            return _table_preview(request, tournament, table, layout_guess(table))
    return render(
        request,
        "tournament/player_add_many.html",
        {"tournament": tournament, "tab": "players", "form": form, "mode": "import"},
        status=form_page_status(request),
    )


@director_required
def player_detail(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    player = get_object_or_404(Player, tournament=tournament, pk=pk)
    return render(
        request,
        "tournament/player_detail.html",
        {
            "tournament": tournament,
            "tab": "players",
            "player": player,
            "kept_apart": players_kept_apart(player),
            "apart_form": ApartPairForm(player=player),
            **player_history(player),
        },
    )


@director_required
@require_POST
def player_apart(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    player = get_object_or_404(Player, tournament=tournament, pk=pk)
    form = ApartPairForm(request.POST, player=player)
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, str(error))
        return redirect("player_detail", slug=tournament.slug, pk=pk)
    other = form.cleaned_data["other"]
    if form.cleaned_data["action"] == "remove":
        services.apart_pair_remove(player=player, other=other)
        messages.success(
            request,
            _("%(a)s and %(b)s may sit at one table again.") % {"a": player.name, "b": other.name},
        )
    else:
        services.apart_pair_add(player=player, other=other)
        messages.success(
            request,
            _("%(a)s and %(b)s will never sit at one table, from the next seating on.")
            % {"a": player.name, "b": other.name},
        )
    return redirect("player_detail", slug=tournament.slug, pk=pk)


@director_required
def player_edit(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    player = get_object_or_404(Player, tournament=tournament, pk=pk)
    form = PlayerForm(request.POST or None, initial={"name": player.name, "club": player.club})
    withdraw = PlayerWithdrawForm(initial={"from_round": services.first_open_round(tournament)})
    cannot_delete = services.player_delete_problem(player)
    if request.method == "POST" and form.is_valid():
        try:
            services.player_update(player=player, **form.cleaned_data)
        except Refused as exc:
            form.add_error("name", "; ".join(p.message for p in exc.problems))
        else:
            messages.success(request, _("Saved."))
            return redirect("player_list", slug=tournament.slug)
    return render(
        request,
        "tournament/player_edit.html",
        {
            "tournament": tournament,
            "tab": "players",
            "player": player,
            "form": form,
            "withdraw": withdraw,
            "cannot_delete": cannot_delete,
        },
        status=form_page_status(request),
    )


@director_required
@require_POST
def player_withdraw(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    player = get_object_or_404(Player, tournament=tournament, pk=pk)
    if "reinstate" in request.POST:
        services.player_reinstate(player=player)
        messages.success(request, _("%(name)s plays again.") % {"name": player.name})
        return redirect("player_list", slug=tournament.slug)
    form = PlayerWithdrawForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Give the round from which the player withdraws."))
        return redirect("player_edit", slug=tournament.slug, pk=player.pk)
    try:
        lost = services.player_withdraw(player=player, from_round=form.cleaned_data["from_round"])
    except Refused as exc:
        show_refused(request, _labelled(exc, form))
        return redirect("player_edit", slug=tournament.slug, pk=player.pk)
    messages.success(
        request,
        _("%(name)s is withdrawn from round %(round)s on.")
        % {"name": player.name, "round": form.cleaned_data["from_round"]},
    )
    for number in lost:
        messages.warning(
            request,
            _(
                "Round %(round)s was already seated with %(name)s: remove that seating and "
                "seat the round again."
            )
            % {"round": number, "name": player.name},
        )
    return redirect("player_list", slug=tournament.slug)


def _labelled(refused: Refused, form: forms.Form) -> Refused:
    """The refusal with the form's fields named by their labels ("Afmelden vanaf ronde"), not
    by their names in the code."""
    problems = [
        replace(p, field=str(form.fields[p.field].label))
        if p.field in form.fields and form.fields[p.field].label
        else p
        for p in refused.problems
    ]
    return Refused(problems, total=refused.total)


@director_required
@require_POST
def player_delete(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    player = get_object_or_404(Player, tournament=tournament, pk=pk)
    try:
        services.player_delete(player=player)
    except Refused as exc:
        show_refused(request, exc)
        return redirect("player_edit", slug=tournament.slug, pk=pk)
    messages.success(request, _("%(name)s is deleted.") % {"name": player.name})
    return redirect("player_list", slug=tournament.slug)
