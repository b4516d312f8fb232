"""The portable competition file: a round trip that gives back the same file, and hostile files
refused with every problem named at its evening, nothing stored."""

from __future__ import annotations

import copy
import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse
from django.utils import translation

from tests.season.conftest import evening
from tournament.clubs.services import club_sole
from tournament.errors import Refused
from tournament.models import Competition, Member, MemberQuestion, Player, Tournament
from tournament.season.file import competition_file_check
from tournament.season.file_export import competition_export
from tournament.season.file_import import competition_import
from tournament.season.selectors import season_of
from tournament.season.services import competition_add
from tournament.tournament_file.reading import tournament_file_parse

pytestmark = pytest.mark.django_db


def standings_of(competition: Competition) -> list[tuple]:
    season = season_of(competition)
    return [
        (season.members[r.member].name, r.rank, r.points, r.counted, r.per_evening)
        for r in season.rows
    ]


def wipe() -> None:
    """A fresh database state for the season (the accounts stay, as on another site)."""
    Competition.objects.all().delete()
    Tournament.objects.all().delete()
    Member.objects.all().delete()


@pytest.fixture
def asked(season, director):
    """The season with a fourth evening whose "K. Lid" may be the member "Karel Lid"."""
    Member.objects.create(register=club_sole(), name="Karel Lid", number="17", active=False)
    competition_add(
        competition=season, tournament=evening(20, ["K. Lid", "Lid A", "Lid B", "Lid C"], director)
    )
    assert MemberQuestion.objects.count() == 1
    return season


def test_export_import_export_gives_the_same_file(asked, director):
    # Ranked by the average, one member a guest: both cross with the rest.
    Competition.objects.filter(pk=asked.pk).update(ranking=Competition.Ranking.AVERAGE)
    asked.refresh_from_db()
    Member.objects.filter(name="Lid C").update(guest=True)
    before = standings_of(asked)
    first = competition_export(competition=asked)
    assert first["format"] == "bollen-competition" and len(first["evenings"]) == 4
    text = json.dumps(first)
    wipe()
    outcome = competition_import(document=json.loads(text), director=director)
    assert outcome.notes == []
    again = competition_export(competition=outcome.competition)
    assert again == first
    assert outcome.competition.slug == first["slug"]
    assert standings_of(outcome.competition) == before
    assert MemberQuestion.objects.get().member.name == "Karel Lid"
    assert not Member.objects.get(number="17").active
    assert outcome.competition.ranking == Competition.Ranking.AVERAGE
    assert Member.objects.get(name="Lid C").guest


def test_import_matches_the_register_it_finds(season, director):
    document = competition_export(competition=season)
    competition_import(document=document, director=director)
    # The same site: every member is found again, none is added; the slug moves on.
    assert Member.objects.count() == len(document["members"])
    assert Competition.objects.count() == 2
    copies = Competition.objects.exclude(pk=season.pk).get()
    assert copies.slug != season.slug
    assert standings_of(copies) == standings_of(season)


def test_the_commands_write_and_read_the_file(season, tmp_path):
    target = tmp_path / "season.json"
    call_command("export_competition", season.slug, "-o", str(target))
    document = json.loads(target.read_text(encoding="utf-8"))
    wipe()
    out = io.StringIO()
    call_command("import_competition", str(target), stdout=out)
    slug = out.getvalue().strip().splitlines()[-1]
    assert slug == document["slug"]
    assert Competition.objects.get(slug=slug).evenings.count() == 3


def refused_lines(document) -> list[str]:
    with pytest.raises(Refused) as caught, translation.override("en"):
        competition_import(document=document)
    with translation.override("en"):
        return caught.value.lines()


