"""What a club does for its members' privacy: consent, the club's choice of names in public,
erasure of a member and deleting the whole club. Each runs in one transaction: all or nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournament.models import (
    Club,
    Competition,
    EveningRemoval,
    Member,
    MemberQuestion,
    Player,
    Tournament,
)
from tournament.privacy.backups import Owner, backups_remove, backups_scrub
from tournament.privacy.caches import cache_keys_forget, tournament_cache_keys
from tournament.privacy.log import Action, club_log

AnyUser = User | AnonymousUser


class PrivacyRefused(Exception):
    """A request refused as a whole, nothing stored; ``message`` says why, for the user."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _forget_on_commit(tournaments: list[Tournament], before: list[str]) -> None:
    """Once committed, forget the cached names: the keys from before the change and after."""

    def forget() -> None:
        after = [key for t in tournaments for key in tournament_cache_keys(t)]
        cache_keys_forget(before + after)

    transaction.on_commit(forget)


def _keys(tournaments: list[Tournament]) -> list[str]:
    return [key for t in tournaments for key in tournament_cache_keys(t)]


def _tournaments_of(member: Member) -> list[Tournament]:
    return list(Tournament.objects.filter(players__member=member).select_related("club").distinct())


def _owners(club: Club, tournaments: list[Tournament]) -> list[Owner]:
    """Whose backup files an erasure or deletion in ``club`` may touch: ``tournaments`` and
    the club's evenings taken out (a deleted one's files end at its deletion). Never a whole
    folder: a slug freed by a deletion may hold another club's files (``privacy.backups``)."""
    owners = [Owner(slug=t.slug, club=t.club.slug, since=t.created_at) for t in tournaments]
    for removal in EveningRemoval.objects.filter(competition__club=club):
        deleted = removal.kind == EveningRemoval.Kind.DELETED
        owners.append(
            Owner(
                slug=removal.slug,
                club=club.slug,
                since=removal.tournament_created_at,
                until=removal.at if deleted else None,
            )
        )
    return owners


@transaction.atomic
def member_consent_set(*, member: Member, consent: bool, by: AnyUser) -> None:
    """Whether ``member``'s name may show on the club's public pages: for every evening of
    theirs, past ones too (their players' consent is set with it)."""
    tournaments = _tournaments_of(member)
    before = _keys(tournaments)
    Member.objects.filter(pk=member.pk).update(public_consent=consent)
    Player.objects.filter(member=member).update(public_consent=consent)
    member.public_consent = consent
    text = (
        _("Member #%(pk)s: name shown on public pages.")
        if consent
        else _("Member #%(pk)s: name no longer shown on public pages.")
    )
    club_log(club=member.register, by=by, action=Action.CONSENT, text=text % {"pk": member.pk})
    _forget_on_commit(tournaments, before)


@transaction.atomic
def player_consent_set(*, player: Player, consent: bool) -> None:
    """Whether the player's name may show on this tournament's public pages (a member who
    withdrew consent stays hidden: the member's choice counts for every evening)."""
    tournament = player.tournament
    before = _keys([tournament])
    Player.objects.filter(pk=player.pk).update(public_consent=consent)
    player.public_consent = consent
    _forget_on_commit([tournament], before)


@transaction.atomic
def club_privacy_update(*, club: Club, name_display: str, privacy_text: str, by: AnyUser) -> None:
    """The club's choice of names on public pages and its privacy statement."""
    if name_display not in Club.NameDisplay.values:
        raise PrivacyRefused(_("Choose how names are shown on the public pages."))
    # As stored: a form may have set the new values on ``club`` already.
    stored = Club.objects.select_for_update().get(pk=club.pk)
    club.name_display = name_display
    club.privacy_text = privacy_text.strip()
    club.save(update_fields=["name_display", "privacy_text"])
    lines = []
    if stored.name_display != club.name_display:
        shown = Club.NameDisplay(name_display).label
        lines.append(_("Names on public pages: %(shown)s.") % {"shown": shown})
    if stored.privacy_text != club.privacy_text:
        lines.append(_("Privacy statement changed."))
    if lines:
        club_log(club=club, by=by, action=Action.PRIVACY, text=" ".join(lines))


