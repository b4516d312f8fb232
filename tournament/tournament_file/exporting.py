"""Export of a tournament as the portable tournament file (``docs/tournament-file.md``)."""

from __future__ import annotations

from typing import Any

from scoring.sheet import DealEntry, Penalty, Sheet
from tournament.adapter import load_table_sheets
from tournament.models import Player, Tournament
from tournament.tournament_file.site import SITE_KEY, seats_turned, sheet_file_deals
from tournament.tournament_file.site_export import site_export

FORMAT = "bollen-tournament"
VERSION = 1


def tournament_export(
    *, tournament: Tournament, site: bool = True, members: bool = True
) -> dict[str, Any]:
    """The v1 document of a tournament: settings, players, seating and every sheet, and (unless
    ``site`` is off) the site's own records in ``settings["x-site"]``: sheet history,
    confirmations, table links, the team and (unless ``members`` is off: a competition file
    says it itself) which member of the register each player is (see ``portable_site``)."""
    players = list(Player.objects.filter(tournament=tournament).order_by("pk"))
    file_id = {p.pk: p.file_id for p in players}
    settings: dict[str, Any] = {
        "table_sizes": list(tournament.table_sizes),
        "prefer_size": tournament.prefer_size,
        "rounds_planned": tournament.rounds_planned,
        "tiebreaks": list(tournament.tiebreaks),
        "language": tournament.language,
        "public": tournament.public,
        "confirmation_rule": tournament.confirmation_rule,
        "count_unconfirmed": tournament.count_unconfirmed,
        "seating_balance": tournament.seating_balance,
        "clubs_apart_first_round": tournament.clubs_apart_first_round,
        "prize_places": tournament.prize_places,
        "prize_last_place": tournament.prize_last_place,
    }
    apart = [
        [file_id[a], file_id[b]]
        for a, b in tournament.apart_pairs.values_list("player_a", "player_b").order_by("pk")
    ]
    if apart:
        settings["apart"] = apart
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
        # v1: seats[0] deals deal 1. A table that drew another first dealer is written turned
        # to start with that player; x-site keeps the drawn row to turn it back on import.
        first = sheet.sheet.first_dealer
        seats = seats_turned([file_id[pk] for pk in sheet.player_ids], first)
        table: dict[str, Any] = {"number": sheet.table_number, "seats": seats}
        deals = sheet_file_deals(_sheet_turned(sheet.sheet))
        if deals:
            table["deals"] = deals
        if sheet.sheet.penalties:
            by_row = [file_id[pk] for pk in sheet.player_ids]
            table["penalties"] = [
                {"player": by_row[p.seat], "deal": p.deal} for p in sheet.sheet.penalties
            ]
        tables_by_round.setdefault(sheet.round_number, []).append(table)

    if site:
        settings[SITE_KEY] = site_export(tournament=tournament, members=members)

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


def _sheet_turned(sheet: Sheet) -> Sheet:
    """The sheet with its rows in the file's order: the first dealer's row first."""
    first = sheet.first_dealer
    if not first:
        return sheet
    deals = tuple(
        DealEntry(
            bids=tuple(seats_turned(deal.bids, first)),
            tricks=tuple(seats_turned(deal.tricks, first)),
        )
        for deal in sheet.deals
    )
    penalties = tuple(
        Penalty(seat=(p.seat - first) % sheet.n_seats, deal=p.deal) for p in sheet.penalties
    )
    return Sheet(n_seats=sheet.n_seats, deals=deals, penalties=penalties)