def test_bad_json_and_wrong_version_are_refused_with_a_reason():
    with pytest.raises(Refused) as caught, translation.override("en"):
        tournament_file_parse(b'{"format": "bollen-competition",')
    assert "JSON" in caught.value.lines()[0]
    lines = refused_lines({"format": "bollen-competition", "version": 2, "evenings": []})
    assert "version 1" in lines[0] and "2" in lines[0]
    assert "format" in refused_lines({"format": "bollen-tournament", "version": 1})[0]
    assert "object" in refused_lines([1, 2])[0]


def test_an_evening_that_fails_the_v1_check_is_named_and_nothing_is_stored(season):
    document = competition_export(competition=season)
    counts = (Competition.objects.count(), Tournament.objects.count(), Member.objects.count())
    broken = copy.deepcopy(document)
    deal = broken["evenings"][1]["tournament"]["rounds"][0]["tables"][0]["deals"][0]
    deal["tricks"] = [deal["tricks"][0] + 1, *deal["tricks"][1:]]
    broken["evenings"][2]["members"]["p1"] = "m999"
    broken["members"][0]["name"] = ""
    lines = refused_lines(broken)
    assert any(line.startswith("Evening 2 (Testtoernooi): Round 1, table 1") for line in lines)
    assert any("Evening 3" in line and "m999" in line for line in lines)
    assert any(line.startswith("Member 1") for line in lines)
    assert not any(line.startswith("Evening 1 ") for line in lines)
    after = (Competition.objects.count(), Tournament.objects.count(), Member.objects.count())
    assert after == counts


def test_hostile_shapes_are_problems_not_crashes(season):
    document = competition_export(competition=season)
    for change in (
        lambda d: d.update(evenings="many"),
        lambda d: d.update(members=[None, {"id": 5}]),
        lambda d: d.update(settings={"best": 0, "min_evenings": -1, "public": "yes"}),
        lambda d: d["evenings"][0].update(tournament=None),
        lambda d: d["evenings"][0].update(number=2),
        lambda d: d["evenings"][0].update(questions={"p1": []}),
        lambda d: d["evenings"][0]["members"].update(p2=d["evenings"][0]["members"]["p1"]),
        lambda d: (
            d["members"][1].update(number=d["members"][0]["number"] or "1")
            or d["members"][0].update(number=d["members"][1]["number"])
        ),
    ):
        hostile = copy.deepcopy(document)
        change(hostile)
        with pytest.raises(Refused) as caught:
            competition_file_check(hostile)
        assert caught.value.lines()


def test_the_pages_download_and_upload_the_file(director_client, season):
    download = director_client.get(reverse("competition_file", args=[season.slug]))
    assert download["Content-Disposition"].endswith(f'"{season.slug}.json"')
    document = json.loads(download.content)
    url = reverse("competition_upload")
    assert "Importeer een competitiebestand" in director_client.get(url).content.decode()
    broken = copy.deepcopy(document)
    broken["evenings"][0]["tournament"]["players"][0]["id"] = "p2"
    refused = director_client.post(url, {"file": _file(json.dumps(broken).encode(), "bad.json")})
    assert refused.status_code == 422
    assert "Avond 1 (Testtoernooi)" in refused.content.decode()
    assert Competition.objects.count() == 1
    not_json = director_client.post(url, {"file": _file(b"{nope", "x.json")})
    assert not_json.status_code == 422
    wipe()
    response = director_client.post(url, {"file": _file(download.content, "season.json")})
    competition = Competition.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("competition_detail", args=[competition.slug])
    assert Player.objects.exclude(member=None).count() == Player.objects.count()


def _file(content: bytes, name: str):
    handle = io.BytesIO(content)
    handle.name = name
    return handle


def test_the_import_command_lists_the_problems_and_stores_nothing(tmp_path):
    target = tmp_path / "bad.json"
    target.write_text('{"format": "bollen-competition", "version": 7}', encoding="utf-8")
    err = io.StringIO()
    with pytest.raises(CommandError, match="1 probleem; er is niets geïmporteerd"):
        call_command("import_competition", str(target), stderr=err)
    assert "7" in err.getvalue()
    assert not Competition.objects.exists()
