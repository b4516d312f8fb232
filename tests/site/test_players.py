"""Registering players: typed, pasted, imported from Excel/CSV with a preview; withdrawals."""

import io
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone, translation
from openpyxl import Workbook

from tests.factories import played_tournament, round_completed
from tournament.errors import Refused
from tournament.models import Player, Round
from tournament.players.importing import PlayerFileError, check_rows, parse_pasted, parse_upload
from tournament.players.services import player_withdraw
from tournament.rounds.seating import round_seat

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament(director):
    return played_tournament(8, rounds=0, director=director)


def xlsx(rows) -> bytes:
    workbook = Workbook()
    for row in rows:
        workbook.active.append(row)
    for row in workbook.active.iter_rows():
        for cell in row:
            if isinstance(cell.value, str) and cell.value.startswith("="):
                cell.data_type = "s"  # text that looks like a formula, as typed in Excel
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def test_paste_accepts_tab_or_semicolon_before_the_club():
    rows = parse_pasted("Anna de Vries\tDe Troefkaart\n\nBram Jansen; 't Aasje\nCor Smit\n")
    assert [(r.line, r.name, r.club) for r in rows] == [
        (1, "Anna de Vries", "De Troefkaart"),
        (3, "Bram Jansen", "'t Aasje"),
        (4, "Cor Smit", ""),
    ]


def test_excel_with_a_header_row_is_read_by_column_name():
    data = xlsx([["Club", "Naam"], ["De Troefkaart", "Anna"], [None, "Bram"], [None, None]])
    rows = parse_upload("spelers.xlsx", data)
    assert [(r.name, r.club) for r in rows] == [("Anna", "De Troefkaart"), ("Bram", "")]


def test_csv_in_windows_encoding_with_semicolons():
    data = "Naam;Club\nZoë Müller;De Gouden Aas\n".encode("cp1252")
    (row,) = parse_upload("spelers.csv", data)
    assert (row.name, row.club) == ("Zoë Müller", "De Gouden Aas")


def test_add_one_player(director_client, tournament):
    response = director_client.post(
        reverse("player_list", args=[tournament.slug]), {"name": "Nieuwe Speler", "club": ""}
    )
    assert response.status_code == 302
    assert tournament.players.filter(name="Nieuwe Speler", joined_round=1).exists()


def test_import_preview_shows_problems_and_saves_nothing_until_confirmed(
    director_client, tournament
):
    existing = tournament.players.first().name
    data = xlsx(
        [
            ["Naam", "Club"],
            ["Anna", "A"],
            ["", "B"],
            ["Anna", "C"],
            [existing, ""],
            ["x" * 201, ""],
            ["Bram", "=HYPERLINK()"],
        ]
    )
    url = reverse("player_import", args=[tournament.slug])
    before = tournament.players.count()
    response = director_client.post(url, {"file": SimpleUploadedFile("p.xlsx", data)})
    assert response.status_code == 200
    rows = response.context["rows"]
    problems = {row.line: row.problems for row in rows}
    assert problems[2] == [] and problems[7] == []
    assert "empty" in problems[3][0] or "leeg" in problems[3][0]
    assert problems[4] and problems[5] and problems[6]
    assert tournament.players.count() == before

    payload = response.context["confirm"].initial["payload"]
    response = director_client.post(url, {"payload": payload})
    assert response.status_code == 302
    assert tournament.players.count() == before + 2
    assert tournament.players.get(name="Bram").club == "=HYPERLINK()"


@pytest.mark.parametrize(
    "text,asks",
    [
        ("Anna de Vries, De Troef\nBert Smit, Bollenclub\n", True),
        ("Anna de Vries; De Troef\nBert Smit, Bollenclub\n", False),  # one has a club
        ("Anna de Vries, De Troef\nBert Smit\n", False),  # not every line has a comma
    ],
)
def test_a_pasted_list_with_commas_asks_whether_the_club_is_after_them(
    director_client, tournament, text, asks
):
    response = director_client.post(reverse("player_paste", args=[tournament.slug]), {"text": text})
    assert response.status_code == 200
    page = response.content.decode()
    assert ('id="comma-hint"' in page) is asks
    if asks:
        assert "Plak de lijst dan opnieuw met een puntkomma" in page
        assert "Anna de Vries, De Troef" in page  # still a name: nothing is guessed
    assert tournament.players.count() == 8  # a preview stores nothing


def test_tampered_preview_is_refused(director_client, tournament):
    url = reverse("player_paste", args=[tournament.slug])
    response = director_client.post(url, {"payload": "not-signed"})
    assert response.status_code == 422
    assert tournament.players.count() == 8


