"""The privacy boxes of the member's and the player's pages."""

from __future__ import annotations

from typing import Any

from django import template

from tournament.clubs.roles import is_club_admin, may_edit_member
from tournament.models import Member, Player, Tournament

register = template.Library()


@register.inclusion_tag("privacy/_member_privacy.html", takes_context=True)
def member_privacy(context: dict[str, Any], member: Member) -> dict[str, Any]:
    user = context["request"].user
    return {
        "member": member,
        "privacy_editable": may_edit_member(user, member),
        "privacy_admin": is_club_admin(user, member.register),
        "csrf_token": context.get("csrf_token"),
    }


@register.inclusion_tag("privacy/_player_privacy.html", takes_context=True)
def player_privacy(
    context: dict[str, Any], player: Player, tournament: Tournament
) -> dict[str, Any]:
    return {"player": player, "tournament": tournament, "csrf_token": context.get("csrf_token")}
