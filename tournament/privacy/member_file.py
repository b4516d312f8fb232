"""A member's data as one JSON file, for a member who asks what the club keeps of them (AVG,
right of access): the register record, every tournament player record tied to them with its
scores per round, and every season of the club they played in. Other people's names are not
in it (opponents are left out)."""

from __future__ import annotations

import datetime
import json
from typing import Any

from django.utils import timezone

from tournament.models import Competition, Member, Player
from tournament.season.selectors import season_of
from tournament.standings.player_page import public_player_page

FORMAT = "bollen-member-data-v1"


def _day(value: datetime.date | None) -> str | None:
    return value.isoformat() if value is not None else None


def _player(player: Player) -> dict[str, Any]:
    tournament = player.tournament
    page = public_player_page(tournament, player.pk)
    record: dict[str, Any] = {
        "tournament": tournament.name,
        "tournament_slug": tournament.slug,
        "date": _day(tournament.date),
        "place": tournament.place,
        "finished": tournament.finished,
        "player": {
            "name": player.name,
            "club": player.club,
            "plays_from_round": player.joined_round,
            "withdrawn_from_round": player.withdrawn_round,
            "public_consent": player.public_consent,
        },
    }
    if page is not None:
        record |= {
            "rank": page.rank,
            "players_ranked": page.players_ranked,
            "tournament_points": page.tournament_points,
            "bollen": page.bollen,
            "correct": page.correct,
            "provisional": page.provisional,
            "rounds": [
                {
                    "round": r.number,
                    "table": r.table,
                    "seat": r.seat,
                    "tournament_points": r.tournament_points,
                    "bollen": r.bollen,
                    "correct": r.correct,
                    "points": r.points,
                    "provisional": r.provisional,
                }
                for r in page.rounds
            ],
        }
    return record


def _seasons(member: Member) -> list[dict[str, Any]]:
    out = []
    competitions = Competition.objects.filter(
        club=member.register, evenings__tournament__players__member=member
    ).distinct()
    for competition in competitions:
        season = season_of(competition)
        rows = [r for r in season.rows if r.member == member.pk]
        guests = [g for g in season.guests if g.member == member.pk]
        for row in rows + guests:
            out.append(
                {
                    "competition": str(competition),
                    "competition_slug": competition.slug,
                    "guest": row in guests,
                    "rank": getattr(row, "rank", None),
                    "points": row.points,
                    "bollen": row.bollen,
                    "correct": row.correct,
                    "evenings_played": row.played,
                    "evenings": [
                        {
                            "evening": number,
                            "points": None if result is None else result.points,
                            "counted": number in getattr(row, "counted", ()),
                        }
                        for number, result in zip(season.numbers, row.per_evening, strict=True)
                    ],
                }
            )
    return out


def member_data(member: Member) -> dict[str, Any]:
    """Everything the site keeps of ``member``, as plain values."""
    players = Player.objects.filter(member=member).select_related("tournament__club")
    return {
        "format": FORMAT,
        "made_at": timezone.now().isoformat(),
        "club": {"name": member.register.name, "slug": member.register.slug},
        "member": {
            "name": member.name,
            "club": member.club,
            "number": member.number,
            "active": member.active,
            "guest": member.guest,
            "public_consent": member.public_consent,
            "in_register_since": member.created_at.isoformat(),
        },
        "tournaments": [
            _player(p)
            for p in sorted(players, key=lambda p: (p.tournament.date or datetime.date.min, p.pk))
        ],
        "seasons": _seasons(member),
    }


def member_data_json(member: Member) -> bytes:
    return json.dumps(member_data(member), ensure_ascii=False, indent=1).encode()
