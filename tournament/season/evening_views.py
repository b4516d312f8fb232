"""Taking an evening out of a competition (removing or deleting it) and putting it back: each
a page that shows how the season standings change, and a button that does it (the services
and the preview are ``season.evenings``'s)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.season_change import Move
from tournament.errors import Refused, show_refused
from tournament.models import Competition, CompetitionEvening, EveningRemoval, MemberQuestion
from tournament.permissions import DIRECTOR, SignedInRequest
from tournament.season.evenings import (
    EveningPreview,
    evening_delete,
    evening_put_back,
    evening_put_back_preview,
    evening_remove,
    evening_remove_preview,
    removals_open,
)
from tournament.season.permissions import (
    competition_required,
    evenings_changeable,
    may_change_evening,
    may_put_back,
)
from tournament.season.selectors import Season
from tournament.venue.costly import costly

T = TypeVar("T")

REMOVE = "remove"
DELETE = "delete"


def _back(competition: Competition) -> HttpResponse:
    response: HttpResponse = redirect("competition_detail", slug=competition.slug)
    return response


@competition_required(DIRECTOR)
def evening_take_out(request: SignedInRequest, competition: Competition, pk: int) -> HttpResponse:
    """The preview of taking an evening out, and its two buttons: remove it from the
    competition (the tournament stays) or delete it (a backup is written first)."""
    evening = get_object_or_404(
        CompetitionEvening.objects.select_related("tournament__club", "competition__club"),
        pk=pk,
        competition=competition,
    )
    if not may_change_evening(request.user, evening.tournament):
        raise PermissionDenied(_("Only the directors of this evening may take it out."))
    if request.method == "POST":
        action = request.POST.get("action")
        name = evening.tournament.name
        if action == REMOVE:
            try:
                evening_remove(evening=evening, by=request.user)
            except Refused as refused:  # taken out meanwhile (a second click)
                show_refused(request, refused)
                return _back(competition)
            messages.success(
                request,
                _(
                    "“%(name)s” is no longer an evening of this competition (the tournament "
                    "stays). Put it back below if that was a mistake."
                )
                % {"name": name},
            )
        elif action == DELETE:
            try:
                removals = evening_delete(evening=evening, by=request.user)
            except Refused as refused:  # taken out meanwhile (a second click)
                show_refused(request, refused)
                return _back(competition)
            except OSError as error:
                messages.error(
                    request,
                    _("The backup could not be written (%(error)s): nothing was deleted.")
                    % {"error": error.strerror or error},
                )
            else:
                messages.success(
                    request,
                    _(
                        "“%(name)s” is deleted; its backup is %(file)s. Put it back below if "
                        "that was a mistake."
                    )
                    % {"name": name, "file": removals[0].backup},
                )
        else:
            messages.error(request, _("Choose: remove the evening, or delete it."))
            return redirect("evening_remove", slug=competition.slug, pk=evening.pk)
        return _back(competition)
    return _page(
        request,
        "season/evening_take_out.html",
        competition,
        evening_remove_preview(evening=evening),
        evening=evening,
        remove=REMOVE,
        delete=DELETE,
    )


# What each kind of change says on the preview (``scoring.season_change.Move``).
MOVE_LABELS = {
    Move.APPEARS: gettext_lazy("new in the season standings"),
    Move.LEAVES: gettext_lazy("leaves the season standings (no evening left)"),
    Move.UNRANKED: gettext_lazy("becomes unranked (too few evenings)"),
    Move.RANKED: gettext_lazy("becomes ranked"),
    Move.UP: gettext_lazy("moves up"),
    Move.DOWN: gettext_lazy("moves down"),
    Move.POINTS: gettext_lazy("same place, other points or evenings"),
}


def _page(
    request: SignedInRequest,
    template: str,
    competition: Competition,
    preview: EveningPreview,
    **context: object,
) -> HttpResponse:
    lines = [
        {
            "member": line.member,
            "name": line.name,
            "move": line.move.value,
            "label": MOVE_LABELS[line.move],
            "rows": (line.before, line.after),
        }
        for line in preview.change.changes
    ]
    before = {e.tournament.pk for e in preview.before.evenings}
    changed = {e.tournament.pk for e in preview.after.evenings} - before
    return render(
        request,
        template,
        {
            "competition": competition,
            "preview": preview,
            "change": preview.change,
            "lines": lines,
            "changed": changed,
            **context,
        },
    )


@competition_required(DIRECTOR)
def evening_put_back_page(
    request: SignedInRequest, competition: Competition, pk: int
) -> HttpResponse:
    """The preview of putting an evening taken out back, and its button (the undo)."""
    removal = get_object_or_404(
        EveningRemoval.objects.select_related("tournament__club", "competition__club", "by"),
        pk=pk,
        competition=competition,
    )
    if not may_put_back(request.user, removal):
        raise PermissionDenied(_("Only the directors of this evening may put it back."))
    if request.method == "POST":
        try:
            evening = _run(
                request, removal, lambda: evening_put_back(removal=removal), counted=True
            )
        except Refused as refused:
            show_refused(request, refused)
            return _back(competition)
        messages.success(
            request,
            _("“%(name)s” is back as evening %(number)s.")
            % {"name": evening.tournament.name, "number": evening.number},
        )
        if MemberQuestion.objects.filter(player__tournament=evening.tournament).exists():
            return redirect("competition_questions", slug=competition.slug)
        return _back(competition)
    try:
        preview = _run(
            request, removal, lambda: evening_put_back_preview(removal=removal), counted=False
        )
    except Refused as refused:
        show_refused(request, refused)
        return _back(competition)
    return _page(request, "season/evening_put_back.html", competition, preview, removal=removal)


def _run(
    request: SignedInRequest, removal: EveningRemoval, work: Callable[[], T], *, counted: bool
) -> T:
    """Run ``work`` (putting back, or its preview); a deleted evening comes back from its
    backup, which is as costly as an import (``venue.costly``). Only putting it back counts
    towards the imports one may start: the preview stores nothing."""
    if removal.kind == EveningRemoval.Kind.DELETED:
        return costly(request.user, work, club=removal.competition.club, counted=counted)
    return work()


def evenings_context(
    request: SignedInRequest, competition: Competition, season: Season
) -> dict[str, object]:
    """What the competition page lists of its evenings: each with the evening's id when the
    viewer may take it out, and the evenings taken out that the viewer may put back."""
    ids = dict(
        CompetitionEvening.objects.filter(competition=competition).values_list(
            "tournament_id", "pk"
        )
    )
    changeable = evenings_changeable(request.user, competition)
    rows = [
        (evening, ids.get(evening.tournament.pk) if evening.tournament.pk in changeable else None)
        for evening in season.evenings
    ]
    removals = [r for r in removals_open(competition) if may_put_back(request.user, r)]
    return {"evening_rows": rows, "removals": removals}
