"""The season's pages: register, competition, check-in, questions, downloads, public page."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from openpyxl import load_workbook

from tests.season.conftest import NAMES, evening
from tournament.clubs.services import club_sole
from tournament.models import Member, Tournament
from tournament.season.services import competition_add

pytestmark = pytest.mark.django_db


def test_the_season_page_shows_every_evening_and_who_counts(director_client, season):
    page = director_client.get(reverse("competition_detail", args=[season.slug]))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Seizoensklassement" in text
    assert text.count("<strong>") == sum(len(r.counted) for r in page.context["season"].rows)
    assert "Lid J" in text


def season_queries(client, slug) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(reverse("competition_detail", args=[slug])).status_code == 200
    return len(queries)


def test_the_season_page_reads_a_fixed_number_of_queries_however_many_evenings(
    director_client, season, director
):
    three = season_queries(director_client, season.slug)
    for seed in range(10, 14):
        competition_add(competition=season, tournament=evening(seed, NAMES, director))
    assert season.evenings.count() == 7
    assert season_queries(director_client, season.slug) == three


def test_others_cannot_see_a_competition_and_the_public_page_waits_for_the_switch(
    client, django_user_model, season
):
    url = reverse("competition_detail", args=[season.slug])
    assert client.get(url).status_code == 302
    client.force_login(django_user_model.objects.create_user(username="other"))
    assert client.get(url).status_code == 403
    public = reverse("public_season", args=[season.slug])
    assert client.get(public).status_code == 404
    season.public = True
    season.save()
    assert "Lid A" in client.get(public).content.decode()


def test_the_register_adds_edits_and_searches(director_client):
    url = reverse("member_list")
    director_client.post(url, {"name": "Anna Østergaard", "club": "De Troef", "number": "17"})
    member = Member.objects.get(number="17")
    refused = director_client.post(url, {"name": "anna østergaard", "club": "de troef"})
    assert "Het ledenbestand heeft deze naam en club al." in refused.content.decode()
    assert Member.objects.count() == 1
    assert "Østergaard" in director_client.get(url, {"q": "oster"}).content.decode()
    assert "Østergaard" not in director_client.get(url, {"q": "jansen"}).content.decode()
    edit = reverse("member_edit", args=[member.pk])
    director_client.post(edit, {"name": "Anna Østergaard", "club": "De Troef", "number": "17"})
    member.refresh_from_db()
    assert not member.active


def test_merge_shows_what_moves_before_it_merges(director_client, season):
    keep = Member.objects.get(name="Lid J")
    drop = Member.objects.create(register=club_sole(), name="L. J")
    url = reverse("member_merge", args=[keep.pk])
    preview = director_client.get(url, {"other": drop.pk})
    assert "Samenvoegen" in preview.content.decode()
    assert Member.objects.filter(pk=drop.pk).exists()
    director_client.post(url, {"other": drop.pk})
    assert not Member.objects.filter(pk=drop.pk).exists()
    clash = director_client.get(url, {"other": Member.objects.get(name="Lid A").pk})
    assert "Beide leden speelden dezelfde avond" in clash.content.decode()


def test_check_in_ticks_last_evening_and_creates_the_evening(director_client, season):
    url = reverse("check_in", args=[season.slug])
    page = director_client.get(url, {"last": 1})
    ticked = page.context["form"].initial["members"]
    assert len(ticked) == 8
    response = director_client.post(
        url,
        {
            "name": "Avond 4",
            "date": timezone.localdate().isoformat(),
            "members": ticked,
            "new_people": "Nieuwe Speler, De Troef\n",
            "kind-1-name": "Nieuwe Speler",
            "kind-1": "member",
        },
    )
    tournament = Tournament.objects.get(name="Avond 4")
    assert response.status_code == 302
    assert tournament.players.count() == 9
    assert season.evenings.get(tournament=tournament).number == 4


def test_questions_page_answers_same_and_different_person(director_client, season, director):
    Member.objects.create(register=club_sole(), name="Karel Lid")
    tournament = played_near(director)
    competition_add(competition=season, tournament=tournament)
    url = reverse("competition_questions", args=[season.slug])
    assert "K. Lid" in director_client.get(url).content.decode()
    player = tournament.players.get(name="K. Lid")
    director_client.post(url, {"player": player.pk})
    player.refresh_from_db()
    assert player.member.name == "K. Lid"
    assert "Niets te beantwoorden." in director_client.get(url).content.decode()


def played_near(director):
    return evening(20, ["K. Lid", "Lid A", "Lid B", "Lid C"], director)


def test_downloads_and_the_notice_board_pdf(director_client, season, tmp_path):
    xlsx = director_client.get(reverse("competition_download", args=[season.slug, "xlsx"]))
    target = tmp_path / "s.xlsx"
    target.write_bytes(xlsx.content)
    assert load_workbook(target).sheetnames[0] == "Klassement"
    bad = director_client.get(reverse("competition_download", args=[season.slug, "exe"]))
    assert bad.status_code == 404
    pdf = director_client.get(reverse("competition_print", args=[season.slug]))
    assert pdf["Content-Type"] == "application/pdf"
    assert pdf.content.startswith(b"%PDF")
    (tmp_path / "s.pdf").write_bytes(pdf.content)
