"""Restoring which member each player is (``x-site``'s ``members``): by the member, never by
name. The record names a member by its id and the time its record was made, which together
name one record of one database: a member renamed since ("Ria Visser" became "Ria
Visser-de Groot") is found again and stays one person. A member the restoring club's register
does not have (deleted or merged away since, or a file of another club or another site) is
asked about with the season's questions (``MemberQuestion``): the register's members of that
member number or that name (folded as everywhere, ``tournament.names``) when there are any,
else "who is this?", answered with any member of the register. Nobody is created.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import ngettext

from tournament.models import Member, MemberQuestion, Player
from tournament.models import Tournament as TournamentModel
from tournament.names import folded
from tournament.tournament_file.site import SITE_KEY, parse_time


def site_members_restore(*, tournament: TournamentModel, document: dict[str, Any]) -> list[str]:
    """Tie the freshly imported ``tournament``'s players to the members the checked file names
    (see the module); returns what could not be done as the file says, in sentences."""
    items = (document.get("settings", {}).get(SITE_KEY) or {}).get("members", [])
    if not items:
        return []
    players = {p.file_id: p for p in Player.objects.filter(tournament=tournament)}
    register = list(Member.objects.filter(register=tournament.club).order_by("pk"))
    by_pk = {member.pk: member for member in register}
    taken: set[int] = set()
    linked: list[Player] = []
    missing: list[tuple[Player, dict[str, Any]]] = []
    for item in items:
        player = players[item["player"]]
        member = by_pk.get(item["id"])
        if member is not None and member.created_at == parse_time(item["created_at"]):
            player.member = member
            linked.append(player)
            taken.add(member.pk)
        else:
            missing.append((player, item))
    Player.objects.bulk_update(linked, ["member"])
    if not missing:
        return []
    others = [m for m in register if m.pk not in taken]
    questions = []
    for player, item in missing:
        number = item.get("number", "")
        same = {folded(item["name"]), folded(player.name)}
        maybe = [m for m in others if (number and m.number == number) or folded(m.name) in same]
        questions.extend(
            [MemberQuestion(player=player, member=m) for m in maybe]
            or [MemberQuestion(player=player, member=None)]
        )
    MemberQuestion.objects.bulk_create(questions)
    names = ", ".join(player.name for player, _item in missing)
    return [
        ngettext(
            "%(count)s player was a member this register does not have (deleted since, or "
            "another club's): %(names)s. They count for nobody in a competition until you say "
            "who they are, on the competition's page “Same person?”.",
            "%(count)s players were members this register does not have (deleted since, or "
            "another club's): %(names)s. They count for nobody in a competition until you say "
            "who they are, on the competition's page “Same person?”.",
            len(missing),
        )
        % {"count": len(missing), "names": names}
    ]
