"""Writing the competition file (``competition_export``): the settings, the whole register
and each evening's v1 tournament document with the members its players are. The file's
shape: ``season.file``.
"""

from __future__ import annotations

from typing import Any

from tournament.models import (
    ClubRole,
    Competition,
    CompetitionEvening,
    Member,
    MemberQuestion,
    Player,
)
from tournament.season.file import FORMAT, VERSION
from tournament.tournament_file.exporting import tournament_export


def competition_export(*, competition: Competition, site: bool = True) -> dict[str, Any]:
    """The competition file: settings, the club's whole register, and each evening's v1
    document with the members its players are (``site``: each evening carries the site's
    records, as a tournament backup does)."""
    members = list(Member.objects.filter(register=competition.club).order_by("name", "pk"))
    member_id = {m.pk: f"m{n}" for n, m in enumerate(members, 1)}
    evenings = []
    for evening in (
        CompetitionEvening.objects.filter(competition=competition)
        .select_related("tournament")
        .order_by("number")
    ):
        tournament = evening.tournament
        players = Player.objects.filter(tournament=tournament).order_by("pk")
        linked = {p.file_id: member_id[p.member_id] for p in players if p.member_id is not None}
        questions: dict[str, list[str]] = {}
        for file_id, member in (
            MemberQuestion.objects.filter(player__tournament=tournament, member__isnull=False)
            .order_by("player_id", "member__name", "member_id")
            .values_list("player__file_id", "member_id")
        ):
            questions.setdefault(file_id, []).append(member_id[member])
        item: dict[str, Any] = {"number": evening.number, "members": linked}
        if questions:
            item["questions"] = questions
        item["tournament"] = tournament_export(tournament=tournament, site=site, members=False)
        evenings.append(item)
    return {
        "format": FORMAT,
        "version": VERSION,
        "name": competition.name,
        "season": competition.season,
        "slug": competition.slug,
        "settings": {
            "best": competition.best,
            "min_evenings": competition.min_evenings,
            "ranking": competition.ranking,
            "public": competition.public,
            "season_seating": competition.season_seating,
            # Who runs it: the club's admins (the directors of its evenings are in each
            # evening's own team).
            "directors": sorted(
                ClubRole.objects.filter(
                    club=competition.club, role=ClubRole.Role.ADMIN
                ).values_list("user__username", flat=True)
            ),
        },
        "members": [
            {
                "id": member_id[m.pk],
                "name": m.name,
                "club": m.club,
                "number": m.number,
                "active": m.active,
                "guest": m.guest,
            }
            for m in members
        ],
        "evenings": evenings,
    }
