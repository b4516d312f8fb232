"""An invitation's link by e-mail, besides its QR code on the page.

The mail names the club (and the tournament), the role, who invites and until when the link
works; the link is the one the page shows. A mail that cannot be sent leaves the invitation as
it is: the page says so and shows the link and QR code to hand over instead. So does one
mailed too often (``mail.throttle``: per inviting account and per address invited): the
invitation is made, the mail is not sent.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from tournament.mail.addresses import address_key
from tournament.mail.sending import Sent, mail_send
from tournament.mail.throttle import invitation_mail_throttled
from tournament.models import TeamInvitation

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class InvitationMailed:
    """What became of the mail of an invitation to ``address``."""

    address: str
    sent: Sent

    @property
    def ok(self) -> bool:
        return self.sent == Sent.SENT


def invitation_mail_send(*, invitation: TeamInvitation, join_url: str, to: str) -> InvitationMailed:
    """Mail ``join_url``, the link of ``invitation``, to ``to`` (not when its maker or ``to``
    had too many invitation mails lately: ``THROTTLED``)."""
    maker = invitation.created_by
    throttled = invitation_mail_throttled(
        inviter=maker.pk if maker is not None else None, address=address_key(to)
    )
    if throttled is not None:
        logger.warning("invitation mail not sent: too many per %s", throttled)
        return InvitationMailed(address=to, sent=Sent.THROTTLED)
    context = {
        "club": invitation.club,
        "tournament": invitation.tournament,
        "role": TeamInvitation.Role(invitation.role).label,  # in the mail's language
        "by": maker.get_username() if maker is not None else "",
        "join_url": join_url,
        "expires_at": invitation.expires_at,
    }
    return InvitationMailed(address=to, sent=mail_send(name="invitation", to=[to], context=context))
