"""Taking an evening out of a competition and putting it back, on the site.

- **Remove** (``evening_remove``): the tournament stays; it is no longer an evening of the
  competition. Putting it back makes it an evening again, its players tied to the members they
  were tied to (no matching by name).
- **Delete** (``evening_delete``): the tournament goes, from every competition it is an evening
  of. Its portable backup (with the site's records, ``tournament_file``) is written to the
  backup folder first; putting it back restores that backup (the sheets, their history, the
  finish, the team, and each player's member by the member's id: ``site_members``) and makes it
  an evening again of each competition it was taken from.

Each is recorded as an ``EveningRemoval``, the competition page's undo, until it is put back.
Evenings are renumbered by date after every change (``season.numbering``).

The preview (``evening_remove_preview``, ``evening_put_back_preview``) makes the change in a
transaction that is rolled back, reads the season standings as they would be, and compares
them with the standings now (``scoring.season_change``): the one arithmetic of the season,
never a second copy of it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import User
from django.db import models, transaction
from django.utils.translation import gettext_lazy

from scoring.season_change import SeasonChange, season_change
from tournament.errors import PlacedProblem, Refused
from tournament.models import (
    Competition,
    CompetitionEvening,
    EveningRemoval,
    Tournament,
)
from tournament.season.numbering import evening_attach, evenings_renumber
from tournament.season.selectors import Season, season_of
from tournament.season.services import competition_add, evening_addable
from tournament.tournament_file.backups import tournament_backup
from tournament.tournament_file.importing import RESERVED_SLUGS, tournament_restore
from tournament.tournament_file.reading import tournament_file_parse


class EveningRefusal(models.TextChoices):
    PUT_BACK_ALREADY = (
        "evening_put_back_already",
        gettext_lazy("This evening has been put back already."),
    )
    TOURNAMENT_GONE = (
        "evening_tournament_gone",
        gettext_lazy(
            "The tournament of this evening has been deleted since it was removed: there is "
            "nothing left to put back."
        ),
    )
    ALREADY_OUT = (
        "evening_already_out",
        gettext_lazy("This evening has just been taken out of the competition already."),
    )
    BACKUP_GONE = (
        "evening_backup_gone",
        gettext_lazy(
            "The backup of this evening is not in the backup folder any more: put the file "
            "back there, or import it on the import page."
        ),
    )


def _locked(competition: Competition) -> None:
    Competition.objects.select_for_update().filter(pk=competition.pk).first()


def _removal(evening: CompetitionEvening, kind: str, by: User | None) -> EveningRemoval:
    tournament = evening.tournament
    return EveningRemoval(
        competition=evening.competition,
        kind=kind,
        tournament=tournament,
        number=evening.number,
        name=tournament.name,
        date=tournament.date,
        slug=tournament.slug,
        tournament_created_at=tournament.created_at,
        by=by,
    )


def _still_there(evening: CompetitionEvening) -> None:
    """Refuse an evening taken out meanwhile (a second click, another director)."""
    if not CompetitionEvening.objects.filter(pk=evening.pk).exists():
        raise Refused.because(EveningRefusal.ALREADY_OUT, field=evening.tournament.name)


@transaction.atomic
def evening_remove(*, evening: CompetitionEvening, by: User | None) -> EveningRemoval:
    """Take ``evening`` out of its competition; its tournament stays as it is."""
    _locked(evening.competition)
    _still_there(evening)
    removal = _removal(evening, EveningRemoval.Kind.REMOVED, by)
    removal.save()
    evening.delete()
    evenings_renumber(competition=removal.competition)
    return removal


def evening_delete(*, evening: CompetitionEvening, by: User | None) -> list[EveningRemoval]:
    """Delete the evening's tournament, after writing its backup (see the module): one record
    per competition it was an evening of, this one first."""
    tournament = evening.tournament
    _still_there(evening)  # (a second click of "delete": nothing to back up, nothing to do)
    path = tournament_backup(tournament=tournament, label="deleted")
    backup = str(path.relative_to(Path(settings.BACKUP_DIR)))
    with transaction.atomic():
        evenings = [
            evening,
            *CompetitionEvening.objects.filter(tournament=tournament)
            .exclude(pk=evening.pk)
            .select_related("competition", "tournament")
            .order_by("competition__pk"),
        ]
        removals = []
        for each in evenings:
            _locked(each.competition)
        _still_there(evening)  # (deleted by another request meanwhile)
        for each in evenings:
            removal = _removal(each, EveningRemoval.Kind.DELETED, by)
            removal.backup = backup
            removals.append(removal)
        EveningRemoval.objects.bulk_create(removals)
        Tournament.objects.filter(pk=tournament.pk).delete()
        for removal in removals:
            evenings_renumber(competition=removal.competition)
        return removals


def _backup_document(removal: EveningRemoval) -> object:
    """The deleted evening's backup, read from the backup folder only: a stored name that
    leads out of it (``..``, an absolute path) is as good as gone. The message names the file
    as the folder knows it, never the server's own path."""
    folder = Path(settings.BACKUP_DIR).resolve()
    path = (folder / removal.backup).resolve()
    gone = Refused(
        [
            PlacedProblem(
                code=EveningRefusal.BACKUP_GONE,
                message=str(EveningRefusal.BACKUP_GONE.label),
                field=removal.backup,
            )
        ]
    )
    if not path.is_relative_to(folder):
        raise gone
    try:
        raw = path.read_bytes()
    except OSError:
        raise gone from None
    return tournament_file_parse(raw)


