"""What a club secretary has besides the standings: who came to which evening (the page, its
files and the next evening's sign-in list), a member's season card, the register as a file."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from tests.season.conftest import NAMES
from tournament.clubs.services import club_sole
from tournament.models import Competition, Member, Player
from tournament.season.attendance import attendance_of
from tournament.season.card import season_card
from tournament.season.selectors import average_shown, season_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def club_season(season):
    """The season of three evenings (ten members, nine without J, eight without A and J) with
    J a guest of the club, B's third evening typed for nobody in the register, a member who
    has not come yet and one who left the club."""
    Member.objects.filter(name="Lid J").update(guest=True)
    third = season_of(season).evenings[2].tournament
    Player.objects.filter(tournament=third, name="Lid B").update(member=None)
    register = club_sole()
    Member.objects.create(register=register, name="Jan van der Meer", number="0123")
    Member.objects.create(register=register, name="Oud Lid", active=False)
    return season


def test_attendance_counts_per_member_and_per_evening_with_the_guests_apart(club_season):
    attendance = attendance_of(club_season)
    counts = {line.name: line.count for line in attendance.members}
    assert counts == {
        "Lid A": 2,
        "Lid B": 2,
        **{name: 3 for name in NAMES[2:9]},
        "Jan van der Meer": 0,  # active, not come yet; the inactive member is not listed
    }
    assert [line.name for line in attendance.members][:3] == ["Lid A", "Lid B", "Lid C"]
    assert attendance.members[-1].name == "Jan van der Meer"  # under M, after "Lid"
    assert [(g.name, g.member is None, g.present) for g in attendance.guests] == [
        ("Lid B", True, (False, False, True)),
        ("Lid J", False, (True, False, False)),
    ]
    assert attendance.members_per_evening == [9, 9, 7]
    assert attendance.guests_per_evening == [1, 0, 1]
    assert attendance.total_per_evening == [10, 9, 8]


def test_the_attendance_files_hold_numbers(director_client, club_season, tmp_path):
    url = reverse("competition_attendance_download", args=[club_season.slug, "xlsx"])
    (tmp_path / "a.xlsx").write_bytes(director_client.get(url).content)
    workbook = load_workbook(tmp_path / "a.xlsx")
    assert workbook.sheetnames == ["Aanwezigheid", "Gasten"]
    sheet = workbook["Aanwezigheid"]
    rows = list(sheet.iter_rows(values_only=True))
    header = rows[1]
    assert header[:3] == ("Naam", "Club", "A1")
    lid_a = next(r for r in rows if r[0] == "Lid A")
    assert lid_a[2:6] == (1, 1, None, 2)
    present = next(r for r in rows if r[0] == "Totaal aanwezig")
    assert present[2:5] == (10, 9, 8)
    guests = list(workbook["Gasten"].iter_rows(values_only=True))
    assert [r[0] for r in guests[2:4]] == ["Lid B", "Lid J"]

    url = reverse("competition_attendance_download", args=[club_season.slug, "csv"])
    text = director_client.get(url).content.decode("utf-8-sig")
    table = list(csv.reader(io.StringIO(text), delimiter=";"))
    assert table[0][:3] == ["Naam", "Club", "Gast"]
    by_name = {(r[0], r[2]): r for r in table[1:]}
    assert [int(v) if v else 0 for v in by_name["Lid A", ""][3:7]] == [1, 1, 0, 2]
    assert by_name["Lid J", "ja"][-1] == "1"
    assert director_client.get(url.replace("csv", "json")).status_code == 404


def test_the_attendance_page_and_the_sign_in_list(director_client, club_season):
    page = director_client.get(reverse("competition_attendance", args=[club_season.slug]))
    text = page.content.decode()
    assert "Jan van der Meer" in text and "Oud Lid" not in text
    assert "niet in het ledenbestand" in text
    url = reverse("competition_sign_in", args=[club_season.slug])
    html = director_client.get(url, {"format": "html"}).content.decode()
    # The active members (not the guest J, not the inactive one) in Dutch list order.
    listed = ["Lid A", *NAMES[1:9], "Jan van der Meer"]
    assert [html.index(f">{name}<") for name in listed] == sorted(
        html.index(f">{name}<") for name in listed
    )
    assert ">Lid J<" not in html and "Oud Lid" not in html
    assert "avond 4" in html
    pdf = director_client.get(url)
    assert pdf["Content-Type"] == "application/pdf" and pdf.content.startswith(b"%PDF")


@pytest.mark.parametrize("ranking", list(Competition.Ranking))
def test_a_members_card_has_the_season_standings_numbers(club_season, ranking):
    Competition.objects.filter(pk=club_season.pk).update(ranking=ranking, min_evenings=3)
    club_season.refresh_from_db()
    season = season_of(club_season)
    assert season.rows
    for row in season.rows:
        card = season_card(season, Member.objects.get(pk=row.member))
        assert card.row == row
        assert card.points == row.points
        assert card.average == average_shown(row.average)
        assert [e.points for e in card.evenings] == [
            None if r is None else r.points for r in row.per_evening
        ]
        assert tuple(e.number for e in card.evenings if e.counts) == row.counted
        for evening, card_evening in zip(season.evenings, card.evenings, strict=True):
            if card_evening.played:
                standing = next(r for r in evening.rows if r.rank == card_evening.place)
                assert standing.tournament_points == card_evening.points
    guest = season_card(season, Member.objects.get(name="Lid J"))
    assert guest.row is None and guest.guest_row is not None
    assert [e.played for e in guest.evenings] == [True, False, False]


def test_the_card_page_and_pdf(director_client, club_season):
    member = Member.objects.get(name="Lid C")
    row = next(r for r in season_of(club_season).rows if r.member == member.pk)
    url = reverse("member_card", args=[member.pk])
    page = director_client.get(url)
    text = page.content.decode()
    assert f"Plaats <strong>{row.rank}</strong>" in text
    assert f"<strong>{row.points}</strong> punten uit 2 van 3 avonden" in text
    assert director_client.get(url, {"competition": "elders"}).status_code == 404
    pdf = director_client.get(
        reverse("member_card_print", args=[member.pk]), {"competition": club_season.slug}
    )
    assert pdf["Content-Type"] == "application/pdf" and pdf.content.startswith(b"%PDF")


def test_the_register_downloads_as_numbers_and_words(director_client, club_season, tmp_path):
    Member.objects.filter(name="Lid A").update(number="17", club="De Troef")
    url = reverse("member_list_download", args=["xlsx"])
    (tmp_path / "r.xlsx").write_bytes(director_client.get(url).content)
    rows = list(load_workbook(tmp_path / "r.xlsx").active.iter_rows(values_only=True))
    assert rows[1] == ("Naam", "Club", "Lidnummer", "Actief", "Gast")
    by_name = {r[0]: r for r in rows[2:]}
    assert len(by_name) == 12
    assert by_name["Lid A"] == ("Lid A", "De Troef", 17, "ja", "nee")
    assert by_name["Jan van der Meer"][2] == "0123"  # the leading zero kept
    assert by_name["Lid J"][4] == "ja" and by_name["Oud Lid"][3] == "nee"
    text = director_client.get(reverse("member_list_download", args=["csv"])).content
    table = list(csv.reader(io.StringIO(text.decode("utf-8-sig")), delimiter=";"))
    assert table[0] == ["Naam", "Club", "Lidnummer", "Actief", "Gast"]
    assert ["Lid A", "De Troef", "17", "ja", "nee"] in table
