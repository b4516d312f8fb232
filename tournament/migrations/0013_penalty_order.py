"""Penalty bollen are keyed like the cells: ``[deal, seat index]`` pairs, no longer
``[seat index, deal]``.

Turns the pairs of every ``SheetVersion.penalties``, of ``SheetVersion.submitted["penalties"]``
(where a version keeps the submission as it was sent) and of ``SheetDraft.penalties``. Turning a
pair twice gives it back, so going back runs the same step. The rows are read a batch at a time,
in key order, and written back with one ``bulk_update`` per batch: a large database is never
held in memory, and no batch reads a row the step has written.
"""

from django.db import migrations

BATCH = 500


def _turned(pairs):
    return [[second, first] for first, second in pairs]


def _batches(model, fields):
    """``model``'s rows in key order, ``BATCH`` at a time, with only ``fields`` read."""
    last = 0
    while True:
        rows = list(
            model.objects.filter(pk__gt=last).order_by("pk").values_list("pk", *fields)[:BATCH]
        )
        if not rows:
            return
        yield rows
        last = rows[-1][0]


def _turn_versions(SheetVersion):
    for rows in _batches(SheetVersion, ("penalties", "submitted")):
        changed = []
        for pk, penalties, submitted in rows:
            if submitted and submitted.get("penalties"):
                submitted = {**submitted, "penalties": _turned(submitted["penalties"])}
            elif not penalties:
                continue
            changed.append(SheetVersion(pk=pk, penalties=_turned(penalties), submitted=submitted))
        SheetVersion.objects.bulk_update(changed, ["penalties", "submitted"])


def _turn_drafts(SheetDraft):
    for rows in _batches(SheetDraft, ("penalties",)):
        changed = [
            SheetDraft(pk=pk, penalties=_turned(penalties)) for pk, penalties in rows if penalties
        ]
        SheetDraft.objects.bulk_update(changed, ["penalties"])


def turn_penalties(apps, schema_editor):
    _turn_versions(apps.get_model("tournament", "SheetVersion"))
    _turn_drafts(apps.get_model("tournament", "SheetDraft"))


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0012_round_state"),
    ]

    operations = [
        migrations.RunPython(turn_penalties, turn_penalties),
    ]
