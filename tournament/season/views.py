"""The season's pages: competitions, tonight's check-in, season standings and their files (the
member register is in member_views.py)."""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament.clubs.roles import EVENING_DIRECTORS_ONLY, is_club_admin
from tournament.errors import Refused, show_refused
from tournament.models import Club, Competition, Member, Player, Tournament
from tournament.permissions import ADMIN, DIRECTOR, SignedInRequest, club_required, is_director
from tournament.printing.render import PDF_TYPE, html_to_pdf
from tournament.season import services
from tournament.season.check_in import (
    GUEST,
    MEMBER,
    NEW_GUEST,
    NEW_MEMBER,
    CheckIn,
    KindQuestion,
    NearQuestion,
    evening_check_in,
    new_names_sorted,
)
from tournament.season.evening_views import evenings_context
from tournament.season.exports import SeasonExporter
from tournament.season.file import SeasonFileRefusal
from tournament.season.file_export import competition_export
from tournament.season.file_import import competition_import
from tournament.season.forms import (
    CheckInForm,
    CompetitionFileForm,
    CompetitionForm,
    EveningAddForm,
)
from tournament.season.permissions import competition_required
from tournament.season.selectors import (
    Season,
    competitions_of,
    last_evening_members,
    members_listed,
    open_questions,
    season_of,
    untied_players,
)
from tournament.text import posted_id
from tournament.tournament_file.reading import tournament_file_parse
from tournament.venue.costly import costly
from tournament.venue.qr import qr_data_uri
from tournament.venue.site_address import absolute_url, address_warnings


@club_required(DIRECTOR)
def competition_list(request: HttpRequest, club: Club) -> HttpResponse:
    """The current club's competitions; its admins make a new one here."""
    may_create = is_club_admin(request.user, club)
    form = CompetitionForm(request.POST or None)
    if request.method == "POST" and not may_create:
        raise PermissionDenied(_("Only the club admins make a new competition."))
    if request.method == "POST" and form.is_valid():
        try:
            competition = services.competition_create(
                club=club, settings=form.competition_settings()
            )
        except Refused as refused:
            show_refused(request, refused)
        else:
            return redirect("competition_detail", slug=competition.slug)
    return render(
        request,
        "season/competition_list.html",
        {
            "form": form,
            "club": club,
            "may_create": may_create,
            "competitions": competitions_of(club),
        },
    )


def _addable(request: SignedInRequest, competition: Competition) -> QuerySet[Tournament]:
    """The club's tournaments the viewer directs that are not evenings of it yet."""
    tournaments = Tournament.objects.filter(club=competition.club).exclude(
        competition_evenings__competition=competition
    )
    if not is_club_admin(request.user, competition.club):
        tournaments = tournaments.filter(directors=request.user)
    return tournaments


@competition_required(DIRECTOR)
def competition_detail(request: SignedInRequest, competition: Competition) -> HttpResponse:
    season = season_of(competition)
    public_url = ""
    if competition.public:
        # The address phones open (as the tournament's public pages print it), not the one
        # the director's own browser happens to use.
        public_url = absolute_url(
            reverse("public_season", args=[competition.slug]), request, club=competition.club
        )
    return render(
        request,
        "season/competition_detail.html",
        {
            "competition": competition,
            "season": season,
            "lines": season_lines(season),
            "add_form": EveningAddForm(tournaments=_addable(request, competition)),
            "public_url": public_url,
            "public_qr": qr_data_uri(public_url) if public_url else "",
            **(address_warnings(request, club=competition.club) if public_url else {}),
            "manages": is_club_admin(request.user, competition.club),
            "untied": len(untied_players(competition)),
            **evenings_context(request, competition, season),
        },
    )


def season_lines(season: Season) -> list[dict[str, Any]]:
    """What the season tables show per member: each evening as (points, counted, provisional),
    and whether the points count a provisional evening."""
    lines = []
    for row in season.rows:
        member = season.members[row.member]
        cells = [
            (
                None if result is None else result.points,
                number in row.counted,
                season.is_provisional(row, number),
            )
            for number, result in zip(season.numbers, row.per_evening, strict=True)
        ]
        lines.append(
            {
                "row": row,
                "member": member,
                "cells": cells,
                "provisional": season.is_provisional(row),
            }
        )
    return lines


