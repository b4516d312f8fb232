"""Reading a photographed score sheet: a printed sheet, written in handwriting the model never
saw and photographed at an angle, comes back with its table and every box right or pointed out;
photos that cannot be read say why (``read_sheet_photo`` and the command of that name)."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest
from django.core.management import call_command

from tests.factories import played_tournament, round_completed
from tests.photos.paper import photographed_sheet, printed_page
from tournament.models import Club
from tournament.photos.page import find_marks, page_transform
from tournament.photos.reading import PhotoProblem, SheetPhotoReading, read_sheet_photo
from tournament.printing.sheet_layout import QR_RECT

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def sheet(django_db_setup, django_db_blocker):
    """Table 1's sheet of round 2 (tables of 5 and 4, nothing entered yet), written and
    photographed once for the module: ``(tournament, photo bytes, what was written, layout)``."""
    with django_db_blocker.unblock():
        clubs = set(Club.objects.values_list("pk", flat=True))
        tournament = played_tournament(9, rounds=2, last_round=[0, 0])
        page, _ = printed_page(tournament, 2, 1)
        photo, game = photographed_sheet(tournament, 2, 1)
        yield tournament, photo, game, page
        # Committed outside any test's transaction: gone again, the club it made too.
        tournament.delete()
        Club.objects.exclude(pk__in=clubs).delete()


def test_a_photographed_sheet_is_read_and_every_doubtful_box_pointed_out(sheet):
    tournament, photo, game, page = sheet
    reading = read_sheet_photo(tournament, photo)
    assert isinstance(reading, SheetPhotoReading), reading
    assert (reading.round, reading.table_number) == (2, page["table"])
    read = {
        (deal["deal"], row, kind): values[row - 1]
        for deal in reading.deals
        for kind, values in (("bid", deal["bids"]), ("tricks", deal["tricks"]))
        for row in range(1, len(values) + 1)
    }
    assert read.keys() == game.keys()
    wrong = {key for key in game if read[key] != game[key]}
    assert wrong <= set(reading.uncertain)
    assert len(reading.uncertain) <= 0.15 * len(game)
    assert reading.page_jpeg.startswith(b"\xff\xd8")  # the straightened page, for checking


def test_the_command_prints_a_reading_or_a_problem_per_file(sheet, tmp_path, capsys):
    tournament, photo, _, _ = sheet
    (tmp_path / "tafel.jpg").write_bytes(photo)
    cv2.imwrite(str(tmp_path / "kat.png"), np.full((600, 800), 128, np.uint8))
    call_command(
        "read_sheet_photo",
        tournament.slug,
        str(tmp_path / "tafel.jpg"),
        str(tmp_path / "kat.png"),
        str(tmp_path / "weg.jpg"),
    )
    sheet_json, not_a_sheet, missing = json.loads(capsys.readouterr().out)
    assert sheet_json["file"] == str(tmp_path / "tafel.jpg")
    assert (sheet_json["round"], sheet_json["table"]) == (2, 1)
    assert [d["deal"] for d in sheet_json["deals"]] == list(range(1, 12))
    assert all(len(d["bids"]) == len(d["tricks"]) == 5 for d in sheet_json["deals"])
    assert all(len(u) == 3 and u[2] in ("bid", "tricks") for u in sheet_json["uncertain"])
    assert not_a_sheet == {
        "file": str(tmp_path / "kat.png"),
        "problem": "Geen scoreformulier gevonden op deze foto: fotografeer het hele geprinte "
        "formulier, met de vier zwarte vierkantjes in de hoeken erop, en houd de telefoon stil.",
    }
    assert missing["file"] == str(tmp_path / "weg.jpg")
    assert missing["problem"].startswith(f"Kan {tmp_path / 'weg.jpg'} niet lezen")


def test_a_sheet_of_another_tournament_is_refused(sheet):
    _, photo, _, _ = sheet
    other = played_tournament(8, rounds=1, last_round=[0, 0])
    problem = read_sheet_photo(other, photo)
    assert problem == PhotoProblem(
        f"Dit is een scoreformulier van een ander toernooi, niet van {other.name}."
    )


def test_a_sheet_of_a_round_already_complete_is_refused(sheet):
    tournament, photo, _, _ = sheet
    round_completed(tournament.rounds.get(number=2))
    problem = read_sheet_photo(tournament, photo)
    assert isinstance(problem, PhotoProblem)
    assert problem.message.startswith("Ronde 2 is compleet")


def test_a_sheet_whose_qr_code_is_covered_says_so(sheet):
    tournament, photo, _, _ = sheet
    image = cv2.imdecode(np.frombuffer(photo, np.uint8), cv2.IMREAD_GRAYSCALE)
    x, y, w, h = QR_RECT  # a bright reflection over the code
    corners = np.array([[[x, y], [x + w, y], [x + w, y + h], [x, y + h]]], np.float64)
    glare = cv2.perspectiveTransform(corners, page_transform(find_marks(image)))
    cv2.fillConvexPoly(image, glare.reshape(-1, 2).astype(np.int32), 235)
    problem = read_sheet_photo(tournament, cv2.imencode(".jpg", image)[1].tobytes())
    assert isinstance(problem, PhotoProblem)
    assert "QR-code" in problem.message


def test_a_photo_too_blurred_for_its_marks_says_it_is_blurred_not_that_there_is_no_sheet(sheet):
    tournament, photo, _, _ = sheet
    image = cv2.imdecode(np.frombuffer(photo, np.uint8), cv2.IMREAD_GRAYSCALE)
    shaken = cv2.imencode(".jpg", cv2.GaussianBlur(image, (0, 0), 6))[1].tobytes()
    problem = read_sheet_photo(tournament, shaken)
    assert problem == PhotoProblem(
        "Deze foto is te onscherp om te lezen: houd de telefoon stil en fotografeer opnieuw."
    )
