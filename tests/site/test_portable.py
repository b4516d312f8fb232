"""The portable tournament file: checked whole, stored whole or not at all, round-tripped."""

import copy
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from hypothesis import HealthCheck, given, settings

from scoring.errors import ErrorCode
from scoring.sheet import Penalty
from tests.sheets.helpers import stored_cells
from tests.strategies import tournament_documents
from tournament.adapter import load_table_sheets
from tournament.errors import FileCode, Refused
from tournament.models import Player, Round, SheetVersion, Table, Tournament
from tournament.sheets.services import SheetSubmission, sheet_record
from tournament.text import text_normalised
from tournament.tournament_file.exporting import tournament_export
from tournament.tournament_file.importing import tournament_import
from tournament.tournament_file.site import SITE_KEY

pytestmark = pytest.mark.django_db


def small_document() -> dict:
    return {
        "format": "bollen-tournament",
        "version": 1,
        "name": "Bollentoernooi De Gouden Aas",
        "date": "2026-11-29",
        "settings": {"table_sizes": [4, 5]},
        "players": [
            {"id": "p1", "name": "Anna de Vries", "club": "De Troefkaart"},
            {"id": "p2", "name": "Bram Jansen"},
            {"id": "p3", "name": "Cor Smit"},
            {"id": "p4", "name": "Dini Visser"},
        ],
        "rounds": [
            {
                "number": 1,
                "tables": [
                    {
                        "number": 1,
                        "seats": ["p1", "p2", "p3", "p4"],
                        "deals": [
                            {"bids": [0, 1, 0, 1], "tricks": [0, 0, 1, 0]},
                            {"bids": [1, 0, 0, 0], "tricks": [1, 1, 0, 0]},
                        ],
                        "penalties": [{"player": "p2", "deal": 2}],
                    }
                ],
            }
        ],
    }


def canonical(document: dict) -> dict:
    """The content that must survive a round trip (penalty order carries no meaning; names
    are stored as the site keeps all text: NFC, each run of white space one space)."""
    document = copy.deepcopy(document)
    document["name"] = text_normalised(document["name"])
    for player in document["players"]:
        for key in ("name", "club"):
            if key in player:
                player[key] = text_normalised(player[key])
        if not player.get("club", True):
            del player["club"]
    for round_ in document["rounds"]:
        for table in round_["tables"]:
            if "penalties" in table:
                table["penalties"].sort(key=lambda p: (p["deal"], p["player"]))
    settings = document.pop("settings", {})
    document["table_sizes"] = settings.get("table_sizes", [4, 5])
    return document


def test_import_stores_players_seats_and_sheets():
    tournament = tournament_import(document=small_document())
    assert tournament.players.count() == 4
    (sheet,) = load_table_sheets(tournament=tournament)
    boxes = [(b, t) for d in sheet.sheet.deals for b, t in zip(d.bids, d.tricks, strict=True)]
    assert sum(box != (None, None) for box in boxes) == 8
    assert tournament.rounds.get().state == Round.State.PLAYING


def test_penalty_pairs_are_deal_first_on_the_site_and_seat_first_in_the_site_block():
    """The site keeps ``[deal, seat]`` pairs, the cells' key order; the file's site block keeps
    the ``[seat, deal]`` its schema says, written and read back at the file's edge."""
    tournament = tournament_import(document=small_document())
    table = Table.objects.get(round__tournament=tournament)
    assert SheetVersion.objects.get(table=table).penalties == [[2, 1]]  # deal 2, p2 in seat 1
    submission = SheetSubmission(
        cells=stored_cells(table), penalties=[(2, 1), (1, 3)], base_version=0
    )
    sheet_record(table=table, submission=submission)

    exported = tournament_export(tournament=tournament)
    (entry,) = exported["settings"][SITE_KEY]["tables"]
    assert entry["versions"][-1]["penalties"] == [[3, 1], [1, 2]]
    again = tournament_import(document=exported)
    restored = SheetVersion.objects.get(table__round__tournament=again, number=1)
    assert restored.penalties == [[1, 3], [2, 1]]
    (sheet,) = load_table_sheets(tournament=again)
    assert sheet.sheet.penalties == (Penalty(seat=3, deal=1), Penalty(seat=1, deal=2))


def test_import_command_prints_the_slug_last(tmp_path, capsys):
    path = tmp_path / "t.json"
    path.write_text(json.dumps(small_document()), encoding="utf-8")
    call_command("import_tournament", str(path))
    last_line = capsys.readouterr().out.strip().splitlines()[-1]
    assert Tournament.objects.get(slug=last_line).name == "Bollentoernooi De Gouden Aas"


def test_broken_file_reports_every_problem_and_stores_nothing():
    document = small_document()
    table = document["rounds"][0]["tables"][0]
    table["deals"][0]["bids"] = [0, 1, 0, 0]  # dealer p1 of deal 1 made the sum 1 = hand size
    table["deals"][1]["tricks"] = [1, 1, 1, 0]  # 3 tricks in a 2-card deal
    document["rounds"].append({"number": 2, "tables": [{"number": 1, "seats": ["p1", "p9", "p2"]}]})
    with pytest.raises(Refused) as caught:
        tournament_import(document=document)
    codes = [p.code for p in caught.value.problems]
    assert codes.count(ErrorCode.DEALER_BID) == 1
    assert ErrorCode.TRICKS_SUM in codes
    assert FileCode.UNKNOWN_PLAYER in codes
    dealer = next(p for p in caught.value.problems if p.code == ErrorCode.DEALER_BID)
    assert (dealer.round, dealer.table, dealer.deal) == (1, 1, 1)
    assert "Anna de Vries" in dealer.player
    assert Tournament.objects.count() == 0
    assert Player.objects.count() == 0