@competition_required(ADMIN)
def competition_edit(request: HttpRequest, competition: Competition) -> HttpResponse:
    initial = {
        "name": competition.name,
        "season": competition.season,
        "best": competition.best,
        "min_evenings": competition.min_evenings,
        "ranking": competition.ranking,
        "public": competition.public,
        "season_seating": competition.season_seating,
    }
    form = CompetitionForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            services.competition_update(
                competition=competition, settings=form.competition_settings()
            )
        except Refused as refused:
            show_refused(request, refused)
        else:
            messages.success(request, _("Settings saved."))
            return redirect("competition_detail", slug=competition.slug)
    return render(
        request, "season/competition_edit.html", {"competition": competition, "form": form}
    )


@competition_required(DIRECTOR)
def evening_add(request: SignedInRequest, competition: Competition) -> HttpResponse:
    form = EveningAddForm(request.POST or None, tournaments=_addable(request, competition))
    if request.method == "POST" and form.is_valid():
        guests = form.as_guests()
        try:
            added = services.competition_add_played(
                competition=competition, tournament=form.cleaned_data["tournament"], guests=guests
            )
        except Refused as refused:
            show_refused(request, refused)
        else:
            messages.success(
                request, _("Added as evening %(number)s.") % {"number": added.evening.number}
            )
            joined = len(added.matched.created)
            if joined:
                messages.info(request, _joined_message(joined, guests=guests))
            if added.evening.tournament.players.filter(member=None).exists():
                return redirect("competition_questions", slug=competition.slug)
    elif request.method == "POST":
        for name, errors in form.errors.items():
            label = form.fields[name].label if name in form.fields else ""
            messages.error(request, f"{label}: {errors[0]}" if label else str(errors[0]))
    return redirect("competition_detail", slug=competition.slug)


def _joined_message(count: int, *, guests: bool) -> str:
    """How many of an added evening's names joined the register, and as what."""
    if guests:
        return ngettext(
            "%(count)s new name joined the register as a guest (never ranked in a "
            "competition). A guest can be made a member on their page in the register.",
            "%(count)s new names joined the register as guests (never ranked in a "
            "competition). A guest can be made a member on their page in the register.",
            count,
        ) % {"count": count}
    return ngettext(
        "%(count)s new name joined the register as a member.",
        "%(count)s new names joined the register as members.",
        count,
    ) % {"count": count}


@competition_required(DIRECTOR)
def check_in(request: SignedInRequest, competition: Competition) -> HttpResponse:
    """Who is here tonight: tick members (all from last evening in one click), add new names,
    and create the evening's tournament with its players."""
    number = competition.evenings.count() + 1
    initial: dict[str, object] = {"name": f"{competition.name} {_('evening')} {number}"}
    last = last_evening_members(competition)
    if request.GET.get("last"):
        initial["members"] = last
    if request.method == "POST" and "tick_last" in request.POST:
        # "All from last evening" without JavaScript: the page again with what was typed and
        # last evening's members ticked as well, nothing created.
        ticked_before = [n for v in request.POST.getlist("members") if (n := posted_id(v))]
        initial = {
            "name": request.POST.get("name", ""),
            "date": request.POST.get("date", ""),
            "new_people": request.POST.get("new_people", ""),
            "members": sorted({*ticked_before, *last}),
        }
        form = CheckInForm(initial=initial, register=competition.club)
    else:
        form = CheckInForm(request.POST or None, initial=initial, register=competition.club)
    questions: list[NearQuestion] = []
    kinds: list[KindQuestion] = []
    unanswered: list[NearQuestion | KindQuestion] = []  # on the page before, still open
    if request.method == "POST" and form.is_bound and form.is_valid():
        names = new_names_sorted(
            form.new_people_rows(),
            answers=form.near_answers(),
            kinds=form.kind_answers(),
            register=members_listed(competition.club),
        )
        questions = names.asked if names.open else []
        kinds = names.kinds if names.open else []
        unanswered = names.missing
        ticked = {m.pk: m for m in [*form.cleaned_data["members"], *names.members]}
        if not names.open:
            try:
                tournament = evening_check_in(
                    competition=competition,
                    director=request.user,
                    check_in=CheckIn(
                        name=form.cleaned_data["name"],
                        date=form.cleaned_data["date"],
                        members=list(ticked.values()),
                        new_people=names.new_people,
                        new_guests=names.new_guests,
                    ),
                )
            except Refused as refused:
                show_refused(request, refused)
            else:
                messages.success(
                    request,
                    _("Evening created with %(count)s players.")
                    % {"count": tournament.players.count()},
                )
                return redirect("tournament_detail", slug=tournament.slug)
    return render(
        request,
        "season/check_in.html",
        {
            "competition": competition,
            "form": form,
            "has_last": competition.evenings.exists(),
            "last_members": last,
            "questions": questions,
            "kinds": kinds,
            "unanswered": unanswered,
            "new_member": NEW_MEMBER,
            "new_guest": NEW_GUEST,
            "kind_member": MEMBER,
            "kind_guest": GUEST,
        },
    )


