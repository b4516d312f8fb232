"""The register takes a pasted list: a preview with each line's problems, then "Add"."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tournament.clubs.services import club_sole
from tournament.models import Member

pytestmark = pytest.mark.django_db

LIST = (
    "Anna Aalbers; De Troef; 101\n"
    "Bert Bos\tHarten\t102\n"
    "\n"
    "Cor Claassen\n"
    "; De Troef; 104\n"
    "Dirk Dekker; De Troef; 101\n"
    "Els Eerens; ; 105\n"
)


def test_a_pasted_list_is_previewed_line_by_line_before_anything_is_added(director_client):
    Member.objects.create(register=club_sole(), name="Cor Claassen")
    page = director_client.post(reverse("member_list"), {"paste": LIST})
    rows = {row.line: row for row in page.context["pasted"]}
    assert (rows[1].name, rows[1].club, rows[1].number) == ("Anna Aalbers", "De Troef", "101")
    assert (rows[2].name, rows[2].club, rows[2].number) == ("Bert Bos", "Harten", "102")
    assert rows[4].problems == ["Staat al in het ledenbestand."]
    assert rows[5].problems == ["De naam is leeg."]
    assert rows[6].problems == ["Hetzelfde lidnummer als regel 1."]
    assert (rows[7].club, rows[7].number, rows[7].ok) == ("", "105", True)
    assert Member.objects.count() == 1
    text = page.content.decode()
    assert "3 leden toevoegen" in text

    added = director_client.post(reverse("member_list"), {"payload": page.context["payload"]})
    assert added.status_code == 302
    assert set(Member.objects.values_list("name", "number")) == {
        ("Cor Claassen", ""),
        ("Anna Aalbers", "101"),
        ("Bert Bos", "102"),
        ("Els Eerens", "105"),
    }


def test_adding_a_preview_twice_adds_nobody_the_second_time(director_client):
    page = director_client.post(reverse("member_list"), {"paste": "Anna Aalbers; De Troef; 7"})
    director_client.post(reverse("member_list"), {"payload": page.context["payload"]})
    again = director_client.post(
        reverse("member_list"), {"payload": page.context["payload"]}, follow=True
    )
    assert Member.objects.count() == 1
    assert any("Staat al in het ledenbestand." in str(m) for m in again.context["messages"])


def test_after_add_the_name_box_has_the_focus_again(director_client):
    response = director_client.post(
        reverse("member_list"), {"name": "Anna Aalbers", "club": "", "number": ""}, follow=True
    )
    assert 'name="name"' in response.content.decode()
    assert response.context["form"].fields["name"].widget.attrs.get("autofocus") is True
    assert "autofocus" in response.content.decode()


def test_a_pasted_name_near_a_member_or_an_earlier_line_is_warned_about_and_still_added(
    director_client,
):
    Member.objects.create(register=club_sole(), name="J. de Vries", club="De Troef")
    pasted = "Jan de Vries; De Troef\nSjaak Brouwer\nSjaak Brouwers\nAnna van 't Hof\nPiet Bos\n"
    page = director_client.post(reverse("member_list"), {"paste": pasted})
    rows = {row.line: row for row in page.context["pasted"]}
    assert rows[1].warnings == [
        "Lijkt op J. de Vries (De Troef) in het ledenbestand: is dat dezelfde persoon, laat "
        "deze regel dan weg."
    ]
    assert rows[3].warnings == [
        "Lijkt op Sjaak Brouwer van regel 2: is dat dezelfde persoon, laat er dan een van de "
        "twee weg."
    ]
    assert [rows[n].warnings for n in (2, 4, 5)] == [[], [], []]
    assert all(row.ok for row in rows.values())
    assert "Lijkt op J. de Vries (De Troef)" in page.content.decode()
    assert "5 leden toevoegen" in page.content.decode()


def test_a_pasted_name_that_differs_from_a_member_only_by_an_apostrophe_is_in_the_register(
    director_client,
):
    Member.objects.create(register=club_sole(), name="Anna van 't Hof")
    page = director_client.post(reverse("member_list"), {"paste": "Anna van \u2019t Hof\n"})
    assert page.context["pasted"][0].problems == ["Staat al in het ledenbestand."]