def test_schema_problems_name_the_place():
    document = small_document()
    document["rounds"][0]["tables"][0]["deals"][1]["bids"] = [1, 0, 9, 0]
    with pytest.raises(Refused) as caught:
        tournament_import(document=document)
    (problem,) = caught.value.problems
    assert problem.code == FileCode.SCHEMA
    assert (problem.round, problem.table, problem.deal) == (1, 1, 2)


def test_import_command_fails_with_every_problem(tmp_path, capsys):
    document = small_document()
    document["players"].append({"id": "p1", "name": "Dubbel"})
    path = tmp_path / "t.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(CommandError, match="niets geïmporteerd"):
        call_command("import_tournament", str(path))
    assert "p1" in capsys.readouterr().err
    assert Tournament.objects.count() == 0


def test_not_json_is_refused_with_line_and_column(tmp_path):
    path = tmp_path / "t.json"
    path.write_text('{"format": "bollen-tournament",\n "version": 1,,}', encoding="utf-8")
    with pytest.raises(CommandError):
        call_command("import_tournament", str(path))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document=tournament_documents())
def test_import_then_export_gives_back_the_same_content(document):
    tournament = tournament_import(document=document)
    assert canonical(tournament_export(tournament=tournament)) == canonical(document)


def test_export_then_import_again_is_stable():
    first = tournament_import(document=small_document())
    exported = tournament_export(tournament=first)
    second = tournament_import(document=exported)
    assert tournament_export(tournament=second) == exported
    assert second.slug != first.slug


def test_a_file_without_site_records_imports_as_before():
    document = small_document()
    tournament = tournament_import(document=document)
    assert tournament.confirmation_rule == Tournament.ConfirmationRule.AUTO
    assert tournament.count_unconfirmed is True
    assert not tournament.directors.exists() and not tournament.scorers.exists()
    exported = tournament_export(tournament=tournament, site=False)
    assert canonical(exported) == canonical(document)


def test_new_settings_are_checked_with_the_rest():
    document = small_document()
    document["settings"]["confirmation_rule"] = "everyone"
    document["settings"]["count_unconfirmed"] = "yes"
    document["rounds"][0]["tables"][0]["seats"][3] = "p9"
    with pytest.raises(Refused) as refused:
        tournament_import(document=document)
    codes = [p.code for p in refused.value.problems]
    assert codes.count(FileCode.SETTING) == 2 and FileCode.UNKNOWN_PLAYER in codes
    assert not Tournament.objects.exists()


def test_the_seating_choices_and_pairs_kept_apart_survive_a_round_trip():
    document = small_document()
    document["settings"].update(
        seating_balance="repeats", clubs_apart_first_round=False, apart=[["p3", "p1"]]
    )
    tournament = tournament_import(document=document)
    assert tournament.seating_balance == Tournament.SeatingBalance.REPEATS
    assert tournament.clubs_apart_first_round is False
    pair = tournament.apart_pairs.get()
    assert {pair.player_a.file_id, pair.player_b.file_id} == {"p1", "p3"}
    exported = tournament_export(tournament=tournament)
    assert exported["settings"]["seating_balance"] == "repeats"
    assert exported["settings"]["clubs_apart_first_round"] is False
    assert exported["settings"]["apart"] == [["p1", "p3"]]
    again = tournament_import(document=exported)
    assert tournament_export(tournament=again) == exported


def test_pairs_kept_apart_must_name_two_players_of_the_file():
    document = small_document()
    document["settings"].update(
        seating_balance="sideways", apart=[["p1", "p9"], ["p2", "p2"], ["p3"]]
    )
    with pytest.raises(Refused) as refused:
        tournament_import(document=document)
    lines = [p.message for p in refused.value.problems]
    codes = [p.code for p in refused.value.problems]
    assert codes.count(FileCode.SETTING) == 2  # the balance, and a pair of one
    assert any("seating_balance" in line for line in lines)
    document["settings"]["apart"] = [["p1", "p9"], ["p2", "p2"]]
    document["settings"]["seating_balance"] = "even"
    with pytest.raises(Refused) as refused:
        tournament_import(document=document)
    problems = refused.value.problems
    assert [p.code for p in problems] == [FileCode.UNKNOWN_PLAYER, FileCode.SETTING]
    assert "p9" in problems[0].message
    assert "Bram Jansen (p2)" in problems[1].message
    assert not Tournament.objects.exists()


def test_a_player_without_consent_stays_off_the_public_pages_after_a_round_trip():
    first = tournament_import(document=small_document())
    Player.objects.filter(tournament=first, file_id="p2").update(public_consent=False)
    exported = tournament_export(tournament=first)
    assert exported["settings"][SITE_KEY]["not_public"] == ["p2"]
    again = tournament_import(document=exported)
    hidden = Player.objects.filter(tournament=again, public_consent=False)
    assert [p.file_id for p in hidden] == ["p2"]
    exported["settings"][SITE_KEY]["not_public"] = ["p9"]
    with pytest.raises(Refused) as refused:
        tournament_import(document=exported)
    assert "p9" in refused.value.problems[0].message
