"""An invitation's link by e-mail, besides its QR code on the page.

The mail names the club (and the tournament), the role, who invites and until when the link
works; the link is the one the page shows. A mail that cannot be sent leaves the invitation as
it is: the page says so and shows the link and QR code to hand over instead.
"""

from __future__ import annotations

from dataclasses import dataclass

from tournament.mail.sending import Sent, mail_send
from tournament.models import TeamInvitation


@dataclass(frozen=True, slots=True)
class InvitationMailed:
    """What became of the mail of an invitation to ``address``."""

    address: str
    sent: Sent

    @property
    def ok(self) -> bool:
        return self.sent == Sent.SENT


def invitation_mail_send(*, invitation: TeamInvitation, join_url: str, to: str) -> InvitationMailed:
    """Mail ``join_url``, the link of ``invitation``, to ``to``."""
    maker = invitation.created_by
    context = {
        "club": invitation.club,
        "tournament": invitation.tournament,
        "role": TeamInvitation.Role(invitation.role).label,  # in the mail's language
        "by": maker.get_username() if maker is not None else "",
        "join_url": join_url,
        "expires_at": invitation.expires_at,
    }
    return InvitationMailed(address=to, sent=mail_send(name="invitation", to=[to], context=context))
