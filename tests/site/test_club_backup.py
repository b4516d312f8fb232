"""A club's backup: one zip with everything the club has, downloaded by its admins only, and
restored into a new, empty club (on the club's page or with ``restore_club``) with the same
standings and season standings; a broken backup is a list of problems and stores nothing."""

from __future__ import annotations

import io
import json
import re
import zipfile

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from tests.factories import played_tournament
from tournament.club_file.reading import club_backup_read
from tournament.club_file.restoring import club_restore
from tournament.clubs.services import club_create
from tournament.errors import Refused
from tournament.models import (
    Club,
    ClubLogEntry,
    ClubRole,
    Competition,
    Member,
    MemberQuestion,
    Player,
    Tournament,
)
from tournament.season.services import CompetitionSettings, competition_create
from tournament.tournament_file.exporting import tournament_export
from tournament.tournaments.finish import tournament_finish

pytestmark = pytest.mark.django_db

NAMES = [f"Lid {letter}" for letter in "ABCDEFGHI"]


def _club_with_season(name: str, user_model, prefix: str, seed: int) -> dict:
    """A club with an admin, a director, a competition of two evenings (one of them also an
    evening of a second competition), a tournament outside any competition, a renamed member,
    a guest and an open question."""
    admin = user_model.objects.create_user(f"{prefix}admin", password="x-kaart-2026-z")
    director = user_model.objects.create_user(f"{prefix}leider", password="x-kaart-2026-z")
    club = club_create(name=name, admin=admin)
    ClubRole.objects.create(club=club, user=director, role=ClubRole.Role.DIRECTOR)
    Club.objects.filter(pk=club.pk).update(
        directors_edit_register=True,
        name_display=Club.NameDisplay.SHORT,
        privacy_text=f"Privacy van {name}",
    )
    first, second = (
        tournament_finish(
            tournament=played_tournament(
                len(names), seed=s, names=names, director=director, club=club
            )
        )
        for s, names in ((seed, NAMES), (seed + 1, NAMES[:8]))
    )
    competition = competition_create(
        club=club,
        settings=CompetitionSettings(name=f"Kampioenschap {name}", season="2026", best=1),
        tournaments=[first, second],
    )
    competition_create(
        club=club, settings=CompetitionSettings(name="Najaar", season="2026"), tournaments=[second]
    )
    Member.objects.filter(register=club, name="Lid B").update(name="Bea Bakker", number="17")
    Member.objects.filter(register=club, name="Lid I").update(guest=True)
    Member.objects.filter(register=club, name="Lid D").update(public_consent=False)
    ClubLogEntry.objects.create(
        club=club, by=admin, by_name=admin.username, action="consent", text="Lid D: geen naam"
    )
    player = Player.objects.get(tournament=second, name="Lid C")
    Player.objects.filter(pk=player.pk).update(member=None)
    MemberQuestion.objects.create(
        player=player, member=Member.objects.get(register=club, name="Lid C")
    )
    loose = played_tournament(8, rounds=2, seed=seed + 7, director=director, club=club)
    return {
        "club": club,
        "admin": admin,
        "director": director,
        "competition": competition,
        "tournaments": [first, second, loose],
    }


@pytest.fixture
def two_clubs(django_user_model):
    a = _club_with_season("De Klaverbol", django_user_model, "a_", 11)
    b = _club_with_season("De Buren", django_user_model, "b_", 21)
    return a, b


def _standings(slug: str) -> dict:
    out = io.StringIO()
    call_command("export_standings", slug, "--format", "json", stdout=out)
    return json.loads(out.getvalue())


def _season(slug: str) -> dict:
    out = io.StringIO()
    call_command("export_competition_standings", slug, "--format", "json", stdout=out)
    document = json.loads(out.getvalue())
    for item in document.get("evening_list", []):
        item.pop("slug")  # the originals are still on the site: new short names
    return {k: v for k, v in document.items() if k not in ("slug", "url")}


def _plain(tournament: Tournament) -> dict:
    """The tournament file without the site's records (which name this database's rows)."""
    document = tournament_export(tournament=tournament)
    site = document["settings"].pop("x-site")
    return {
        **document,
        "versions": [len(t.get("versions", [])) for t in site.get("tables", [])],
        "finished": "finished" in site,
        "team": site.get("team"),
        "members": sorted(
            (m["player"], m["name"], m.get("number", ""), m["created_at"])
            for m in site.get("members", [])
        ),
    }


