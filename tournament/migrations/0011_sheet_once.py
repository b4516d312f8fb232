"""Each sheet stored once: the table's current ``SheetVersion`` is its sheet, ``Entry`` and
``Penalty`` go.

Before the rows are dropped, every table whose rows differ from its current version gets a
version with exactly its rows: version 0 ("before the first save") for a table that has rows
and no version (an imported sheet never saved on the site), the next number ("sheet page",
started from the current one) for a table whose rows and version disagree. Going back fills
the rows from each table's current version.
"""

from django.db import migrations, models


def _content(cells, penalties):
    """A sheet's non-empty boxes and its sorted penalty bollen, comparable."""
    boxes = {
        (deal, seat): (pair[0], pair[1])
        for deal, row in enumerate(cells, start=1)
        for seat, pair in enumerate(row)
        if pair[0] is not None or pair[1] is not None
    }
    return boxes, sorted(tuple(p) for p in penalties)


def _json(boxes, penalties, n_seats):
    """``(cells, penalties)`` as ``SheetVersion`` stores them (trailing empty deals left out)."""
    last = max((deal for deal, _seat in boxes), default=0)
    cells = [
        [list(boxes.get((deal, seat), (None, None))) for seat in range(n_seats)]
        for deal in range(1, last + 1)
    ]
    return cells, [list(p) for p in penalties]


def _latest_versions(SheetVersion):
    latest = {}
    for version in SheetVersion.objects.filter(number__isnull=False).order_by("table_id", "number"):
        latest[version.table_id] = version
    return latest


def rows_to_versions(apps, schema_editor):
    Seat = apps.get_model("tournament", "Seat")
    Entry = apps.get_model("tournament", "Entry")
    Penalty = apps.get_model("tournament", "Penalty")
    SheetVersion = apps.get_model("tournament", "SheetVersion")

    index = {}  # seat id: (table id, seat index in seat order)
    n_seats = {}
    seats = Seat.objects.order_by("table_id", "position", "pk").values_list("pk", "table_id")
    for seat_id, table_id in seats:
        index[seat_id] = (table_id, n_seats.get(table_id, 0))
        n_seats[table_id] = n_seats.get(table_id, 0) + 1
    boxes, penalties = {}, {}
    for seat_id, deal, bid, tricks in Entry.objects.values_list("seat_id", "deal", "bid", "tricks"):
        if bid is None and tricks is None:
            continue
        table_id, seat = index[seat_id]
        boxes.setdefault(table_id, {})[deal, seat] = (bid, tricks)
    for seat_id, deal in Penalty.objects.values_list("seat_id", "deal"):
        table_id, seat = index[seat_id]
        penalties.setdefault(table_id, []).append((seat, deal))

    latest = _latest_versions(SheetVersion)
    fresh = []
    for table_id in sorted(set(boxes) | set(penalties) | set(latest)):
        rows = (boxes.get(table_id, {}), sorted(penalties.get(table_id, [])))
        version = latest.get(table_id)
        if version is None and not rows[0] and not rows[1]:
            continue
        if version is not None and _content(version.cells, version.penalties) == rows:
            continue
        cells, penalty_json = _json(*rows, n_seats.get(table_id, 0))
        if version is None:
            number, base, via = 0, 0, "earlier"
        else:
            number, base, via = version.number + 1, version.number, "director"
        fresh.append(
            SheetVersion(
                table_id=table_id,
                number=number,
                base_number=base,
                cells=cells,
                penalties=penalty_json,
                via=via,
            )
        )
    SheetVersion.objects.bulk_create(fresh, batch_size=500)


def versions_to_rows(apps, schema_editor):
    Seat = apps.get_model("tournament", "Seat")
    Entry = apps.get_model("tournament", "Entry")
    Penalty = apps.get_model("tournament", "Penalty")
    SheetVersion = apps.get_model("tournament", "SheetVersion")

    seat_ids = {}
    seats = Seat.objects.order_by("table_id", "position", "pk").values_list("pk", "table_id")
    for seat_id, table_id in seats:
        seat_ids.setdefault(table_id, []).append(seat_id)
    entries, penalty_rows = [], []
    for table_id, version in _latest_versions(SheetVersion).items():
        of_table = seat_ids.get(table_id, [])
        boxes, penalties = _content(version.cells, version.penalties)
        entries.extend(
            Entry(seat_id=of_table[seat], deal=deal, bid=bid, tricks=tricks)
            for (deal, seat), (bid, tricks) in boxes.items()
            if seat < len(of_table)
        )
        penalty_rows.extend(
            Penalty(seat_id=of_table[seat], deal=deal)
            for seat, deal in penalties
            if seat < len(of_table)
        )
    Entry.objects.bulk_create(entries, batch_size=1000)
    Penalty.objects.bulk_create(penalty_rows, batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0010_round_closed"),
    ]

    operations = [
        migrations.RunPython(rows_to_versions, versions_to_rows),
        migrations.DeleteModel(name="Entry"),
        migrations.DeleteModel(name="Penalty"),
    ]
