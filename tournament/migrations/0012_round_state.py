"""A round's state is derived: only the director's decision to publish it is stored.

Playing and complete follow from the tables' sheets (``Round.state``), so a stored playing or
complete becomes a published round; a draft stays a draft.
"""

from django.db import migrations, models


DEALS = 11


def _progress(cells, n_seats):
    """``(started, complete)`` of a version's cells (``scoring.Sheet.started``, ``.finished``)."""
    rows = [row[:n_seats] for row in cells]
    started = any(v is not None for row in rows for pair in row for v in pair)
    complete = len(rows) == DEALS and all(
        len(row) == n_seats and all(v is not None for pair in row for v in pair) for row in rows
    )
    return started, complete


def _published(apps, schema_editor):
    """Publish every round that was not a draft, and make sure every table's ``SheetScore``
    says whether its current sheet is started and complete (the state is read from there):
    tables saved before the scores were kept had none. A row written here has no seats, so
    its totals are scored afresh when read."""
    Round = apps.get_model("tournament", "Round")
    Seat = apps.get_model("tournament", "Seat")
    SheetScore = apps.get_model("tournament", "SheetScore")
    SheetVersion = apps.get_model("tournament", "SheetVersion")
    Round.objects.exclude(state="draft").update(published=True)
    n_seats = {}
    for table_id in Seat.objects.values_list("table_id", flat=True):
        n_seats[table_id] = n_seats.get(table_id, 0) + 1
    latest = {}
    for table_id, number, cells in SheetVersion.objects.filter(number__isnull=False).values_list(
        "table_id", "number", "cells"
    ):
        if table_id not in latest or latest[table_id][0] < number:
            latest[table_id] = (number, cells)
    kept = {
        score.table_id: score for score in SheetScore.objects.filter(table_id__in=list(n_seats))
    }
    for table_id, seats in n_seats.items():
        number, cells = latest.get(table_id, (0, []))
        started, complete = _progress(cells, seats)
        score = kept.get(table_id)
        if score is None:
            SheetScore.objects.create(
                table_id=table_id, version=number, started=started, complete=complete
            )
        elif (score.version, score.started, score.complete) != (number, started, complete):
            score.version, score.started, score.complete = number, started, complete
            score.seat_ids = []
            score.save(update_fields=["version", "started", "complete", "seat_ids"])


def _stored_state(apps, schema_editor):
    """Back: each round's state stored again, as its sheets have it."""
    Round = apps.get_model("tournament", "Round")
    Table = apps.get_model("tournament", "Table")
    SheetScore = apps.get_model("tournament", "SheetScore")
    for round_ in Round.objects.filter(published=True):
        tables = set(Table.objects.filter(round=round_, seats__isnull=False).values_list("pk", flat=True))
        scores = SheetScore.objects.filter(table_id__in=tables)
        complete = set(scores.filter(complete=True).values_list("table_id", flat=True))
        if tables and complete == tables:
            round_.state = "complete"
        elif scores.filter(started=True).exists():
            round_.state = "playing"
        else:
            round_.state = "seated"
        round_.save(update_fields=["state"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0011_sheet_once"),
    ]

    operations = [
        migrations.AddField(
            model_name="round",
            name="published",
            field=models.BooleanField(default=False, verbose_name="published"),
        ),
        migrations.RunPython(_published, _stored_state),
        migrations.RemoveField(model_name="round", name="state"),
    ]