@transaction.atomic
def evening_put_back(*, removal: EveningRemoval) -> CompetitionEvening:
    """Undo ``removal``: the evening is an evening of its competition again, numbered by its
    date; a deleted one is restored from its backup (and put back in every competition it was
    deleted from). Returns the evening of ``removal``'s competition."""
    _locked(removal.competition)
    if not EveningRemoval.objects.select_for_update().filter(pk=removal.pk).exists():
        raise Refused.because(EveningRefusal.PUT_BACK_ALREADY, field=removal.name)
    if removal.kind == EveningRemoval.Kind.REMOVED:
        if removal.tournament is None:
            raise Refused.because(EveningRefusal.TOURNAMENT_GONE, field=removal.name)
        return competition_add(
            competition=removal.competition, tournament=removal.tournament, match=False
        )
    document = _backup_document(removal)
    slug_free = (
        removal.slug not in RESERVED_SLUGS
        and not Tournament.objects.filter(slug=removal.slug).exists()
    )
    tournament = tournament_restore(
        document=document, club=removal.competition.club, slug=removal.slug if slug_free else None
    ).tournament
    Tournament.objects.filter(pk=tournament.pk).update(created_at=removal.tournament_created_at)
    tournament.created_at = removal.tournament_created_at
    siblings = list(
        EveningRemoval.objects.select_for_update()
        .filter(
            backup=removal.backup,
            kind=EveningRemoval.Kind.DELETED,
            competition__club_id=removal.competition.club_id,
        )
        .select_related("competition")
        .order_by("pk")
    )
    put_back = None
    for sibling in siblings:
        _locked(sibling.competition)
        evening_addable(competition=sibling.competition, tournament=tournament)
        evening = evening_attach(competition=sibling.competition, tournament=tournament)
        if sibling.pk == removal.pk:
            put_back = evening
    EveningRemoval.objects.filter(pk__in=[s.pk for s in siblings]).delete()
    assert put_back is not None, "the removal is one of those of its backup"
    return put_back


@dataclass(frozen=True)
class EveningPreview:
    """The season standings now and as they would be, compared; ``also``: the other
    competitions the change reaches (a deleted tournament leaves each of them)."""

    before: Season
    after: Season
    change: SeasonChange[int]
    also: list[Competition] = field(default_factory=list)


def _compared(before: Season, after: Season, also: list[Competition]) -> EveningPreview:
    return EveningPreview(before, after, season_change(before.rows, after.rows), also)


def evening_remove_preview(*, evening: CompetitionEvening) -> EveningPreview:
    """What taking ``evening`` out (removing or deleting it: the same for this competition's
    season) would change; nothing is stored."""
    competition = evening.competition
    before = season_of(competition)
    with transaction.atomic():
        CompetitionEvening.objects.filter(pk=evening.pk).delete()
        evenings_renumber(competition=competition)
        after = season_of(competition)
        transaction.set_rollback(True)
    also = list(
        Competition.objects.filter(evenings__tournament_id=evening.tournament_id)
        .exclude(pk=competition.pk)
        .distinct()
    )
    return _compared(before, after, also)


def evening_put_back_preview(*, removal: EveningRemoval) -> EveningPreview:
    """What putting ``removal`` back would change; nothing is stored (a deleted evening's
    backup is restored and rolled back). Refused as the putting back itself would be."""
    competition = removal.competition
    before = season_of(competition)
    with transaction.atomic():
        evening_put_back(removal=removal)
        after = season_of(competition)
        transaction.set_rollback(True)
    also = list(
        Competition.objects.filter(
            club_id=competition.club_id,
            removals__backup=removal.backup,
            removals__kind="deleted",
        )
        .exclude(pk=competition.pk)
        .distinct()
        if removal.kind == EveningRemoval.Kind.DELETED
        else []
    )
    return _compared(before, after, also)


def removals_open(competition: Competition) -> list[EveningRemoval]:
    """The competition's evenings taken out that can be put back, the latest first (a removed
    evening whose tournament has been deleted since has nothing left to put back)."""
    return list(
        EveningRemoval.objects.filter(competition=competition)
        .exclude(kind=EveningRemoval.Kind.REMOVED, tournament__isnull=True)
        .select_related("tournament", "by")
    )
