"""An invitation's link, mailed when the inviter typed an address (the team page's and the
club page's): the same link the page shows under its QR code."""

from __future__ import annotations

from django import forms
from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import gettext as _

from tournament.mail.invitations import InvitationMailed, invitation_mail_send
from tournament.mail.sending import Sent, email_enabled
from tournament.team.services import IssuedInvitation
from tournament.venue.site_address import absolute_url


def invitation_join_url(request: HttpRequest, issued: IssuedInvitation) -> str:
    """The link of ``issued`` as a phone opens it (the club's address for phones)."""
    path = reverse("team_join", args=[issued.token])
    return absolute_url(path, request, club=issued.invitation.club)


def invitation_mail(
    request: HttpRequest, issued: IssuedInvitation, to: str
) -> InvitationMailed | None:
    """Mail the link of ``issued`` to ``to``; ``None`` when no address was given."""
    if not to:
        return None
    if not email_enabled():
        return InvitationMailed(address=to, sent=Sent.OFF)
    return invitation_mail_send(
        invitation=issued.invitation, join_url=invitation_join_url(request, issued), to=to
    )


def invite_form_problem(form: forms.Form) -> str:
    """What the team or club page says of an invitation form it refused."""
    if "email" in form.errors:
        return _("No invitation made: %(problem)s") % {"problem": form.errors["email"][0]}
    return _("Choose the role of the person you invite.")
