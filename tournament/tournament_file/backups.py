"""Automatic backups: the whole tournament as a v1 file after every completed round, after
every later change to a complete round (a correction), and once finished (``final``).

Files go to ``settings.BACKUP_DIR/<slug>/`` and are never overwritten, nor removed by the
site. Each holds the site's records too (``settings["x-site"]``: sheet history, confirmations,
table links with their tokens, the team by username). Restoring one is an import
(``manage.py import_tournament FILE --slug SLUG [--replace]``); what it keeps and what not is in
``docs/tournament-file.md``.
"""

from __future__ import annotations

import json
import logging
import os
import tempfile
from functools import partial
from pathlib import Path

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from tournament.models import Round, Tournament, TournamentFinish
from tournament.tournament_file.exporting import tournament_export

logger = logging.getLogger(__name__)


def tournament_backup(*, tournament: Tournament, label: str) -> Path:
    """Write the tournament's v1 file to the backup folder; returns its path."""
    folder = Path(settings.BACKUP_DIR) / tournament.slug
    folder.mkdir(parents=True, exist_ok=True)
    stamp = timezone.localtime().strftime("%Y%m%d-%H%M%S")
    path = folder / f"{tournament.slug}-{label}-{stamp}.json"
    n = 1
    while path.exists():
        n += 1
        path = folder / f"{tournament.slug}-{label}-{stamp}-{n}.json"
    data = json.dumps(tournament_export(tournament=tournament), ensure_ascii=False, indent=1)
    # Write to a temporary file first, so a full disk never leaves half a backup behind.
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=".partial-", suffix=".json")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(data)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return path


def backup_after_round(tournament_id: int, round_number: int, *, corrected: bool = False) -> None:
    """Called after a round is complete (on commit), or corrected once complete; a failed
    backup is logged, never raised, because the results it would protect are already safely
    stored."""
    label = f"round-{round_number}" + ("-corrected" if corrected else "")
    try:
        tournament = Tournament.objects.get(pk=tournament_id)
        path = tournament_backup(tournament=tournament, label=label)
    except (OSError, Tournament.DoesNotExist):
        logger.exception("Automatic backup after round %s failed", round_number)
    else:
        logger.info("Backup written: %s", path)


def backup_final(tournament_id: int, finish_id: int) -> None:
    """Called once a finish is committed: the final backup, its file name kept on the finish's
    record. Logged, never raised, as ``backup_after_round``."""
    try:
        tournament = Tournament.objects.get(pk=tournament_id)
        path = tournament_backup(tournament=tournament, label="final")
    except (OSError, Tournament.DoesNotExist):
        logger.exception("Final backup of tournament %s failed", tournament_id)
        return
    TournamentFinish.objects.filter(pk=finish_id).update(backup=path.name)
    logger.info("Backup written: %s", path)


def round_backup_when_corrected(round_: Round) -> None:
    """Back a complete round up again once the transaction commits: called by a save that
    changed a table of it that was complete already (a correction after the round's backup)."""
    if Round.objects.with_state().get(pk=round_.pk).state == Round.State.COMPLETE:
        transaction.on_commit(
            partial(backup_after_round, round_.tournament_id, round_.number, corrected=True)
        )


def round_backup_when_complete(round_: Round) -> None:
    """Back the round up to a file once the transaction commits, if its sheets make it
    complete now: called by a save that has just finished one of its tables, under the round's
    lock, so that of two tables finishing at once the second one sees the round complete."""
    if Round.objects.with_state().get(pk=round_.pk).state == Round.State.COMPLETE:
        transaction.on_commit(partial(backup_after_round, round_.tournament_id, round_.number))
