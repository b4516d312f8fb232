"""Importing a competition file (``competition_import``): checked whole first, then stored in
one transaction: the register's members (matched to those the site has), each evening's
tournament, its players tied to members and the open questions. The file's shape and
check: ``season.file``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext as _

from tournament.clubs.services import club_sole
from tournament.errors import Refused
from tournament.models import (
    Club,
    ClubRole,
    Competition,
    CompetitionEvening,
    Member,
    MemberQuestion,
    Player,
)
from tournament.season.file import SeasonFileRefusal, competition_file_check, file_evening_label
from tournament.season.matching import member_key
from tournament.season.numbering import evenings_renumber
from tournament.season.services import RESERVED_SLUGS, competition_unique_slug
from tournament.text import text_normalised
from tournament.tournament_file.importing import tournament_restore


@dataclass(frozen=True)
class CompetitionImported:
    """The competition an import made, with what it could not restore as the file says."""

    competition: Competition
    notes: list[str] = field(default_factory=list)


def _register(club: Club, file_members: list[dict[str, Any]]) -> dict[str, Member]:
    """The member of ``club``'s register for each of the file's: the one with the same member
    number, else the same name and club (trimmed, case folded), else a new member."""
    register = Member.objects.filter(register=club)
    by_number = {m.number: m for m in register.exclude(number="")}
    by_key: dict[tuple[str, str], Member] = {}
    for member in register.order_by("pk"):
        by_key.setdefault(member_key(member.name, member.club), member)
    found: dict[str, Member] = {}
    new: list[tuple[str, Member]] = []
    for item in file_members:
        number = text_normalised(item.get("number", ""))
        existing = by_number.get(number) if number else None
        if existing is None:
            existing = by_key.get(member_key(item["name"], item.get("club", "")))
        if existing is not None:
            found[item["id"]] = existing
            continue
        member = Member(
            register=club,
            name=text_normalised(item["name"]),
            club=text_normalised(item.get("club", "")),
            number=number,
            active=item.get("active", True),
            guest=item.get("guest", False),
        )
        new.append((item["id"], member))
        by_key[member_key(member.name, member.club)] = member
        if number:
            by_number[number] = member
    # One by one, in the file's order: the register lists equal names in that order again.
    for file_id, member in new:
        member.save()
        found[file_id] = member
    return found


@transaction.atomic
def competition_import(
    *, document: Any, club: Club | None = None, director: User | None = None
) -> CompetitionImported:
    """Create the competition of a checked file in ``club`` (without one: the site's one club):
    the register's members (matched to those of the club's register), each evening's
    tournament, its players tied to members, the open questions. ``director`` (the account
    importing, ``None`` from the command line) directs the evenings. Raises ``Refused`` with
    every problem; then nothing is stored."""
    competition_file_check(document)
    club = club if club is not None else club_sole()
    notes: list[str] = []
    settings = document.get("settings", {})
    members = _register(club, document.get("members", []))
    evenings = sorted(document["evenings"], key=lambda e: e["number"])
    for item in evenings:
        # The same person twice in one evening after matching to the register: refused.
        chosen = Counter(members[m].pk for m in item.get("members", {}).values())
        if any(count > 1 for count in chosen.values()):
            raise Refused.because(SeasonFileRefusal.MEMBER_TWICE, field=file_evening_label(0, item))
    competition = competition_from_file(club, document.get("slug"), document, notes)
    # The file names who ran the competition; here the club's directors and admins run it.
    user_model = get_user_model()
    names = settings.get("directors", [])
    in_club = set(
        ClubRole.objects.filter(
            club=club, **{f"user__{user_model.USERNAME_FIELD}__in": names}
        ).values_list(f"user__{user_model.USERNAME_FIELD}", flat=True)
    )
    for name in names:
        if name not in in_club:
            notes.append(
                _(
                    "%(name)s ran the competition in the file but has no role in this club: "
                    "invite them on the club's page if they should."
                )
                % {"name": name}
            )

    for item in evenings:
        label = file_evening_label(0, item)
        outcome = tournament_restore(
            document=item["tournament"], club=club, director=director, link_members=False
        )
        tournament = outcome.tournament
        notes.extend(f"{label}: {note}" for note in outcome.notes)
        players = {p.file_id: p for p in Player.objects.filter(tournament=tournament)}
        linked = []
        for file_id, member in item.get("members", {}).items():
            player = players[file_id]
            player.member = members[member]
            linked.append(player)
        Player.objects.bulk_update(linked, ["member"])
        MemberQuestion.objects.bulk_create(
            [
                MemberQuestion(player=players[file_id], member=member)
                for file_id, asked in item.get("questions", {}).items()
                for member in {members[m].pk: members[m] for m in asked}.values()
            ]
        )
        CompetitionEvening.objects.create(
            competition=competition, tournament=tournament, number=item["number"]
        )
    evenings_renumber(competition=competition)  # by date, whatever the file's order
    return CompetitionImported(competition=competition, notes=notes)


def competition_from_file(
    club: Club, slug: str | None, document: dict[str, Any], notes: list[str]
) -> Competition:
    """The competition of a checked file, made in ``club`` under ``slug`` when it is free (else
    a new short name, said in ``notes``), with the file's settings."""
    settings = document.get("settings", {})
    if not slug or slug in RESERVED_SLUGS or Competition.objects.filter(slug=slug).exists():
        wanted = slug
        slug = competition_unique_slug(f"{document['name']} {document.get('season', '')}")
        if wanted:
            notes.append(
                _("The short name %(wanted)s is in use; the competition is %(slug)s.")
                % {"wanted": wanted, "slug": slug}
            )
    return Competition.objects.create(
        club=club,
        slug=slug,
        name=text_normalised(document["name"]),
        season=text_normalised(document.get("season", "")),
        best=settings.get("best"),
        min_evenings=settings.get("min_evenings", 0),
        ranking=settings.get("ranking", Competition.Ranking.BEST),
        public=settings.get("public", False),
        season_seating=settings.get("season_seating", False),
    )