def test_late_entry_plays_from_the_next_open_round(director_client, director):
    tournament = played_tournament(8, rounds=1, director=director)
    director_client.post(reverse("player_list", args=[tournament.slug]), {"name": "Laat"})
    assert Player.objects.get(name="Laat").joined_round == 2


def test_zip_bomb_is_refused_before_parsing():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/worksheets/sheet1.xml", b"<a>" + b" " * 60_000_000 + b"</a>")
    with pytest.raises(PlayerFileError, match="MB"):
        parse_upload("bomb.xlsx", buffer.getvalue())


def test_billion_laughs_workbook_is_refused():
    laughs = (
        b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
        b'<!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">'
        b'<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>'
        b"<workbook>&lol3;</workbook>"
    )
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("[Content_Types].xml", laughs)
        archive.writestr("xl/workbook.xml", laughs)
    with pytest.raises(PlayerFileError, match=r"cannot be read|kan niet gelezen"):
        parse_upload("laughs.xlsx", buffer.getvalue())


def test_file_that_is_not_a_spreadsheet_is_refused_clearly():
    with pytest.raises(PlayerFileError):
        parse_upload("spelers.pdf", b"%PDF-1.4")
    with pytest.raises(PlayerFileError):
        parse_upload("spelers.xlsx", b"not a zip")


def test_withdrawal_keeps_earlier_rounds_and_refuses_a_round_in_play(director):
    tournament = played_tournament(8, rounds=2, last_round=[3, 0], director=director)
    round_2 = tournament.rounds.get(number=2)
    assert round_2.state == Round.State.PLAYING
    player = round_2.seats.first().player
    with pytest.raises(Refused) as refused:
        player_withdraw(player=player, from_round=2)
    assert refused.value.problems[0].code == "withdraw_round"
    player_withdraw(player=player, from_round=3)
    player.refresh_from_db()
    assert player.withdrawn_round == 3
    assert player.seats.count() == 2


def test_withdraw_view_reports_the_round_to_reseat(director_client, director):
    tournament = played_tournament(8, rounds=1, director=director)
    round_ = Round.objects.create(tournament=tournament, number=2, published=True)
    table = round_.tables.create(number=1)
    player = tournament.players.first()
    round_.seats.create(table=table, player=player, position=0)
    response = director_client.post(
        reverse("player_withdraw", args=[tournament.slug, player.pk]),
        {"from_round": 2},
        follow=True,
    )
    texts = [str(m) for m in response.context["messages"]]
    assert any("2" in t for t in texts)
    assert not round_.seats.filter(player=player).exists()


def test_a_name_written_with_another_apostrophe_or_accent_is_the_same_name():
    with translation.override("en"):
        rows = check_rows(
            parse_pasted("Anna van \u2019t Hof\nAnna van t Hof\nJens Ostergaard"),
            existing=["Anna van 't Hof", "Jens \u00d8stergaard"],
        )
    assert [len(row.problems) for row in rows] == [1, 1, 1]
    assert all(row.problems[0] == "Already registered." for row in rows)


def test_extra_spaces_do_not_make_a_new_player(director_client, tournament):
    name = tournament.players.first().name
    doubled = name.replace(" ", "  ")
    url = reverse("player_list", args=[tournament.slug])
    response = director_client.post(url, {"name": doubled})
    assert tournament.players.count() == 8
    # Told at the name typed, without a "line 1" of a list that was never there.
    assert response.status_code == 422
    assert response.context["form"].errors["name"] == [f"{name}: Al ingeschreven."]


def test_a_pair_set_never_to_sit_together_is_kept_apart_in_every_round(director, director_client):
    tournament = played_tournament(8, rounds=0, director=director)
    tournament.rounds_planned = 3
    tournament.save(update_fields=["rounds_planned"])
    anna, bert = tournament.players.order_by("pk")[:2]
    url = reverse("player_apart", args=[tournament.slug, anna.pk])
    director_client.post(url, {"other": bert.pk, "action": "add"})
    page = director_client.get(reverse("player_detail", args=[tournament.slug, anna.pk]))
    assert list(page.context["kept_apart"]) == [bert]
    for _ in range(3):
        round_, _note = round_seat(tournament=tournament)
        tables = {seat.player_id: seat.table_id for seat in round_.seats.all()}
        assert tables[anna.pk] != tables[bert.pk]
        round_completed(round_)
    director_client.post(url, {"other": bert.pk, "action": "remove"})
    assert not tournament.apart_pairs.exists()


