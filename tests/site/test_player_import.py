"""Importing a messy player list: the header row is found below titles, empty rows and merged
cells; the preview names the row and columns it took, and the director can choose others."""

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from openpyxl import Workbook

from tests.factories import played_tournament
from tournament.models import Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament(director):
    return played_tournament(4, rounds=0, director=director)


def xlsx(rows, merged=()) -> bytes:
    workbook = Workbook()
    for row in rows:
        workbook.active.append(row)
    for cells in merged:
        workbook.active.merge_cells(cells)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def upload(client, tournament, filename, data):
    url = reverse("player_import", args=[tournament.slug])
    return client.post(url, {"file": SimpleUploadedFile(filename, data)})


def players(response):
    """The names and clubs the preview will register."""
    return [(row.name, row.club) for row in response.context["rows"] if row.ok]


def choose(client, tournament, response, **choice):
    """Post the preview's layout form again with some of its fields changed."""
    form = response.context["layout_form"]
    data = {name: form[name].value() or "" for name in form.fields} | choice
    return client.post(reverse("player_import", args=[tournament.slug]), data)


TITLED = [
    ["Aanmeldingen kerstdrive 2026"],
    [],
    ["Nr.", "Naam", "Club"],
    [1, "Anna de Vries", "De Troefkaart"],
    [2, "Bram Jansen", None],
    [None, None, None],
    [3, "Cor Smit", "'t Aasje"],
    [4, None, None],  # a numbered place nobody signed up for
    [5, None, None],
]


def _csv(separator: str) -> bytes:
    lines = [separator.join("" if v is None else str(v) for v in row) for row in TITLED]
    return "\r\n".join(lines).encode("utf-8")


@pytest.mark.parametrize(
    "filename,data",
    [("spelers.xlsx", xlsx(TITLED)), ("spelers.csv", _csv(";")), ("spelers.csv", _csv(","))],
    ids=["xlsx", "csv-semicolon", "csv-comma"],
)
def test_a_title_row_an_empty_row_and_a_number_column_are_never_players(
    director_client, tournament, filename, data
):
    response = upload(director_client, tournament, filename, data)
    assert response.status_code == 200
    assert players(response) == [
        ("Anna de Vries", "De Troefkaart"),
        ("Bram Jansen", ""),
        ("Cor Smit", "'t Aasje"),
    ]
    assert [row.line for row in response.context["rows"]] == [4, 5, 7]
    page = response.content.decode()
    assert "Kopregel: rij 3" in page and "Naam uit kolom B (Naam)" in page
    assert "Club uit kolom C (Club)" in page
    assert "Aanmeldingen kerstdrive 2026" not in players(response)[0]
    assert tournament.players.count() == 4  # a preview stores nothing

    # The club column as the names instead: the preview changes, nothing is uploaded again.
    response = choose(director_client, tournament, response, name="2", club="")
    assert players(response) == [("De Troefkaart", ""), ("'t Aasje", "")]
    assert "Naam uit kolom C (Club)" in response.content.decode()

    response = choose(director_client, tournament, response, name="1", club="2")
    payload = response.context["confirm"].initial["payload"]
    confirmed = director_client.post(
        reverse("player_import", args=[tournament.slug]), {"payload": payload}
    )
    assert confirmed.status_code == 302
    assert set(tournament.players.values_list("name", flat=True)) >= {
        "Anna de Vries",
        "Bram Jansen",
        "Cor Smit",
    }
    assert tournament.players.count() == 7


def test_a_number_column_without_a_header_gives_the_names_beside_it(director_client, tournament):
    data = xlsx(
        [
            [1, "Anna de Vries", "De Troefkaart", 12.5],
            [2, "Bram Jansen", "De Troefkaart", 10],
            [3, "Cor Smit", "'t Aasje", None],
        ]
    )
    response = upload(director_client, tournament, "kerst.xlsx", data)
    assert players(response) == [
        ("Anna de Vries", "De Troefkaart"),
        ("Bram Jansen", "De Troefkaart"),
        ("Cor Smit", "'t Aasje"),
    ]
    page = response.content.decode()
    assert "Geen kopregel herkend." in page
    # A player is no column name: the column is named by its letter alone.
    assert "Naam uit kolom B: de kolom die het meest op namen lijkt" in page
    assert "(Anna de Vries)" not in page
    assert response.context["layout_form"]["header"].value() == ""
    # The columns to choose from say what they hold; the number columns are not among them.
    assert response.context["layout_form"].fields["name"].choices == [
        ("1", "Kolom B, bijv. Anna de Vries"),
        ("2", "Kolom C, bijv. De Troefkaart"),
    ]

    # Row 1 as the header after all: Anna is now a column name, not a player.
    response = choose(director_client, tournament, response, header="1")
    page = response.content.decode()
    assert "Kopregel: rij 1" in page
    assert players(response) == [("Bram Jansen", "De Troefkaart"), ("Cor Smit", "'t Aasje")]
    # Anna's row names no column: the columns are named by their letters alone.
    assert "Naam uit kolom B: de kolom die het meest op namen lijkt" in page
    assert "Club uit kolom C\n" in page
    assert "(Anna de Vries)" not in page and "(De Troefkaart)" not in page