def _download(client, user) -> bytes:
    client.force_login(user)
    response = client.get(reverse("club_backup_download"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/zip"
    assert "attachment" in response["Content-Disposition"]
    return b"".join(response.streaming_content) if response.streaming else response.content


def test_a_club_backup_restores_into_a_new_club_with_the_same_standings(
    client, two_clubs, django_user_model
):
    a, b = two_clubs
    data = _download(client, a["admin"])
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        names = set(archive.namelist())
        manifest = json.loads(archive.read("manifest.json"))
        club_doc = json.loads(archive.read("club.json"))
    assert {"manifest.json", "club.json"} < names
    assert len([n for n in names if n.startswith("tournaments/")]) == 3
    assert len([n for n in names if n.startswith("competitions/")]) == 2
    assert manifest["club"]["slug"] == a["club"].slug
    assert club_doc["settings"]["directors_edit_register"] is True
    assert {(p["username"], p["role"]) for p in club_doc["people"]} == {
        ("a_admin", "admin"),
        ("a_leider", "director"),
    }
    # Nothing of club B in A's backup, and B's admin downloads B's.
    assert b"De Buren" not in b"".join(
        zipfile.ZipFile(io.BytesIO(data)).read(n) for n in sorted(names)
    )
    with zipfile.ZipFile(io.BytesIO(_download(client, b["admin"]))) as other:
        assert json.loads(other.read("manifest.json"))["club"]["slug"] == b["club"].slug

    # A new club on this site, its admin restores the backup on the club's page.
    newcomer = django_user_model.objects.create_user("nieuw", password="x-kaart-2026-z")
    fresh = club_create(name="", admin=newcomer)
    # The new club's admin added A's director first (the backup names only people of the club).
    ClubRole.objects.create(club=fresh, user=a["director"], role=ClubRole.Role.DIRECTOR)
    client.force_login(newcomer)
    page = client.get(reverse("club_backup_restore"))
    assert page.status_code == 200 and 'type="file"' in page.content.decode()
    upload = io.BytesIO(data)
    upload.name = "backup.zip"
    response = client.post(
        reverse("club_backup_restore"), {"file": upload, "club_slug": fresh.slug}, follow=True
    )
    assert response.redirect_chain[-1][0] == reverse("club_page")
    text = response.content.decode()
    assert "toernooien: 3, competities: 2" in text, text

    fresh.refresh_from_db()
    assert fresh.name == "De Klaverbol" and fresh.directors_edit_register
    assert fresh.name_display == Club.NameDisplay.SHORT
    assert fresh.privacy_text == "Privacy van De Klaverbol"
    log = ClubLogEntry.objects.get(club=fresh)
    original_log = ClubLogEntry.objects.get(club=a["club"])
    assert (log.at, log.by_name, log.text, log.by) == (
        original_log.at,
        "back-up: a_admin",
        "Lid D: geen naam",
        None,
    )
    # A's admin is not one of the new club's people: no role from a backup (another club's
    # account), said in a note that names no account as existing or not.
    assert set(fresh.roles.values_list("user__username", "role")) == {
        ("nieuw", "admin"),
        ("a_leider", "director"),
    }
    assert "Geen rol gegeven: a_admin. Voeg ze opnieuw toe" in text, text
    original = list(Member.objects.filter(register=a["club"]).order_by("name", "pk"))
    restored = list(Member.objects.filter(register=fresh).order_by("name", "pk"))
    assert [(m.name, m.number, m.guest, m.public_consent, m.created_at) for m in restored] == [
        (m.name, m.number, m.guest, m.public_consent, m.created_at) for m in original
    ]
    # Every tournament: the same file, the same standings, players tied to the same members.
    new_tournaments = list(Tournament.objects.filter(club=fresh).order_by("created_at", "pk"))
    assert len(new_tournaments) == 3
    for old, new in zip(a["tournaments"], new_tournaments, strict=True):
        assert new.slug != old.slug  # the originals are still here: new short names
        assert _plain(new) == _plain(old)
        assert _standings(new.slug) == _standings(old.slug)
    assert MemberQuestion.objects.filter(player__tournament__club=fresh).count() == 1
    # Both competitions, the season standings the same.
    new_competitions = Competition.objects.filter(club=fresh).order_by("created_at", "pk")
    old_competitions = Competition.objects.filter(club=a["club"]).order_by("created_at", "pk")
    for old, new in zip(old_competitions, new_competitions, strict=True):
        assert new.evenings.count() == old.evenings.count()
        assert _season(new.slug) == _season(old.slug)
    # A season page shows the same numbers.
    client.force_login(a["admin"])
    before = client.get(reverse("competition_detail", args=[a["competition"].slug]))
    client.force_login(newcomer)
    twin = new_competitions.get(name=a["competition"].name)
    after = client.get(reverse("competition_detail", args=[twin.slug]))
    assert before.status_code == after.status_code == 200
    assert _numbers(before.content.decode()) == _numbers(after.content.decode())
    # Club B untouched.
    assert Tournament.objects.filter(club=b["club"]).count() == 3


def _numbers(html: str) -> list[str]:
    """The figures of the page's standings table, in order."""
    import re

    table = html[html.index("<table") : html.rindex("</table>")]
    return re.findall(r"<td[^>]*>\s*(-?\d+(?:,\d+)?)\s*</td>", table)


def _zip(files: dict[str, bytes | str]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, content in files.items():
            archive.writestr(name, content)
    return buffer.getvalue()


def _nothing_in(club: Club) -> None:
    assert not Tournament.objects.filter(club=club).exists()
    assert not Competition.objects.filter(club=club).exists()
    assert not Member.objects.filter(register=club).exists()
    assert set(club.roles.values_list("user__username", flat=True)) == {"nieuw"}


def test_a_broken_backup_is_refused_whole_with_every_problem_named(
    client, two_clubs, django_user_model
):
    a, _b = two_clubs
    data = _download(client, a["admin"])
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        files = {n: archive.read(n) for n in archive.namelist()}
    newcomer = django_user_model.objects.create_user("nieuw", password="x-kaart-2026-z")
    fresh = club_create(name="Nieuw", admin=newcomer)
    client.force_login(newcomer)

    broken_name = next(n for n in files if n.startswith("tournaments/"))
    broken = json.loads(files[broken_name])
    table = broken["rounds"][0]["tables"][0]
    table["deals"][5]["tricks"] = [0] * len(table["seats"])  # the tricks add up to 0
    cases = {
        "not a zip": (b"%PDF-1.4 not a zip", "geen back-up van een club"),
        "manifest missing": (
            _zip({k: v for k, v in files.items() if k != "manifest.json"}),
            "geen manifest.json",
        ),
        "a tournament file broken": (
            _zip({**files, broken_name: json.dumps(broken)}),
            f"{broken_name}: Ronde 1, tafel 1, spel 6 (5Z): De slagen tellen op tot 0",
        ),
        "a member missing from club.json": (
            _zip(
                {
                    **files,
                    "club.json": json.dumps({**json.loads(files["club.json"]), "members": []}),
                }
            ),
            "club.json niet heeft",
        ),
    }
    for case, (upload_data, expected) in cases.items():
        upload = io.BytesIO(upload_data)
        upload.name = "backup.zip"
        response = client.post(
            reverse("club_backup_restore"), {"file": upload, "club_slug": fresh.slug}
        )
        text = response.content.decode()
        assert response.status_code == 422, case
        assert 'id="restore-problems"' in text, case
        problems = text[text.find("restore-problems") : text.find("</ul>")]
        assert expected in text, (case, problems[-400:])
        _nothing_in(fresh)
    fresh.refresh_from_db()
    assert fresh.name == "Nieuw"

    # A club that has anything of its own already takes no backup: nothing mixes.
    client.force_login(a["admin"])
    page = client.get(reverse("club_backup_restore"))
    assert 'id="restore-not-empty"' in page.content.decode() and 'type="file"' not in (
        page.content.decode()
    )
    with pytest.raises(Refused) as refused:
        club_restore(backup=club_backup_read(data), club=a["club"])
    assert refused.value.code == "club_restore_not_empty"
    # A director who is not the club's admin may neither download nor restore.
    client.force_login(a["director"])
    assert client.get(reverse("club_backup_download")).status_code == 403
    assert client.get(reverse("club_backup_restore")).status_code == 403


def test_the_commands_back_up_and_restore_a_club(two_clubs, tmp_path):
    a, _b = two_clubs
    path = tmp_path / "club.zip"
    out = io.StringIO()
    call_command("backup_club", a["club"].slug, "-o", str(path), stdout=out)
    assert str(path) in out.getvalue()
    assert path.stat().st_mode & 0o777 == 0o600  # names and addresses: the owner's only
    piped = io.BytesIO()
    pipe = io.TextIOWrapper(piped)  # kept: closing it closes the bytes too
    call_command("backup_club", a["club"].slug, "-o", "-", stdout=pipe, stderr=out)
    assert zipfile.ZipFile(io.BytesIO(piped.getvalue())).namelist()[0] == "manifest.json"

    # A refused file makes no club.
    bad = tmp_path / "bad.zip"
    bad.write_bytes(b"no zip")
    with pytest.raises(CommandError, match="niets teruggezet"):
        call_command(
            "restore_club", str(bad), "--club", "elders", "--admin", "nieuw", stderr=io.StringIO()
        )
    assert not Club.objects.filter(slug="elders").exists()
    assert not User.objects.filter(username="nieuw").exists()
    # Into a club that has data: refused, before the file is even opened.
    with pytest.raises(CommandError):
        call_command("restore_club", str(path), "--club", a["club"].slug, stderr=io.StringIO())
    err = io.StringIO()
    with pytest.raises(CommandError):
        missing = str(tmp_path / "nergens.zip")
        call_command("restore_club", missing, "--club", a["club"].slug, stderr=err)
    assert "lege club" in err.getvalue()

    # Another club's accounts get no role, an account the site lacks neither, and the note
    # does not say which is which.
    a["director"].username = "elders-leider"
    a["director"].save()
    # A new club on a site of several clubs gets its first admin, or is not made.
    with pytest.raises(CommandError, match="eerste clubbeheerder, --admin"):
        call_command("restore_club", str(path), "--club", "elders")
    assert not Club.objects.filter(slug="elders").exists()
    out = io.StringIO()
    call_command("restore_club", str(path), "--club", "elders", "--admin", "nieuw", stdout=out)
    assert out.getvalue().strip().splitlines()[-1] == "elders"
    assert "Geen rol gegeven: a_admin, a_leider. Voeg ze opnieuw toe" in out.getvalue()
    password = re.search(r"wachtwoord:\s+(\S+)", out.getvalue())[1]
    (role,) = ClubRole.objects.filter(club__slug="elders")
    assert (role.user.username, role.role) == ("nieuw", ClubRole.Role.ADMIN)
    assert role.user.check_password(password)
    club = Club.objects.get(slug="elders")
    assert club.name == "De Klaverbol"
    assert Tournament.objects.filter(club=club).count() == 3
    assert Competition.objects.filter(club=club).count() == 2


def test_a_backup_unpacking_larger_than_the_limit_is_refused_unread(settings):
    settings.CLUB_BACKUP_MAX_BYTES = 1000
    with pytest.raises(Refused) as refused:
        club_backup_read(_zip({"manifest.json": "{}", "club.json": " " * 2000}))
    assert refused.value.code == "club_file_too_large"


def test_an_oversized_manifest_is_refused_unread_and_nothing_is_stored(
    client, settings, django_user_model
):
    """A manifest.json that unpacks to far more than any manifest is refused by name, read
    only up to its limit (the zip's own size for it is not trusted either way)."""
    settings.CLUB_BACKUP_MAX_BYTES = 500 * 1024 * 1024
    huge = '{"tournaments":[' + ",".join(["{}"] * 1_200_000) + "]}"  # 3.6 MB, packs to ~10 KB
    newcomer = django_user_model.objects.create_user("nieuw", password="x-kaart-2026-z")
    fresh = club_create(name="Nieuw", admin=newcomer)
    client.force_login(newcomer)
    upload = io.BytesIO(_zip({"manifest.json": huge, "club.json": "{}"}))
    upload.name = "backup.zip"
    response = client.post(reverse("club_backup_restore"), {"file": upload})
    text = response.content.decode()
    assert response.status_code == 422
    assert "manifest.json: Het bestand is uitgepakt groter dan 2 MB" in text, text[-2000:]
    _nothing_in(fresh)


def test_a_bad_address_for_phones_is_left_out_and_a_full_club_is_refused_unread(
    two_clubs, django_user_model
):
    a, _b = two_clubs
    from tournament.club_file.restoring import club_restore_file

    data = _zip_with(a, settings={"site_url": "http://aanvaller.example"})
    fresh = club_create(name="", admin=django_user_model.objects.create_user("nieuw"))
    restored = club_restore_file(data=data, club=fresh)
    fresh.refresh_from_db()
    assert fresh.site_url == ""
    assert any("http://aanvaller.example" in note for note in restored.notes), restored.notes
    # A club with anything of its own: refused before the zip is opened (this is no zip).
    with pytest.raises(Refused) as refused:
        club_restore_file(data=b"not read", club=fresh)
    assert refused.value.code == "club_restore_not_empty"


def _zip_with(side: dict, settings: dict) -> bytes:
    """Club A's backup with some settings of club.json changed."""
    from tournament.club_file.writing import club_backup_zip

    with zipfile.ZipFile(io.BytesIO(club_backup_zip(side["club"]))) as archive:
        files = {n: archive.read(n) for n in archive.namelist()}
    club = json.loads(files["club.json"])
    club["settings"].update(settings)
    return _zip({**files, "club.json": json.dumps(club)})
