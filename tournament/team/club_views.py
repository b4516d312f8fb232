"""The club's page for its admins: its name and settings, its people and their roles, and the
invitations that bring in a director or a club admin (made and joined like a tournament's
team)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from tournament.clubs.forms import ClubInviteForm, ClubRoleForm, ClubSettingsForm
from tournament.clubs.roles import CLUB_ROLE_DESCRIPTIONS, ROLE_DESCRIPTIONS
from tournament.clubs.services import (
    club_member_remove,
    club_people,
    club_role_change,
    club_update,
)
from tournament.errors import Refused, form_page_status
from tournament.mail.invitations import InvitationMailed
from tournament.mail.sending import email_enabled
from tournament.models import Club, ClubRole, TeamInvitation
from tournament.permissions import ADMIN, SignedInRequest, club_required
from tournament.team.invitation_mail import (
    invitation_join_url,
    invitation_mail,
    invite_form_problem,
)
from tournament.team.services import (
    IssuedInvitation,
    invitation_hours,
    team_invitation_create,
    team_invitation_revoke,
    team_pending_invitations,
)
from tournament.venue.qr import qr_data_uri
from tournament.venue.site_address import address_warnings, operator_site_url


def _club_page(
    request: HttpRequest,
    club: Club,
    *,
    form: ClubSettingsForm | None = None,
    issued: IssuedInvitation | None = None,
    mailed: InvitationMailed | None = None,
    status: int = 200,
) -> HttpResponse:
    join_url = invitation_join_url(request, issued) if issued is not None else None
    people = club_people(club)
    return render(
        request,
        "clubs/club.html",
        {
            "club": club,
            "form": form or ClubSettingsForm(instance=club),
            "people": people,
            "club_role_choices": ClubRole.Role.choices,
            "role_descriptions": [
                *CLUB_ROLE_DESCRIPTIONS.values(),
                ROLE_DESCRIPTIONS["director"],
                ROLE_DESCRIPTIONS["scorer"],
            ],
            "invite_form": ClubInviteForm(),
            "invitations": team_pending_invitations(club=club),
            "issued": issued,
            "mailed": mailed,
            "email_enabled": email_enabled(),
            "join_url": join_url,
            "qr": qr_data_uri(join_url) if join_url else None,
            "hours": invitation_hours(),
            "address_fixed": bool(operator_site_url()),
            **address_warnings(request, club=club),
        },
        status=status,
    )


@club_required(ADMIN)
def club_page(request: HttpRequest, club: Club) -> HttpResponse:
    """The club's name and settings (saved here), its people and the invitations."""
    form = ClubSettingsForm(request.POST or None, instance=club)
    if request.method == "POST" and form.is_valid():
        try:
            club_update(
                club=Club.objects.get(pk=club.pk),
                name=form.cleaned_data["name"],
                directors_edit_register=form.cleaned_data["directors_edit_register"],
            )
        except Refused as refused:
            form.add_error("name", refused.message)
        else:
            messages.success(request, _("Settings saved."))
            return redirect("club_page")
    if request.method == "POST":
        club.refresh_from_db()
    return _club_page(request, club, form=form, status=form_page_status(request))


@never_cache
@club_required(ADMIN)
@require_POST
def club_invite(request: SignedInRequest, club: Club) -> HttpResponse:
    """Make an invitation to the club and show its link once (this response only)."""
    form = ClubInviteForm(request.POST)
    if not form.is_valid():
        messages.error(request, invite_form_problem(form))
        return redirect("club_page")
    issued = team_invitation_create(
        club=club,
        role=form.cleaned_data["role"],
        by_user=request.user,
        email=form.cleaned_data["email"],
    )
    mailed = invitation_mail(request, issued, form.cleaned_data["email"])
    response = _club_page(request, club, issued=issued, mailed=mailed)
    response["Referrer-Policy"] = "same-origin"
    return response


def _person(club: Club, pk: int) -> User:
    return get_object_or_404(get_user_model(), pk=pk, club_roles__club=club)


@club_required(ADMIN)
@require_POST
def club_role(request: SignedInRequest, club: Club, pk: int) -> HttpResponse:
    person = _person(club, pk)
    form = ClubRoleForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose a role."))
        return redirect("club_page")
    try:
        changed = club_role_change(
            club=club, user=person, role=form.cleaned_data["role"], by_user=request.user
        )
    except Refused as refused:
        messages.error(request, refused.message)
    else:
        messages.success(
            request,
            _("%(user)s is now %(role)s.")
            % {
                "user": person.get_username(),
                "role": changed.get_role_display(),
            },
        )
    return redirect("club_page")


@club_required(ADMIN)
@require_POST
def club_remove(request: SignedInRequest, club: Club, pk: int) -> HttpResponse:
    person = _person(club, pk)
    try:
        club_member_remove(club=club, user=person, by_user=request.user)
    except Refused as refused:
        messages.error(request, refused.message)
    else:
        messages.success(
            request,
            _("%(user)s no longer has a role in %(club)s.")
            % {"user": person.get_username(), "club": club},
        )
    return redirect("club_page")


@club_required(ADMIN)
@require_POST
def club_invitation_revoke(request: HttpRequest, club: Club, pk: int) -> HttpResponse:
    invitation = get_object_or_404(TeamInvitation, club=club, tournament__isnull=True, pk=pk)
    if team_invitation_revoke(invitation=invitation):
        messages.success(request, _("The invitation was withdrawn; its link no longer works."))
    else:
        messages.info(request, _("That invitation no longer worked."))
    return redirect("club_page")