def _number(value: str | None) -> int:
    """A posted id as a number (``0``, which matches nothing, when it is not one)."""
    return posted_id(value) or 0


@competition_required(DIRECTOR)
def competition_questions(request: HttpRequest, competition: Competition) -> HttpResponse:
    """Near matches: "same person" links the player to the member, "different person" adds
    the player to the register (as a member or a guest); and the players tied to nobody, tied
    here to someone in the register or added to it. Answered by whoever directs the player's
    evening."""
    if request.method == "POST":
        player = get_object_or_404(
            Player.objects.select_related("tournament__club"),
            pk=_number(request.POST.get("player")),
            tournament__competition_evenings__competition=competition,
        )
        if not is_director(request.user, player.tournament):
            raise PermissionDenied(EVENING_DIRECTORS_ONLY)
        member = None
        if request.POST.get("member"):
            member = get_object_or_404(
                Member, pk=_number(request.POST["member"]), register=competition.club
            )
        try:
            services.question_answer(
                player=player, member=member, guest=request.POST.get("kind") == "guest"
            )
        except Refused as refused:
            show_refused(request, refused)
        return redirect("competition_questions", slug=competition.slug)
    return render(
        request,
        "season/questions.html",
        {
            "competition": competition,
            "questions": open_questions(competition),
            "untied": untied_players(competition),
            # (for "who is this?": a player whose member is not in the register)
            "register": members_listed(competition.club),
        },
    )


@competition_required(DIRECTOR)
def competition_download(request: HttpRequest, competition: Competition, fmt: str) -> HttpResponse:
    if fmt not in SeasonExporter.formats:
        raise Http404
    return SeasonExporter.of(competition, format=fmt).render().response()


@competition_required(DIRECTOR)
def competition_print(request: HttpRequest, competition: Competition) -> HttpResponse:
    """The season standings for the notice board: a PDF, or its page with ``?format=html``."""
    season = season_of(competition)
    html = render_to_string(
        "season/print.html",
        {"competition": competition, "season": season, "lines": season_lines(season)},
        request=request,
    )
    if request.GET.get("format") == "html":
        return HttpResponse(html)
    pdf = html_to_pdf(html, base_url=request.build_absolute_uri("/"))
    response = HttpResponse(pdf, content_type=PDF_TYPE)
    response["Content-Disposition"] = f'inline; filename="{competition.slug}.pdf"'
    return response


@competition_required(ADMIN)
def competition_file(request: HttpRequest, competition: Competition) -> HttpResponse:
    """The competition file: settings, the register and every evening as a v1 document."""
    document = competition_export(competition=competition)
    response = HttpResponse(
        json.dumps(document, ensure_ascii=False, indent=2), content_type="application/json"
    )
    response["Content-Disposition"] = f'attachment; filename="{competition.slug}.json"'
    return response


@club_required(ADMIN)
def competition_upload(request: SignedInRequest, club: Club) -> HttpResponse:
    """Import a competition file as a new competition (all of it, or nothing)."""
    form = CompetitionFileForm(request.POST or None, request.FILES or None)
    problems: list[str] = []
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            if upload.size > settings.IMPORT_MAX_BYTES:
                raise Refused.because(SeasonFileRefusal.TOO_LARGE)
            data = upload.read()
            outcome = costly(
                request.user,
                lambda: competition_import(
                    document=tournament_file_parse(data), club=club, director=request.user
                ),
                club=club,
            )
        except Refused as refused:
            problems = refused.lines()
        else:
            messages.success(request, _("Competition “%s” imported.") % outcome.competition.name)
            for note in outcome.notes:
                messages.warning(request, note)
            return redirect("competition_detail", slug=outcome.competition.slug)
    was_refused = bool(problems or form.errors)
    return render(
        request,
        "season/competition_upload.html",
        {"form": form, "problems": problems, "club": club},
        status=422 if was_refused else 200,
    )
