"""The club's privacy pages: its settings and statement, its log and deleting the club (its
admins); the public privacy page; a member's data file, erasure and consent; a player's
consent (the tournament's directors)."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, cast

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournament.clubs.roles import is_club_admin, may_edit_member, member_refusal
from tournament.errors import FORM_REFUSED_STATUS
from tournament.models import Club, ClubLogEntry, Competition, Member, Player, Tournament
from tournament.permissions import (
    ADMIN,
    DIRECTOR,
    MarkedView,
    club_required,
    director_required,
    when_finished,
)
from tournament.privacy.forms import ClubDeleteForm, ClubPrivacyForm, ConsentForm
from tournament.privacy.log import Action, club_log
from tournament.privacy.member_file import member_data_json
from tournament.privacy.services import (
    PrivacyRefused,
    club_confirm_word,
    club_contents,
    club_delete,
    club_privacy_update,
    member_consent_set,
    member_erase,
    player_consent_set,
)
from tournament.privacy.statement import club_statement, default_statement, is_default_statement

LOG_SHOWN = 300


@club_required(ADMIN)
def club_privacy(request: HttpRequest, club: Club) -> HttpResponse:
    """The club's choice of names on public pages and its privacy statement."""
    initial = {
        "name_display": club.name_display,
        "privacy_text": club.privacy_text or default_statement(club),
    }
    form = ClubPrivacyForm(request.POST or None, initial=initial)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            text = form.cleaned_data["privacy_text"].strip()
            club.name_display = form.cleaned_data["name_display"]
            # The site's text unchanged (or nothing): keep following the site's text.
            if is_default_statement(club, text):
                text = ""
            club_privacy_update(
                club=club,
                name_display=form.cleaned_data["name_display"],
                privacy_text=text,
                by=request.user,
            )
            messages.success(request, _("Saved."))
            return redirect("club_privacy")
        status = FORM_REFUSED_STATUS
    return render(request, "privacy/club_privacy.html", {"club": club, "form": form}, status=status)


@club_required(ADMIN)
def club_log_view(request: HttpRequest, club: Club) -> HttpResponse:
    entries = ClubLogEntry.objects.filter(club=club).select_related("by")[:LOG_SHOWN]
    return render(request, "privacy/club_log.html", {"club": club, "entries": entries})


@club_required(ADMIN)
def club_delete_view(request: HttpRequest, club: Club) -> HttpResponse:
    """Delete the whole club: what goes is listed, the club's name typed to confirm."""
    form = ClubDeleteForm(request.POST or None)
    status = 200
    if request.method == "POST" and form.is_valid():
        name = str(club)
        try:
            club_delete(club=club, typed=form.cleaned_data["typed"])
        except PrivacyRefused as refused:
            form.add_error("typed", refused.message)
        else:
            messages.success(
                request, _("%(club)s is deleted, with everything it held.") % {"club": name}
            )
            return redirect("tournament_list")
    if request.method == "POST":
        status = FORM_REFUSED_STATUS
    return render(
        request,
        "privacy/club_delete.html",
        {
            "club": club,
            "form": form,
            "contents": club_contents(club),
            "confirm_word": club_confirm_word(club),
        },
        status=status,
    )


def club_privacy_public(request: HttpRequest, slug: str) -> HttpResponse:
    """The club's privacy statement, linked from every public page: there while the club has
    a public page (as the club's public page is), and always for its admins to check."""
    club = get_object_or_404(Club, slug=slug)
    public = (
        Tournament.objects.filter(club=club, public=True).exists()
        or Competition.objects.filter(club=club, public=True).exists()
    )
    if not public and not is_club_admin(request.user, club):
        raise Http404
    return render(
        request,
        "privacy/privacy_public.html",
        {"club": club, "paragraphs": club_statement(club).replace("\r\n", "\n").split("\n\n")},
    )


def member_admin_required(view: Callable[..., HttpResponse]) -> MarkedView:
    """Gives the view the member of the URL's ``pk``, for the admins of the member's club;
    sign-in first, 403 for others."""

    @wraps(view)
    def wrapper(request: HttpRequest, pk: int, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        member = get_object_or_404(Member.objects.select_related("register"), pk=pk)
        if not is_club_admin(request.user, member.register):
            raise PermissionDenied(_("This page is for the club admins of the member's club."))
        return view(request, member, *args, **kwargs)

    marked = cast(MarkedView, wrapper)
    marked.director_only = False
    marked.team_only = False
    marked.club_only = ADMIN  # read by the URL access test
    return marked


@member_admin_required
def member_data_download(request: HttpRequest, member: Member) -> HttpResponse:
    """Everything the site keeps of one member, as JSON (written in the club's log)."""
    body = member_data_json(member)
    club_log(
        club=member.register,
        by=request.user,
        action=Action.MEMBER_FILE,
        text=_("Data of member #%(pk)s downloaded.") % {"pk": member.pk},
    )
    name = slugify(member.name) or f"member-{member.pk}"
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}-data.json"'
    return response


@member_admin_required
def member_erase_view(request: HttpRequest, member: Member) -> HttpResponse:
    """Erase a member: asked first, with what it does."""
    evenings = Player.objects.filter(member=member).count()
    if request.method == "POST":
        if request.POST.get("confirm") != "erase":
            messages.error(request, _("Tick the box to confirm the erasure. Nothing was erased."))
        else:
            erased = member_erase(member=member, by=request.user)
            messages.success(
                request,
                _("The member is erased: everywhere they are %(name)s now.")
                % {"name": erased.name},
            )
            return redirect("member_edit", pk=member.pk)
    return render(request, "privacy/member_erase.html", {"member": member, "evenings": evenings})


def _member_editor(view: Callable[..., HttpResponse]) -> MarkedView:
    @wraps(view)
    def wrapper(request: HttpRequest, pk: int) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        member = get_object_or_404(Member.objects.select_related("register"), pk=pk)
        if not may_edit_member(request.user, member):
            raise PermissionDenied(member_refusal(request.user, member))
        return view(request, member)

    marked = cast(MarkedView, wrapper)
    marked.director_only = False
    marked.team_only = False
    marked.club_only = DIRECTOR  # read by the URL access test
    return marked


@_member_editor
@require_POST
def member_consent(request: HttpRequest, member: Member) -> HttpResponse:
    """Whether the member's name may show on the club's public pages."""
    form = ConsentForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose whether the name may be shown. Nothing was changed."))
    else:
        consent = form.cleaned_data["consent"]
        member_consent_set(member=member, consent=consent, by=request.user)
        text = (
            _("%(name)s's name shows on the public pages.")
            if consent
            else _("%(name)s's name no longer shows on the public pages.")
        )
        messages.success(request, text % {"name": member.name})
    return redirect("member_edit", pk=member.pk)


@director_required
@when_finished  # a player's privacy is theirs, finished tournament or not
@require_POST
def player_consent(request: HttpRequest, tournament: Tournament, pk: int) -> HttpResponse:
    """Whether the player's name may show on this tournament's public pages."""
    player = get_object_or_404(Player, tournament=tournament, pk=pk)
    form = ConsentForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose whether the name may be shown. Nothing was changed."))
    else:
        consent = form.cleaned_data["consent"]
        player_consent_set(player=player, consent=consent)
        text = (
            _("%(name)s's name shows on the public pages.")
            if consent
            else _("%(name)s's name no longer shows on the public pages.")
        )
        messages.success(request, text % {"name": player.name})
    return redirect("player_detail", slug=tournament.slug, pk=pk)