def test_a_merged_header_over_first_and_last_name_joins_them(director_client, tournament):
    data = xlsx(
        [
            ["Aanmeldingen kerstdrive 2026", None, None, None],
            ["Nr.", "Speler", None, "Club"],
            [None, "Voornaam", "Achternaam", None],
            [1, "Anna", "de Vries", "De Troefkaart"],
            [2, "Bram", "Jansen", None],
            [None, None, None, None],
            [3, "Cor", "Smit", "'t Aasje"],
        ],
        merged=["A1:D1", "A2:A3", "B2:C2", "D2:D3"],
    )
    response = upload(director_client, tournament, "kerst.xlsx", data)
    assert players(response) == [
        ("Anna de Vries", "De Troefkaart"),
        ("Bram Jansen", ""),
        ("Cor Smit", "'t Aasje"),
    ]
    page = response.content.decode()
    assert "Kopregel: rij 3" in page
    assert "Naam uit kolom B + C (Voornaam + Achternaam)" in page
    assert "Club uit kolom D (Club)" in page

    # Row 2 ("Speler") as the header: the name is column B alone, the sub-header is no player.
    response = choose(director_client, tournament, response, header="2")
    assert "Kopregel: rij 2" in response.content.decode()
    assert players(response) == [("Anna", "De Troefkaart"), ("Bram", ""), ("Cor", "'t Aasje")]

    # Back to row 3, which brings its joined columns; or the columns joined by hand.
    assert players(choose(director_client, tournament, response, header="3"))[0] == (
        "Anna de Vries",
        "De Troefkaart",
    )
    response = choose(director_client, tournament, response, name="1+2", club="3")
    assert players(response)[2] == ("Cor Smit", "'t Aasje")


def test_a_list_without_names_is_refused_plainly_and_stores_nothing(director_client, tournament):
    only_numbers = xlsx([["Nr.", "Punten"], [1, 23], [2, 17.5], [3, None]])
    response = upload(director_client, tournament, "uitslag.xlsx", only_numbers)
    assert response.status_code == 422
    assert "Geen namen gevonden in het bestand" in response.content.decode()

    response = upload(director_client, tournament, "leeg.xlsx", xlsx([]))
    assert response.status_code == 422
    assert "Het bestand is leeg" in response.content.decode()

    # A number in the name column among names is a line with a problem, never a player.
    mixed = xlsx([["Naam", "Club"], ["Anna de Vries", "X"], [17, "Y"]])
    response = upload(director_client, tournament, "spelers.xlsx", mixed)
    assert players(response) == [("Anna de Vries", "X")]
    (bad,) = [row for row in response.context["rows"] if not row.ok]
    assert (bad.line, bad.problems) == (3, ["Geen naam: een getal of een datum."])

    # A list signed by someone else is not laid out again.
    forged = choose(director_client, tournament, response, table="forged")
    assert forged.status_code == 422
    assert "Het voorbeeld is verlopen" in forged.content.decode()
    assert Player.objects.filter(tournament=tournament).count() == 4


FOOTED = [
    ["Naam", "Club"],
    ["Anna de Vries", "De Troefkaart"],
    ["Bram Jansen", ""],
    [None, None],
    ["Cor Smit", "'t Aasje"],  # below an empty row, still a name: a player
    [None, None],
    ["Totaal: 19 aanmeldingen", None],
    [None, "Inschrijfgeld 5 euro"],
    ["Let op", "betalen bij de zaal"],
]


def test_totals_and_notes_below_the_list_are_no_players_and_the_preview_says_so(
    director_client, tournament
):
    response = upload(director_client, tournament, "kerst.xlsx", xlsx(FOOTED))
    assert players(response) == [
        ("Anna de Vries", "De Troefkaart"),
        ("Bram Jansen", ""),
        ("Cor Smit", "'t Aasje"),
    ]
    assert [row for row in response.context["rows"] if not row.ok] == []
    assert [(n.line, n.text) for n in response.context["notes"]] == [
        (7, "Totaal: 19 aanmeldingen"),
        (8, "Inschrijfgeld 5 euro"),
        (9, "Let op · betalen bij de zaal"),
    ]
    page = response.content.decode()
    assert "3 regels onder de lijst weggelaten" in page
    assert "Regel 7: „Totaal: 19 aanmeldingen”" in page

    # A line unticked on the preview is left out; the others are registered.
    payload = response.context["confirm"]["payload"].value()
    url = reverse("player_import", args=[tournament.slug])
    done = director_client.post(url, {"payload": payload, "ticked": "True", "line": ["2", "5"]})
    assert done.status_code == 302
    new = set(tournament.players.exclude(name__startswith="Speler").values_list("name", flat=True))
    assert new == {"Anna de Vries", "Cor Smit"}

    # Nothing ticked: nothing registered, and the director is told.
    nothing = director_client.post(url, {"payload": payload, "ticked": "True"})
    assert nothing.status_code == 422
    assert "Er is niets om in te schrijven." in nothing.content.decode()
    assert tournament.players.count() == 6
