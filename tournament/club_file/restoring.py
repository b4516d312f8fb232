"""Restoring a checked club backup into a new, empty club (``club_restore``), in one
transaction: the club's settings, its people's roles (on the accounts of those usernames this
site has), the register, every tournament (``tournament_restore``, with its site records) with
its players tied to their members again, every competition with its evenings and open
questions. A refusal anywhere leaves nothing behind, and nothing of another club is touched:
the backup only ever adds to the club it is restored into.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import models, transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournament.club_file.photos import photos_restore
from tournament.club_file.reading import ClubBackup, club_backup_read
from tournament.club_file.writing import CLUB_SKIPPED, LOG_SKIPPED, MEMBER_SKIPPED
from tournament.errors import Refused
from tournament.models import (
    Club,
    ClubAddressChange,
    ClubLogEntry,
    ClubRole,
    Competition,
    CompetitionEvening,
    Member,
    MemberQuestion,
    Player,
    Tournament,
)
from tournament.season.file_import import competition_from_file
from tournament.season.numbering import evenings_renumber
from tournament.text import text_normalised
from tournament.tournament_file.importing import RESERVED_SLUGS, tournament_restore
from tournament.tournament_file.site import SITE_KEY, parse_time
from tournament.venue.forms import SiteAddressForm
from tournament.venue.site_address import operator_site_url


class ClubRestoreRefusal(models.TextChoices):
    NOT_EMPTY = (
        "club_restore_not_empty",
        gettext_lazy(
            "This club already has tournaments, competitions or members: a backup is restored "
            "into a new, empty club only, so nothing of the two gets mixed. Make a new club "
            "first."
        ),
    )


@dataclass(frozen=True)
class ClubRestored:
    """The club restored, its new tournaments and competitions by their short names in the
    backup, and what could not be restored as the backup says, in sentences."""

    club: Club
    tournaments: dict[str, Tournament]
    competitions: dict[str, Competition]
    notes: list[str] = field(default_factory=list)


def club_is_empty(club: Club) -> bool:
    """Nothing of the club's own yet: no tournament, competition or member (people may be)."""
    return not (
        Tournament.objects.filter(club=club).exists()
        or Competition.objects.filter(club=club).exists()
        or Member.objects.filter(register=club).exists()
    )


def _cleaned(
    model: type[models.Model], values: dict[str, Any], skipped: frozenset[str]
) -> dict[str, Any]:
    """The values as the model's fields take them (checked by ``reading`` already)."""
    fields = {
        f.name: f
        for f in model._meta.concrete_fields
        if f.name not in skipped and not f.is_relation
    }
    return {key: fields[key].clean(value, None) for key, value in values.items() if key in fields}


def _site_url(club: Club, values: dict[str, Any]) -> list[str]:
    """Leave out the backup's address for phones unless the club's address page would take it
    (``SITE_URL`` not set; on a site of several clubs, a host the site answers to); a note."""
    url = values.pop("site_url", club.site_url)
    if url == club.site_url:
        return []
    several = Club.objects.exclude(pk=club.pk).exists()
    form = SiteAddressForm({"site_url": url}, answered_only=several)
    if not operator_site_url() and form.is_valid():
        values["site_url"] = form.cleaned_data["site_url"]
        return []
    return [
        _(
            "The backup's address for phones (%(url)s) is not used on this site: set the "
            "address on the club's address page."
        )
        % {"url": url}
    ]


def _settings(club: Club, document: dict[str, Any], by_user: User | None) -> list[str]:
    values = _cleaned(Club, document.get("settings", {}), CLUB_SKIPPED)
    notes = _site_url(club, values)
    url = values.get("site_url", club.site_url)
    if url != club.site_url:
        ClubAddressChange.objects.create(
            club=club,
            changed_by=by_user,
            changed_by_name=by_user.get_username() if by_user else "",
            old_url=club.site_url,
            new_url=url,
        )
        notes.append(
            _(
                "The address for phones is the backup's: %(url)s. If this site is reached "
                "at another address, change it on the club's address page."
            )
            % {"url": url}
        )
    for key, value in values.items():
        setattr(club, key, value)
    club.save()
    return notes


def _people(club: Club, people: list[dict[str, str]]) -> list[str]:
    """The backup's roles on the accounts that are people of ``club`` already (a role the club
    gave stays, an admin stays admin); on a site of one club, on any account of the site (as
    ``tournament_file.site_restore`` does). Every other username, whether the site has such an
    account or not, in one note: a backup never gives a role to another club's people, nor
    says which accounts exist."""
    user_model = get_user_model()
    names = [p["username"] for p in people]
    found = user_model.objects.filter(**{f"{user_model.USERNAME_FIELD}__in": names})
    if Club.objects.exclude(pk=club.pk).exists():
        found = found.filter(club_roles__club=club)
    accounts = {u.get_username(): u for u in found}
    have = dict(ClubRole.objects.filter(club=club).values_list("user_id", "role"))
    left_out = []
    for person in people:
        user = accounts.get(person["username"])
        if user is None:
            left_out.append(person["username"])
        elif user.pk not in have:
            ClubRole.objects.create(club=club, user=user, role=person["role"])
        elif person["role"] == ClubRole.Role.ADMIN and have[user.pk] != ClubRole.Role.ADMIN:
            ClubRole.objects.filter(club=club, user=user).update(role=ClubRole.Role.ADMIN)
    if not left_out:
        return []
    return [
        _("Not given a role: %(names)s. Add them again on the club's page.")
        % {"names": ", ".join(left_out)}
    ]


