"""Automatic backups after every completed round, and restoring one exactly."""

import json
import random

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from scoring.simulate import simulate_deal
from tests.factories import played_tournament
from tournament.models import Entry, Seat, Tournament
from tournament.services.portable_export import tournament_export
from tournament.services.rounds import rounds_refresh_state

pytestmark = pytest.mark.django_db


def finish_round(tournament, number):
    """Enter the missing deals of every table of a round, as the sheet page would."""
    seats = Seat.objects.filter(round__tournament=tournament, round__number=number)
    by_table = {}
    for seat in seats.order_by("position"):
        by_table.setdefault(seat.table_id, []).append(seat)
    rng = random.Random(7)
    for table_seats in by_table.values():
        done = Entry.objects.filter(seat__in=table_seats, tricks__isnull=False).values("deal")
        played = len({row["deal"] for row in done})
        for deal in range(played + 1, 12):
            bids, tricks = simulate_deal(deal, len(table_seats), rng)
            for seat, bid, won in zip(table_seats, bids, tricks, strict=True):
                Entry.objects.update_or_create(
                    seat=seat, deal=deal, defaults={"bid": bid, "tricks": won}
                )


def test_completing_a_round_writes_a_backup_that_restores_exactly(
    settings, tmp_path, django_capture_on_commit_callbacks
):
    settings.BACKUP_DIR = tmp_path
    tournament = played_tournament(8, rounds=2, last_round=[11, 5])
    assert not list(tmp_path.rglob("*.json"))  # importing is not a completed round

    finish_round(tournament, 2)
    with django_capture_on_commit_callbacks(execute=True):
        rounds_refresh_state(tournament=tournament, numbers=[2])
    (backup,) = tmp_path.rglob("*.json")
    assert "round-2" in backup.name

    original = tournament_export(tournament=tournament)
    tournament.delete()
    call_command("import_tournament", str(backup), "--slug", original_slug(backup))
    restored = Tournament.objects.get()
    assert tournament_export(tournament=restored) == original
    assert json.loads(backup.read_text(encoding="utf-8")) == original


def original_slug(path):
    return path.parent.name


def test_restore_refuses_a_slug_in_use(tmp_path, capsys):
    tournament = played_tournament(8, rounds=1)
    path = tmp_path / "t.json"
    path.write_text(json.dumps(tournament_export(tournament=tournament)), encoding="utf-8")
    with pytest.raises(CommandError):
        call_command("import_tournament", str(path), "--slug", tournament.slug)
    assert tournament.slug in capsys.readouterr().err
    assert Tournament.objects.count() == 1
