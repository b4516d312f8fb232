"""Small builders for tests: tournaments with plausible sheets, through the real import."""

from __future__ import annotations

import random

from scoring.deals import DEAL_COUNT
from scoring.simulate import random_seating, simulate_tournament
from tournament.models import Round, SheetScore, Table, Tournament
from tournament.tournament_file.importing import tournament_import


def played_tournament(
    n_players: int = 8,
    rounds: int = 2,
    *,
    seed: int = 1,
    last_round: list[int] | None = None,
    director=None,
    names: list[str] | None = None,
    public: bool = False,
    club=None,
) -> Tournament:
    """A tournament of ``rounds`` rounds at tables of 4 and 5, seated at random.

    Every table has played all 11 deals, except that ``last_round`` gives the number of deals
    played per table of the last round. It belongs to ``club`` (default: the site's one club).
    """
    rng = random.Random(seed)
    names = names or [f"Speler {i}" for i in range(1, n_players + 1)]
    players = [(f"p{i}", names[i - 1], "") for i in range(1, n_players + 1)]
    seating = random_seating([p[0] for p in players], rounds, rng)
    played = [[DEAL_COUNT] * len(r) for r in seating]
    if last_round is not None and seating:
        played[-1] = last_round
    document = simulate_tournament(
        name="Testtoernooi",
        players=players,
        seating=seating,
        rng=rng,
        played_deals=played,
        settings={"table_sizes": [4, 5], "public": public},
    )
    return tournament_import(document=document, club=club, director=director)


def sheet_version_stored(table, cells, penalties=()):
    """Store ``cells`` (``{(deal, seat index): (bid, tricks)}``) and ``(deal, seat)``
    ``penalties`` as ``table``'s next version, its sheet now, without the save service's rules:
    for a test that needs a sheet in a state no page lets a table reach (on a draft seating,
    finished without its scores kept). Returns the version."""
    from tournament.models import SheetVersion
    from tournament.sheets.content import SheetContent

    latest = SheetVersion.objects.filter(table=table, number__isnull=False).order_by("-number")
    number = latest.values_list("number", flat=True).first()
    content = SheetContent.build(table.seats.count(), cells, penalties)
    rows, penalty_rows = content.to_json()
    return SheetVersion.objects.create(
        table=table,
        number=0 if number is None else number + 1,
        base_number=number or 0,
        cells=rows,
        penalties=penalty_rows,
    )


def round_completed(round_: Round) -> None:
    """Publish the round and mark every table's sheet as played to the end where the round's
    state is read from (``SheetScore``); the sheets themselves stay as they are (their totals
    are scored afresh). For tests that need a finished round, not its deals."""
    Round.objects.filter(pk=round_.pk).update(published=True)
    SheetScore.objects.bulk_create(
        [
            SheetScore(table=table, version=0, started=True, complete=True)
            for table in Table.objects.filter(round_id=round_.pk)
        ],
        update_conflicts=True,
        unique_fields=["table"],
        update_fields=["started", "complete", "seat_ids"],
    )
