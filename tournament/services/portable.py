"""Import and export of the portable tournament file (version 1).

Import checks the whole file first (``portable_check``) and then stores it in one transaction,
so a refused file leaves nothing behind. Export writes the same content back.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.db import transaction
from django.utils.text import slugify

from tournament.adapter import load_table_sheets
from tournament.models import Entry, Penalty, Player, Round, Seat, Table, Tournament
from tournament.services.portable_check import tournament_file_check
from tournament.services.rounds import rounds_refresh_state

FORMAT = "bollen-tournament"
VERSION = 1
BATCH = 2000
RESERVED_SLUGS = {"new", "import"}  # taken by the site's own URLs under /t/


def tournament_unique_slug(*, name: str, date: datetime.date | None) -> str:
    """A slug for the tournament's URLs, made unique with -2, -3, ... when needed."""
    base = slugify(name)[:60].strip("-") or "toernooi"
    if date is not None:
        base = f"{base}-{date.isoformat()}"
    slug, n = base, 1
    taken = set(Tournament.objects.filter(slug__startswith=base).values_list("slug", flat=True))
    while slug in taken or slug in RESERVED_SLUGS:
        n += 1
        slug = f"{base}-{n}"
    return slug


@transaction.atomic
def tournament_import(*, document: Any, director=None) -> Tournament:
    """Create a tournament from a checked v1 document; raises ``ProblemsError`` if invalid."""
    tournament_file_check(document)
    settings = document.get("settings", {})
    date = datetime.date.fromisoformat(document["date"]) if document.get("date") else None
    tournament = Tournament.objects.create(
        name=document["name"],
        slug=tournament_unique_slug(name=document["name"], date=date),
        date=date,
        place=settings.get("place", ""),
        table_sizes=sorted(settings.get("table_sizes", [4, 5])),
        prefer_size=settings.get("prefer_size", 4),
        rounds_planned=settings.get("rounds_planned", max(len(document["rounds"]), 1)),
        tiebreaks=settings.get("tiebreaks", Tournament._meta.get_field("tiebreaks").default()),
        language=settings.get("language", Tournament.Language.DUTCH),
        public=bool(settings.get("public", False)),
    )
    if director is not None:
        tournament.directors.add(director)

    withdrawn = settings.get("withdrawn") or {}
    joined = settings.get("joined") or {}
    players = Player.objects.bulk_create(
        [
            Player(
                tournament=tournament,
                file_id=p["id"],
                name=p["name"],
                club=p.get("club", ""),
                joined_round=joined.get(p["id"], 1),
                withdrawn_round=withdrawn.get(p["id"]),
            )
            for p in document["players"]
        ],
        batch_size=BATCH,
    )
    player_pk = {p.file_id: p.pk for p in players}

    rounds = Round.objects.bulk_create(
        [
            Round(tournament=tournament, number=r["number"], state=Round.State.SEATED)
            for r in document["rounds"]
        ]
    )
    tables: list[Table] = []
    for round_obj, round_doc in zip(rounds, document["rounds"], strict=True):
        tables.extend(Table(round=round_obj, number=t["number"]) for t in round_doc["tables"])
    Table.objects.bulk_create(tables, batch_size=BATCH)

    table_docs = [t for r in document["rounds"] for t in r["tables"]]
    seats: list[Seat] = []
    for table, table_doc in zip(tables, table_docs, strict=True):
        seats.extend(
            Seat(round_id=table.round_id, table=table, player_id=player_pk[pid], position=i)
            for i, pid in enumerate(table_doc["seats"])
        )
    Seat.objects.bulk_create(seats, batch_size=BATCH)

    seat_of = {(s.table_id, s.position): s for s in seats}
    entries: list[Entry] = []
    penalties: list[Penalty] = []
    for table, table_doc in zip(tables, table_docs, strict=True):
        for deal_no, deal in enumerate(table_doc.get("deals", []), start=1):
            for position, bid in enumerate(deal["bids"]):
                tricks = deal["tricks"][position] if deal["tricks"] else None
                entries.append(
                    Entry(seat=seat_of[table.pk, position], deal=deal_no, bid=bid, tricks=tricks)
                )
        for penalty in table_doc.get("penalties", []):
            position = table_doc["seats"].index(penalty["player"])
            penalties.append(Penalty(seat=seat_of[table.pk, position], deal=penalty["deal"]))
    Entry.objects.bulk_create(entries, batch_size=BATCH)
    Penalty.objects.bulk_create(penalties, batch_size=BATCH)

    rounds_refresh_state(tournament=tournament)
    return tournament


def tournament_export(*, tournament: Tournament) -> dict[str, Any]:
    """The v1 document of a tournament: settings, players, seating and every sheet."""
    players = list(Player.objects.filter(tournament=tournament).order_by("pk"))
    file_id = {p.pk: p.file_id for p in players}
    settings: dict[str, Any] = {
        "table_sizes": list(tournament.table_sizes),
        "prefer_size": tournament.prefer_size,
        "rounds_planned": tournament.rounds_planned,
        "tiebreaks": list(tournament.tiebreaks),
        "language": tournament.language,
        "public": tournament.public,
    }
    if tournament.place:
        settings["place"] = tournament.place
    withdrawn = {p.file_id: p.withdrawn_round for p in players if p.withdrawn_round}
    joined = {p.file_id: p.joined_round for p in players if p.joined_round > 1}
    if withdrawn:
        settings["withdrawn"] = withdrawn
    if joined:
        settings["joined"] = joined

    tables_by_round: dict[int, list[dict[str, Any]]] = {}
    for sheet in load_table_sheets(tournament=tournament):
        seats = [file_id[pk] for pk in sheet.player_ids]
        table: dict[str, Any] = {"number": sheet.table_number, "seats": seats}
        deals = []
        for deal in sheet.sheet.deals:
            if any(bid is None for bid in deal.bids):
                break  # bidding still under way: the file only holds complete bid rows
            tricks = [] if any(t is None for t in deal.tricks) else list(deal.tricks)
            deals.append({"bids": list(deal.bids), "tricks": tricks})
            if not tricks:
                break
        if deals:
            table["deals"] = deals
        if sheet.sheet.penalties:
            table["penalties"] = [
                {"player": seats[p.seat], "deal": p.deal} for p in sheet.sheet.penalties
            ]
        tables_by_round.setdefault(sheet.round_number, []).append(table)

    document: dict[str, Any] = {"format": FORMAT, "version": VERSION, "name": tournament.name}
    if tournament.date:
        document["date"] = tournament.date.isoformat()
    document["settings"] = settings
    document["players"] = [
        {"id": p.file_id, "name": p.name, **({"club": p.club} if p.club else {})} for p in players
    ]
    document["rounds"] = [
        {"number": r.number, "tables": tables_by_round.get(r.number, [])}
        for r in tournament.rounds.order_by("number")
    ]
    return document
