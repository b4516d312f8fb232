"""Hostile tournament files: each refused with its problem, nothing stored, on both databases."""

from __future__ import annotations

import copy
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.factories import played_tournament
from tournament.errors import FileCode, Refused
from tournament.models import Player, Round, Tournament
from tournament.tournament_file.exporting import tournament_export
from tournament.tournament_file.importing import tournament_import
from tournament.tournament_file.limits import INTEGER_MAX, ROUNDS_MAX, TABLES_MAX
from tournament.tournament_file.reading import tournament_file_check, tournament_file_parse

pytestmark = pytest.mark.django_db


@pytest.fixture
def document(director):
    """A valid backup of a two-round tournament (deleted again: only the file is left)."""
    tournament = played_tournament(8, 2, director=director)
    exported = tournament_export(tournament=tournament)
    tournament.delete()
    return exported


def _refused_code(raw: bytes | str | None = None, *, document=None) -> str:
    counts = (Tournament.objects.count(), Player.objects.count(), Round.objects.count())
    with pytest.raises(Refused) as refused:
        tournament_import(document=tournament_file_parse(raw) if raw is not None else document)
    assert refused.value.message
    assert (Tournament.objects.count(), Player.objects.count(), Round.objects.count()) == counts
    return refused.value.code


def test_the_valid_backup_imports(document):
    assert tournament_import(document=copy.deepcopy(document)).rounds.count() == 2


def test_nesting_100000_deep_is_refused():
    assert _refused_code("[" * 100_000 + "]" * 100_000) == FileCode.LIMIT


def test_nesting_deeper_than_a_file_is_refused(document):
    deep: list = []
    for _ in range(40):
        deep = [deep]
    document["settings"]["x-extra"] = deep
    assert _refused_code(document=document) == FileCode.LIMIT


def test_an_integer_of_5000_digits_is_refused():
    assert _refused_code('{"version": ' + "9" * 5000 + "}") == FileCode.LIMIT


def test_a_file_over_the_size_limit_is_refused(settings):
    settings.IMPORT_MAX_BYTES = 1000
    assert _refused_code(b" " * 1001 + b"{}") == FileCode.TOO_LARGE


@pytest.mark.parametrize("date", ["0000-01-01", "2024-02-30", "99999-01-01"])
def test_an_impossible_date_is_refused(document, date):
    document["date"] = date
    assert _refused_code(document=document) in (FileCode.LIMIT, FileCode.SCHEMA)


@pytest.mark.parametrize("number", [10**30, 2**32, 40_000, ROUNDS_MAX + 1])
def test_a_round_number_beyond_the_bounds_is_refused(document, number):
    document["rounds"][1]["number"] = number
    assert _refused_code(document=document) == FileCode.LIMIT


@pytest.mark.parametrize("number", [2**40, TABLES_MAX + 1])
def test_a_table_number_beyond_the_bounds_is_refused(document, number):
    document["rounds"][0]["tables"][0]["number"] = number
    assert _refused_code(document=document) == FileCode.LIMIT


@pytest.mark.parametrize("round_", [10**20, INTEGER_MAX, ROUNDS_MAX + 1])
def test_a_withdrawal_round_beyond_the_bounds_is_refused(document, round_):
    document["settings"]["withdrawn"] = {document["players"][0]["id"]: round_}
    assert _refused_code(document=document) == FileCode.LIMIT


@pytest.mark.parametrize(
    "name", ["Bel\x07Man", "Nul\x00Man", "Anna\u202eeoJ", "Jan\u200bde Vries", "\ufeffPiet"]
)
def test_a_name_with_a_hidden_character_is_refused(document, name):
    document["players"][0]["name"] = name
    assert _refused_code(document=document) == FileCode.TEXT


def test_a_place_of_10000_characters_is_refused(document):
    document["settings"]["place"] = "x" * 10_000
    assert _refused_code(document=document) == FileCode.LIMIT


def test_too_many_rounds_are_refused_before_the_rest_is_read(document):
    document["rounds"] = [{"number": n, "tables": []} for n in range(1, 1448)]
    assert _refused_code(document=document) == FileCode.LIMIT


def test_a_preferred_size_that_is_not_allowed_is_refused(document):
    document["settings"]["table_sizes"] = [4]
    document["settings"]["prefer_size"] = 5
    assert _refused_code(document=document) == FileCode.SETTING


def test_rounds_with_a_gap_in_their_numbers_are_refused(document):
    document["rounds"][1]["number"] = 9
    assert _refused_code(document=document) == FileCode.ROUND_NUMBERS


def test_the_import_page_answers_a_hostile_file_with_422_and_the_problem(director_client):
    upload = SimpleUploadedFile("t.json", b"[" * 100_000, content_type="application/json")
    response = director_client.post(reverse("tournament_upload"), {"file": upload})
    assert response.status_code == 422
    assert "te diep" in response.content.decode() or "too deep" in response.content.decode()
    assert not Tournament.objects.exists()


def test_the_file_check_refuses_and_never_raises_anything_else(document):
    raw = json.dumps(document)
    tournament_file_check(json.loads(raw))  # valid


def test_names_are_stored_in_nfc_with_single_spaces(document):
    document["players"][0]["name"] = "  Jose\u0301   Mu\u0308ller "
    document["settings"]["place"] = "Sint-Oedenrode\u0301"
    tournament = tournament_import(document=document)
    player = tournament.players.get(file_id=document["players"][0]["id"])
    assert player.name == "Jos\u00e9 M\u00fcller"
    assert tournament.place == "Sint-Oedenrod\u00e9"


def test_a_name_of_only_spaces_is_refused(document):
    document["players"][0]["name"] = "   "
    assert _refused_code(document=document) == FileCode.TEXT


@pytest.mark.parametrize("raw", ['{"version": 1}', "{}", "[]", '"x"', "1"])
def test_a_file_missing_what_a_tournament_has_is_refused_with_its_problems(raw):
    assert _refused_code(raw) == FileCode.SCHEMA
