"""Import of the portable tournament file (version 1, ``docs/tournament-file.md``).

Import checks the whole file first (``portable_check``) and then stores it in one transaction,
so a refused file leaves nothing behind. A backup's site records (``settings["x-site"]``: sheet
history, confirmations, table links, team) are restored by ``portable_site``. Export is
``portable_export``.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef
from django.utils.text import slugify
from django.utils.translation import gettext as _

from tournament.adapter import sheet_scores_refresh
from tournament.clubs.services import club_sole
from tournament.errors import PlacedProblem, Refused
from tournament.models import (
    ApartPair,
    Club,
    Player,
    Round,
    Seat,
    SheetVersion,
    Table,
    Tournament,
    unconfirmed_table_ids,
)
from tournament.text import text_normalised
from tournament.tournament_file.reading import tournament_file_check
from tournament.tournament_file.site_members import site_members_restore
from tournament.tournament_file.site_restore import (
    site_closed_rounds,
    site_first_dealer_rule,
    site_first_dealers,
    site_restore,
    site_restore_finished,
)

# Rows per INSERT: 8,000 rows of at most 6 values stay under PostgreSQL's 65,535 values per
# statement (SQLite's limit is set from SQLite itself, tournament/apps.py).
BATCH = 8000
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


SLUG_ATTEMPTS = 5


def tournament_created(*, name: str, date: datetime.date | None, **fields: Any) -> Tournament:
    """``Tournament.objects.create`` under a free slug made from the name and date. Two made
    at once under one name (two directors, two servers) may pick the same slug; the one that
    loses takes the next, instead of failing."""
    for attempt in range(SLUG_ATTEMPTS):
        slug = tournament_unique_slug(name=name, date=date)
        try:
            with transaction.atomic():
                return Tournament.objects.create(slug=slug, name=name, date=date, **fields)
        except IntegrityError:
            if attempt == SLUG_ATTEMPTS - 1 or not Tournament.objects.filter(slug=slug).exists():
                raise
    raise AssertionError("unreachable")


@dataclass(frozen=True)
class ImportOutcome:
    """The tournament an import made, and what of the file's site records (``x-site``) could
    not be restored as the file says (missing accounts, table links re-issued), in sentences."""

    tournament: Tournament
    notes: list[str] = field(default_factory=list)
    replaced: bool = False
    # When the replaced tournament had been finished (its final backup stays in the folder).
    replaced_finished_at: datetime.datetime | None = None


def tournament_import(
    *,
    document: Any,
    club: Club | None = None,
    director: User | None = None,
    slug: str | None = None,
) -> Tournament:
    """Create a tournament of ``club`` from a checked v1 document; raises ``Refused`` if
    invalid. Without a club: the installation's one club (a laptop).

    ``slug`` restores a backup under its old name (it must be free); by default one is made
    from the name and date.
    """
    return tournament_restore(document=document, club=club, director=director, slug=slug).tournament


@transaction.atomic
def tournament_restore(
    *,
    document: Any,
    club: Club | None = None,
    director: User | None = None,
    slug: str | None = None,
    replace: bool = False,
    link_members: bool = True,
) -> ImportOutcome:
    """``tournament_import`` that also says what it could not restore as the file says. The
    tournament belongs to ``club`` (the club of whoever restores it), whatever club the file
    came from. Its players are the members of ``club``'s register the file's site records
    name (``site_members``; unless ``link_members`` is off: a competition file says itself).

    With ``replace`` the tournament of the same club that has the short name ``slug`` now is
    deleted first, in the same transaction (so its table links' tokens are free for the
    restored one); nothing is deleted when the file is refused.
    """
    tournament_file_check(document)
    club = club if club is not None else club_sole()
    if replace and slug is None:
        raise ValueError("replace needs the slug of the tournament to replace")
    replaced = False
    replaced_finished_at = None
    if replace:
        existing = Tournament.objects.filter(slug=slug)
        if existing.exclude(club=club).exists():
            raise Refused(
                [
                    PlacedProblem(
                        code="slug_other_club",
                        message=_(
                            "The short name %(slug)s is another club's tournament: it is not "
                            "replaced."
                        )
                        % {"slug": slug},
                    )
                ]
            )
        replaced = existing.exists()
        replaced_finished_at = existing.values_list("finished_at", flat=True).first()
        existing.delete()
    if slug is not None and (
        slug in RESERVED_SLUGS or Tournament.objects.filter(slug=slug).exists()
    ):
        raise Refused(
            [
                PlacedProblem(
                    code="slug_taken",
                    message=_("The short name %(slug)s is already in use.") % {"slug": slug},
                )
            ]
        )
    settings = document.get("settings", {})
    date = datetime.date.fromisoformat(document["date"]) if document.get("date") else None
    fields: dict[str, Any] = dict(
        club=club,
        place=text_normalised(settings.get("place", "")),
        table_sizes=sorted(settings.get("table_sizes", [4, 5])),
        prefer_size=settings.get("prefer_size", 4),
        rounds_planned=settings.get("rounds_planned", max(len(document["rounds"]), 1)),
        tiebreaks=settings.get("tiebreaks", Tournament._meta.get_field("tiebreaks").default()),
        language=settings.get("language", Tournament.Language.DUTCH),
        public=bool(settings.get("public", False)),
        confirmation_rule=settings.get("confirmation_rule", Tournament.ConfirmationRule.AUTO),
        count_unconfirmed=settings.get("count_unconfirmed", True),
        seating_balance=settings.get("seating_balance", Tournament.SeatingBalance.EVEN),
        clubs_apart_first_round=settings.get("clubs_apart_first_round", True),
        first_dealer_rule=site_first_dealer_rule(document),
        prize_places=settings.get("prize_places", 3),
        prize_last_place=bool(settings.get("prize_last_place", False)),
    )
    name = text_normalised(document["name"])
    if slug is None:
        tournament = tournament_created(name=name, date=date, **fields)
    else:
        try:
            with transaction.atomic():
                tournament = Tournament.objects.create(slug=slug, name=name, date=date, **fields)
        except IntegrityError:  # taken in the meantime
            raise Refused(
                [
                    PlacedProblem(
                        code="slug_taken",
                        message=_("The short name %(slug)s is already in use.") % {"slug": slug},
                    )
                ]
            ) from None
    if director is not None:
        tournament.directors.add(director)

    withdrawn = settings.get("withdrawn") or {}
    joined = settings.get("joined") or {}
    players = Player.objects.bulk_create(
        [
            Player(
                tournament=tournament,
                file_id=p["id"],
                name=text_normalised(p["name"]),
                club=text_normalised(p.get("club", "")),
                joined_round=joined.get(p["id"], 1),
                withdrawn_round=withdrawn.get(p["id"]),
            )
            for p in document["players"]
        ],
        batch_size=BATCH,
    )
    player_pk = {p.file_id: p.pk for p in players}
    pairs = {tuple(sorted((player_pk[a], player_pk[b]))) for a, b in settings.get("apart", [])}
    ApartPair.objects.bulk_create(
        [ApartPair(tournament=tournament, player_a_id=a, player_b_id=b) for a, b in sorted(pairs)]
    )

    closed = site_closed_rounds(document)
    rounds = Round.objects.bulk_create(
        [
            Round(
                tournament=tournament,
                number=r["number"],
                published=True,
                closed_at=closed.get(r["number"]),
            )
            for r in document["rounds"]
        ]
    )
    # A drawn first dealer: the file's seats start with that player (``seats_turned``); the
    # rows go back into the printed order, the first dealer's row kept with the table.
    first_dealers = site_first_dealers(document)
    tables: list[Table] = []
    for round_obj, round_doc in zip(rounds, document["rounds"], strict=True):
        tables.extend(
            Table(
                round=round_obj,
                number=t["number"],
                first_dealer_seat=first_dealers.get((round_doc["number"], t["number"])),
            )
            for t in round_doc["tables"]
        )
    Table.objects.bulk_create(tables, batch_size=BATCH)

    table_docs = [t for r in document["rounds"] for t in r["tables"]]
    # The seats by their index in the file: the printed row turned by the first dealer.
    seat_of: dict[tuple[int, int], Seat] = {}
    for table, table_doc in zip(tables, table_docs, strict=True):
        first, n_seats = table.first_dealer_seat or 0, len(table_doc["seats"])
        for i, pid in enumerate(table_doc["seats"]):
            seat_of[table.pk, i] = Seat(
                round_id=table.round_id,
                table=table,
                player_id=player_pk[pid],
                position=(i + first) % n_seats,
            )
    Seat.objects.bulk_create(seat_of.values(), batch_size=BATCH)

    # Each table's sheet as the file has it, in seat order (a seat's index is its position).
    sheets: dict[int, tuple[list[list[list[int | None]]], list[list[int]]]] = {}
    for table, table_doc in zip(tables, table_docs, strict=True):
        n_seats = len(table_doc["seats"])
        rows = []
        for deal in table_doc.get("deals", []):
            row: list[list[int | None]] = [[None, None] for _seat in range(n_seats)]
            for index, bid in enumerate(deal["bids"]):
                tricks = deal["tricks"][index] if deal["tricks"] else None
                row[seat_of[table.pk, index].position] = [bid, tricks]
            rows.append(row)
        penalties = sorted(  # ``[deal, seat]``, the cells' key order, as versions keep them
            [p["deal"], seat_of[table.pk, table_doc["seats"].index(p["player"])].position]
            for p in table_doc.get("penalties", [])
        )
        if rows or penalties:
            sheets[table.pk] = (rows, penalties)
    restored = site_restore(tournament=tournament, document=document)
    if link_members:
        restored.notes.extend(site_members_restore(tournament=tournament, document=document))
    # A table the site block gives no version keeps the file's sheet as its version 0: the one
    # copy of its sheet, and no save (nothing to confirm).
    saved = set(
        Table.objects.filter(round__tournament=tournament)
        .filter(Exists(SheetVersion.objects.current(OuterRef("pk"))))
        .values_list("pk", flat=True)
    )
    SheetVersion.objects.bulk_create(
        (
            SheetVersion(
                table_id=table_id,
                number=0,
                cells=cells,
                penalties=penalties,
                via=SheetVersion.Via.EARLIER,
            )
            for table_id, (cells, penalties) in sheets.items()
            if table_id not in saved
        ),
        batch_size=BATCH,
    )
    sheet_scores_refresh(tournament=tournament)  # what the rounds' states are read from
    if restored.finished is not None:
        note = site_restore_finished(
            tournament=tournament,
            claim=restored.finished,
            open_rounds=list(
                Round.objects.with_state()
                .filter(tournament=tournament)
                .exclude(progress=Round.State.COMPLETE)
                .order_by("number")
                .values_list("number", flat=True)
            ),
            unconfirmed=len(unconfirmed_table_ids(tournament)),
        )
        if note is not None:
            restored.notes.append(note)
    return ImportOutcome(
        tournament=tournament,
        notes=restored.notes,
        replaced=replaced,
        replaced_finished_at=replaced_finished_at,
    )