def _register(
    club: Club, members: list[dict[str, Any]]
) -> tuple[dict[str, Member], dict[int, Member]]:
    """The register's members, made anew; by their file id and by their record in the site the
    backup was written on (``pk``, as the tournaments' site records name them)."""
    made = [
        Member(register=club, **_cleaned(Member, item, MEMBER_SKIPPED | {"pk"})) for item in members
    ]
    for member in made:
        member.name, member.club = text_normalised(member.name), text_normalised(member.club)
    Member.objects.bulk_create(made)
    for member, item in zip(made, members, strict=True):
        created = parse_time(item["created_at"])  # checked: a date and time
        if created is not None:  # kept: when the record was made
            member.created_at = created
    Member.objects.bulk_update(made, ["created_at"])
    by_id = {item["id"]: m for item, m in zip(members, made, strict=True)}
    by_pk = {item["pk"]: m for item, m in zip(members, made, strict=True)}
    return by_id, by_pk


def _log(club: Club, entries: list[dict[str, Any]]) -> None:
    """The club's log as it was, each entry at its own time; who did it is the backup's word,
    so each says it came from the backup ("back-up: anna")."""
    made = [ClubLogEntry(club=club, **_cleaned(ClubLogEntry, e, LOG_SKIPPED)) for e in entries]
    at = [entry.at for entry in made]
    for entry in made:
        entry.by = None
        entry.by_name = (
            _("backup: %(name)s") % {"name": entry.by_name} if entry.by_name else _("backup")
        )[:150]
    ClubLogEntry.objects.bulk_create(made)  # (sets ``at`` to now: put back below)
    for entry, moment in zip(made, at, strict=True):
        entry.at = moment
    ClubLogEntry.objects.bulk_update(made, ["at"])


def _tournament(
    club: Club, slug: str, document: dict[str, Any], by_pk: dict[int, Member], notes: list[str]
) -> Tournament:
    free = slug not in RESERVED_SLUGS and not Tournament.objects.filter(slug=slug).exists()
    outcome = tournament_restore(
        document=document, club=club, slug=slug if free else None, link_members=False
    )
    tournament = outcome.tournament
    if not free:
        notes.append(
            _("The short name %(wanted)s is in use on this site; “%(name)s” is %(slug)s.")
            % {"wanted": slug, "name": tournament.name, "slug": tournament.slug}
        )
    notes.extend(f"{tournament.name}: {note}" for note in outcome.notes)
    items = (document["settings"].get(SITE_KEY) or {}).get("members", [])
    if items:
        players = {p.file_id: p for p in Player.objects.filter(tournament=tournament)}
        linked = []
        for item in items:
            player = players[item["player"]]
            player.member = by_pk[item["id"]]
            linked.append(player)
        Player.objects.bulk_update(linked, ["member"])
    return tournament


def _competition(
    club: Club,
    slug: str,
    document: dict[str, Any],
    evenings: dict[int, Tournament],
    by_id: dict[str, Member],
    notes: list[str],
) -> Competition:
    competition = competition_from_file(club, slug, document, notes)
    asked = set(
        MemberQuestion.objects.filter(player__tournament__club=club).values_list(
            "player_id", "member_id"
        )
    )
    questions = []
    for item in document["evenings"]:
        tournament = evenings[item["number"]]
        CompetitionEvening.objects.create(
            competition=competition, tournament=tournament, number=item["number"]
        )
        players = {p.file_id: p for p in Player.objects.filter(tournament=tournament)}
        unlinked = []
        for file_id, member in item.get("members", {}).items():
            player = players[file_id]
            if player.member_id is None:  # the tournament's own record says it first
                player.member = by_id[member]
                unlinked.append(player)
        Player.objects.bulk_update(unlinked, ["member"])
        for file_id, members in item.get("questions", {}).items():
            for member in members:
                key = (players[file_id].pk, by_id[member].pk)
                if key not in asked:
                    asked.add(key)
                    questions.append(MemberQuestion(player=players[file_id], member=by_id[member]))
    MemberQuestion.objects.bulk_create(questions)
    evenings_renumber(competition=competition)
    return competition


@transaction.atomic
def club_restore(*, backup: ClubBackup, club: Club, by_user: User | None = None) -> ClubRestored:
    """Restore the checked ``backup`` into ``club``, which must be empty (see the module);
    ``Refused`` and nothing stored otherwise. ``by_user``: who restores (``None``: the
    command line)."""
    club = Club.objects.select_for_update().get(pk=club.pk)  # one restore of a club at a time
    if not club_is_empty(club):
        raise Refused.because(ClubRestoreRefusal.NOT_EMPTY)
    notes = _settings(club, backup.club, by_user)
    notes.extend(_people(club, backup.club.get("people", [])))
    by_id, by_pk = _register(club, backup.club.get("members", []))
    _log(club, backup.club.get("log", []))
    tournaments = {
        slug: _tournament(club, slug, document, by_pk, notes)
        for slug, document in backup.tournaments.items()
    }
    for slug, photos in backup.photos.items():
        photos_restore(club, tournaments[slug], photos, notes)
    competitions = {}
    for slug, document in backup.competitions.items():
        evenings = {number: tournaments[t] for number, t in backup.evenings[slug]}
        competitions[slug] = _competition(club, slug, document, evenings, by_id, notes)
    return ClubRestored(club=club, tournaments=tournaments, competitions=competitions, notes=notes)


def club_restore_file(*, data: bytes, club: Club, by_user: User | None = None) -> ClubRestored:
    """Read, check and restore the backup ``data`` into ``club``: refused before a byte of the
    zip is read when the club is not empty (then ``club_restore`` checks it again, locked)."""
    if not club_is_empty(club):
        raise Refused.because(ClubRestoreRefusal.NOT_EMPTY)
    return club_restore(backup=club_backup_read(data), club=club, by_user=by_user)