@dataclass(frozen=True, slots=True)
class Erased:
    """An erasure: the name the member has now and how many evenings it reached."""

    name: str
    players: int


@transaction.atomic
def member_erase(*, member: Member, by: AnyUser) -> Erased:
    """Erase ``member``: their name becomes "Oud-lid N" (N used once in the club) in the
    register, in every evening they played (their players) and in the backups of those
    evenings; their club, member number and consent go. Their results stay, so everybody
    else's standings are unchanged. Written in the club's log without the old name."""
    club = Club.objects.select_for_update().get(pk=member.register_id)
    member = Member.objects.select_for_update().get(pk=member.pk)
    players = list(Player.objects.filter(member=member).select_related("tournament"))
    old_names = {member.name} | {p.name for p in players}
    tournaments = _tournaments_of(member)
    before = _keys(tournaments)
    club.former_members += 1
    club.save(update_fields=["former_members"])
    name = _former_member_name(club)
    Member.objects.filter(pk=member.pk).update(
        name=name, club="", number="", public_consent=False, active=False
    )
    Player.objects.filter(member=member).update(name=name, club="", public_consent=False)
    # Questions "is this the same person?" asked about the member's old name.
    MemberQuestion.objects.filter(member=member).delete()
    owners = _owners(club, tournaments)
    replacements = {old: name for old in old_names if old and old != name}
    transaction.on_commit(lambda: backups_scrub(owners=owners, names=replacements))
    club_log(
        club=club,
        by=by,
        action=Action.ERASED,
        text=ngettext(
            "Member #%(pk)s erased: now %(name)s, in %(count)s evening.",
            "Member #%(pk)s erased: now %(name)s, in %(count)s evenings.",
            len(players),
        )
        % {"pk": member.pk, "name": name, "count": len(players)},
    )
    _forget_on_commit(tournaments, before)
    return Erased(name=name, players=len(players))


def _former_member_name(club: Club) -> str:
    """ "Oud-lid N" with the club's count; a number a member of the register already has as a
    name (typed by hand) is skipped."""
    while True:
        # Stored: in the site's language (Dutch: "Oud-lid 3"), whoever erases.
        with translation.override(settings.LANGUAGE_CODE):
            name = _("Former member %(number)s") % {"number": club.former_members}
        taken = Member.objects.filter(register=club, name=name).exists()
        if not taken:
            return name
        club.former_members += 1
        club.save(update_fields=["former_members"])


@dataclass(frozen=True, slots=True)
class ClubContents:
    """What deleting a club takes with it, as its page says before asking."""

    tournaments: int
    members: int
    competitions: int
    people: int


def club_contents(club: Club) -> ClubContents:
    return ClubContents(
        tournaments=Tournament.objects.filter(club=club).count(),
        members=Member.objects.filter(register=club).count(),
        competitions=Competition.objects.filter(club=club).count(),
        people=club.roles.count(),
    )


def club_confirm_word(club: Club) -> str:
    """What a club admin types to delete the club: its name (its short name while unnamed)."""
    return club.name or club.slug


@transaction.atomic
def club_delete(*, club: Club, typed: str) -> ClubContents:
    """Delete ``club`` and everything it holds (tournaments with their players, rounds and
    sheets, the register, competitions, roles, invitations, its log, and the backups of its
    tournaments); other clubs are untouched. ``typed`` must be the club's name."""
    if typed.strip().casefold() != club_confirm_word(club).strip().casefold():
        raise PrivacyRefused(
            _("Type the club's name exactly as shown (%(name)s) to delete it.")
            % {"name": club_confirm_word(club)}
        )
    club = Club.objects.select_for_update().get(pk=club.pk)
    contents = club_contents(club)
    owners = _owners(club, list(Tournament.objects.filter(club=club).select_related("club")))
    # Tournaments first: their seats hold their players (RESTRICT) until the rounds go.
    for tournament in Tournament.objects.filter(club=club):
        tournament.delete()
    club.delete()
    transaction.on_commit(lambda: backups_remove(owners))
    return contents