DUTCH_ORDER = ["Piet Bakker", "Kees de Boer", "Jan van der Meer", "Anna Zwart"]


@pytest.fixture
def named(director):
    # Listed by first name; a Dutch list orders them by surname.
    return played_tournament(4, rounds=1, names=sorted(DUTCH_ORDER), director=director)


def test_the_never_with_list_is_in_dutch_order_and_leaves_out_partners_set(named, director_client):
    anna = named.players.get(name="Anna Zwart")
    url = reverse("player_detail", args=[named.slug, anna.pk])
    field = director_client.get(url).context["apart_form"]["other"]
    (empty, *choices) = [label for _value, label in field.field.choices]
    assert empty == "Kies een speler"
    assert choices == DUTCH_ORDER[:3]
    kees = named.players.get(name="Kees de Boer")
    director_client.post(
        reverse("player_apart", args=[named.slug, anna.pk]), {"other": kees.pk, "action": "add"}
    )
    field = director_client.get(url).context["apart_form"]["other"]
    assert [label for _value, label in field.field.choices][1:] == [
        "Piet Bakker",
        "Jan van der Meer",
    ]


def test_standings_sorted_by_name_follow_the_dutch_list_order(named, director_client):
    url = reverse("standings", args=[named.slug])
    table = director_client.get(url, {"sort": "name"}).context["table"]
    assert [row.record["name"] for row in table.rows] == DUTCH_ORDER
    table = director_client.get(url, {"sort": "-name"}).context["table"]
    assert [row.record["name"] for row in table.rows] == DUTCH_ORDER[::-1]


def test_a_player_registered_in_error_is_deleted_until_seated(director, director_client):
    tournament = played_tournament(9, rounds=0, director=director)
    anna, bert, cor = tournament.players.order_by("pk")[:3]
    director_client.post(
        reverse("player_apart", args=[tournament.slug, anna.pk]),
        {"other": bert.pk, "action": "add"},
    )
    assert tournament.apart_pairs.count() == 1
    edit = director_client.get(reverse("player_edit", args=[tournament.slug, anna.pk]))
    assert edit.context["cannot_delete"] is None
    assert (
        f"{anna.name} verwijderen? Dit kan niet ongedaan gemaakt worden." in edit.content.decode()
    )
    url = reverse("player_delete", args=[tournament.slug, anna.pk])
    assert director_client.get(url).status_code == 405
    response = director_client.post(url, follow=True)
    assert [str(m) for m in response.context["messages"]] == [f"{anna.name} is verwijderd."]
    assert not Player.objects.filter(pk=anna.pk).exists()
    assert not tournament.apart_pairs.exists()

    # Seated in a round that has not started: the seating goes first.
    round_, _note = round_seat(tournament=tournament)
    url = reverse("player_delete", args=[tournament.slug, bert.pk])
    edit = director_client.get(reverse("player_edit", args=[tournament.slug, bert.pk]))
    assert "nog niet begonnen" in edit.context["cannot_delete"]
    assert url not in edit.content.decode()
    response = director_client.post(url, follow=True)
    (text,) = [str(m) for m in response.context["messages"]]
    assert text.startswith(f"{bert.name} is ingedeeld in ronde 1, die nog niet begonnen is.")

    # Played: the player stays in the standings; withdraw them instead.
    round_completed(round_)
    response = director_client.post(url, follow=True)
    (text,) = [str(m) for m in response.context["messages"]]
    assert text.endswith("Meld de speler in plaats daarvan af.")
    assert Player.objects.filter(pk=bert.pk).exists()

    # A finished tournament keeps its players.
    tournament.finished_at = timezone.now()
    tournament.save(update_fields=["finished_at"])
    response = director_client.post(
        reverse("player_delete", args=[tournament.slug, cor.pk]), follow=True
    )
    assert Player.objects.filter(pk=cor.pk).exists()
    (text,) = [str(m) for m in response.context["messages"]]
    assert text.startswith("Niet opgeslagen: dit toernooi is afgesloten")


def test_a_refused_withdrawal_names_the_field_by_its_label(director_client, tournament):
    player = tournament.players.first()
    response = director_client.post(
        reverse("player_withdraw", args=[tournament.slug, player.pk]),
        {"from_round": 1},
        follow=True,
    )
    (text,) = [str(m) for m in response.context["messages"]]
    assert text == (
        f"Afmelden vanaf ronde: {player.name} speelt pas vanaf ronde 1; meld de speler af vanaf "
        "een latere ronde. Per vergissing ingeschreven en nog niet ingedeeld? Verwijder de "
        "speler dan."
    )
