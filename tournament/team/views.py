"""The team page (who directs and who keeps score; invitations; removing someone) and the page
an invitation link opens, where a new team member picks a username and a password.

The rules (one-time links, the last director stays, joining under a lock) are
``tournament.team.services``'s.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth.forms import BaseUserCreationForm
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from tournament.clubs.current import club_choose
from tournament.clubs.roles import ROLE_DESCRIPTIONS
from tournament.errors import Refused
from tournament.mail.addresses import AddressField, address_form_error
from tournament.mail.invitations import InvitationMailed
from tournament.mail.sending import email_enabled
from tournament.models import TeamInvitation, Tournament
from tournament.permissions import SignedInRequest, director_required, when_finished
from tournament.team.confirmation_rule import (
    confirmation_rule_explained,
    confirmation_rule_set,
)
from tournament.team.invitation_mail import (
    invitation_join_url,
    invitation_mail,
    invite_form_problem,
)
from tournament.team.services import (
    DEAD_LINK,
    IssuedInvitation,
    Role,
    TeamRefusal,
    invitation_hours,
    team_invitation_by_token,
    team_invitation_create,
    team_invitation_revoke,
    team_join,
    team_join_new_account,
    team_member_remove,
    team_members,
    team_pending_invitations,
)
from tournament.venue.qr import qr_data_uri
from tournament.venue.site_address import address_warnings

# The sign-in backend for someone who has just chosen their password (several are configured).
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


class InviteForm(forms.Form):
    # A scorer first: the role most invitations are for, and the one that can do least harm
    # when chosen by accident.
    role = forms.ChoiceField(
        label=gettext_lazy("Role"),
        choices=[(Role.SCORER, Role.SCORER.label), (Role.CO_DIRECTOR, Role.CO_DIRECTOR.label)],
        initial=Role.SCORER,
    )
    email = AddressField(
        label=gettext_lazy("E-mail address (optional)"),
        help_text=gettext_lazy("The link is mailed there too."),
    )


class RemoveForm(forms.Form):
    user = forms.IntegerField(widget=forms.HiddenInput)
    role = forms.ChoiceField(
        choices=[(Role.SCORER, Role.SCORER.label), (Role.CO_DIRECTOR, Role.CO_DIRECTOR.label)],
        widget=forms.HiddenInput,
    )
    leaving = forms.BooleanField(required=False, widget=forms.HiddenInput)


class ConfirmationRuleForm(forms.Form):
    """How sheets are confirmed, chosen on the team page; ``next``: the page to go back to (a
    sheet's confirm page that offered the choice)."""

    confirmation_rule = forms.ChoiceField(
        label=gettext_lazy("How sheets are confirmed"),
        choices=Tournament.ConfirmationRule.choices,
        widget=forms.RadioSelect,
    )
    next = forms.CharField(required=False, widget=forms.HiddenInput)


class JoinForm(BaseUserCreationForm[User]):
    """A username and a password, twice, checked by Django's password validators. The
    account itself is made by ``team_join_new_account``."""

    class Meta(BaseUserCreationForm.Meta):
        model = get_user_model()
        fields = ("username",)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.is_bound:
            # Sent back with mistakes: the page opens at their summary, not in the username.
            self.fields["username"].widget.attrs.pop("autofocus", None)

    email = AddressField(
        label=gettext_lazy("E-mail address (optional)"),
        help_text=gettext_lazy(
            "For a new password by mail when you forget yours. Nobody else sees it."
        ),
    )

    def clean_email(self) -> str:
        address: str = self.cleaned_data["email"]
        address_form_error(address)
        return address

    def clean_username(self) -> str:
        username: str = self.cleaned_data["username"]
        if get_user_model().objects.filter(username__iexact=username).exists():
            raise forms.ValidationError(TeamRefusal.USERNAME_TAKEN.label, code="username_taken")
        return username

    def validate_password_for_user(
        self,
        user: User,
        password_field_name: str = "password1",  # noqa: S107 (a field's name)
    ) -> None:
        """A password too short or too common is told under the password, where it was
        chosen (Django tells it under the confirmation)."""
        # (django-stubs leave out that BaseUserCreationForm is a SetPasswordMixin.)
        super().validate_password_for_user(  # type: ignore[misc]
            user, password_field_name=password_field_name
        )


def _team_page(
    request: HttpRequest,
    tournament: Tournament,
    *,
    issued: IssuedInvitation | None = None,
    mailed: InvitationMailed | None = None,
    status: int = 200,
) -> HttpResponse:
    members = team_members(tournament)
    join_url = invitation_join_url(request, issued) if issued is not None else None
    return render(
        request,
        "team/team.html",
        {
            "tournament": tournament,
            "tab": "team",
            "members": members,
            "last_director": sum(m.role == Role.CO_DIRECTOR for m in members) <= 1,
            "invitations": team_pending_invitations(tournament),
            "invite_form": InviteForm(),
            "issued": issued,
            "mailed": mailed,
            "email_enabled": email_enabled(),
            "join_url": join_url,
            "qr": qr_data_uri(join_url) if join_url else None,
            "hours": invitation_hours(),
            "rule": confirmation_rule_explained(tournament),
            "rule_form": ConfirmationRuleForm(
                initial={"confirmation_rule": tournament.confirmation_rule}
            ),
            "role_descriptions": [
                ROLE_DESCRIPTIONS[Role.CO_DIRECTOR],
                ROLE_DESCRIPTIONS[Role.SCORER],
                ROLE_DESCRIPTIONS["club_admin"],
            ],
            # The invitation link uses the address for phones: warn as the print page does.
            **address_warnings(request, club=tournament.club),
        },
        status=status,
    )


@director_required
def team(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    return _team_page(request, tournament)


@never_cache
@director_required
@when_finished  # the team may change once the tournament is finished
@require_http_methods(["GET", "POST"])
def team_invite(request: SignedInRequest, tournament: Tournament) -> HttpResponse:
    """Make an invitation and show its link once (this response only; it is never stored).

    A GET (the page reloaded, the language switched) goes back to the team page, where the
    invitation is listed and can be withdrawn or made again."""
    if request.method == "GET":
        return redirect("team", slug=tournament.slug)
    form = InviteForm(request.POST)
    if not form.is_valid():
        messages.error(request, invite_form_problem(form))
        return redirect("team", slug=tournament.slug)
    issued = team_invitation_create(
        tournament=tournament,
        role=form.cleaned_data["role"],
        by_user=request.user,
        email=form.cleaned_data["email"],
    )
    mailed = invitation_mail(request, issued, form.cleaned_data["email"])
    response = _team_page(request, tournament, issued=issued, mailed=mailed)
    response["Referrer-Policy"] = "same-origin"
    return response


@director_required
@require_POST
def team_confirmation_rule(request: HttpRequest, tournament: Tournament) -> HttpResponse:
    """Choose how sheets are confirmed (the tournament's setting, also on its settings page)."""
    form = ConfirmationRuleForm(request.POST)
    back = reverse("team", args=[tournament.slug]) + "#confirmation-rule"
    if not form.is_valid():
        messages.error(request, _("Choose how sheets are confirmed."))
        return redirect(back)
    try:
        confirmation_rule_set(tournament=tournament, rule=form.cleaned_data["confirmation_rule"])
    except Refused as refused:
        messages.error(request, refused.message)
        return redirect(back)
    messages.success(
        request,
        _("Saved: %(rule)s.") % {"rule": confirmation_rule_explained(tournament).title},
    )
    wanted = form.cleaned_data["next"]
    if wanted.startswith("/") and url_has_allowed_host_and_scheme(
        wanted, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return redirect(wanted)
    return redirect(back)


@director_required
@when_finished  # the team may change once the tournament is finished
@require_POST
def team_remove(request: SignedInRequest, tournament: Tournament) -> HttpResponse:
    form = RemoveForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("The removal was not understood. Try again."))
        return redirect("team", slug=tournament.slug)
    member = get_object_or_404(get_user_model(), pk=form.cleaned_data["user"])
    try:
        team_member_remove(
            tournament=tournament,
            member=member,
            role=form.cleaned_data["role"],
            by_user=request.user,
            leaving=form.cleaned_data["leaving"],
        )
    except Refused as refused:
        messages.error(request, refused.message)
        return redirect("team", slug=tournament.slug)
    if member.pk == request.user.pk:
        messages.success(request, _("You have left the team of %(name)s.") % {"name": tournament})
        return redirect("tournament_list")
    messages.success(
        request,
        _("%(user)s is no longer on the team.") % {"user": member.get_username()},
    )
    return redirect("team", slug=tournament.slug)


@director_required
@when_finished  # the team may change once the tournament is finished
@require_POST
def team_invitation_revoke_view(
    request: HttpRequest, tournament: Tournament, pk: int
) -> HttpResponse:
    invitation = get_object_or_404(TeamInvitation, tournament=tournament, pk=pk)
    if team_invitation_revoke(invitation=invitation):
        messages.success(request, _("The invitation was withdrawn; its link no longer works."))
    else:
        messages.info(request, _("That invitation no longer worked."))
    return redirect("team", slug=tournament.slug)


def _link_refused(request: HttpRequest, refused: Refused) -> HttpResponse:
    status = 404 if refused.code == TeamRefusal.UNKNOWN else 410
    response = render(
        request, "team/join_refused.html", {"message": refused.message}, status=status
    )
    response["Referrer-Policy"] = "same-origin"
    return response


@never_cache
@require_http_methods(["GET", "POST"])
def team_join_view(request: HttpRequest, token: str) -> HttpResponse:
    """Join a tournament's team or a club with an invitation: with a new account, or (signed
    in) with the current one."""
    try:
        invitation = team_invitation_by_token(token)
    except Refused as refused:
        return _link_refused(request, refused)
    with_current = request.POST.get("as") == "current" and request.user.is_authenticated
    form = JoinForm(
        request.POST if request.method == "POST" and not with_current else None,
        initial={"email": invitation.email},  # the address it was mailed to
    )
    status = 200
    if request.method == "POST":
        try:
            user = _join(request, token, form, with_current=with_current)
        except Refused as refused:
            if refused.code in DEAD_LINK:
                return _link_refused(request, refused)
            messages.error(request, refused.message)
            status = 409
        else:
            if user is not None:
                messages.success(
                    request,
                    _("Welcome, %(user)s: you are on the team of %(name)s as %(role)s.")
                    % {
                        "user": user.get_username(),
                        "name": invitation.tournament or invitation.club,
                        "role": invitation.get_role_display(),
                    },
                )
                if invitation.tournament is None:
                    club_choose(request, invitation.club)
                    return redirect("tournament_list")
                return redirect("tournament_detail", slug=invitation.tournament.slug)
            status = 422
    response = render(
        request,
        "team/join.html",
        {
            "invitation": invitation,
            "form": form,
            "role_description": ROLE_DESCRIPTIONS[invitation.role],
        },
        status=status,
    )
    response["Referrer-Policy"] = "same-origin"
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


def _join(request: HttpRequest, token: str, form: JoinForm, *, with_current: bool) -> User | None:
    """The account that joined (signed in), or ``None`` when the form has mistakes."""
    if with_current and request.user.is_authenticated:
        team_join(token=token, user=request.user)
        return request.user
    if not form.is_valid():
        return None
    user = team_join_new_account(
        token=token,
        username=form.cleaned_data["username"],
        password=form.cleaned_data["password1"],
        email=form.cleaned_data["email"],
    )
    login(request, user, backend=MODEL_BACKEND)
    return user
