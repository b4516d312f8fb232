"""The club as the unit: who may move the QR codes, the club's people and invitations, the
register's rights, working in one of several clubs, a site of many clubs, and restoring into a
club. (Every URL against every role of two clubs: ``test_access.py``.)"""

from __future__ import annotations

import io
import json
import re

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from tests.factories import played_tournament
from tournament.clubs.services import club_sole
from tournament.models import (
    Club,
    ClubAddressChange,
    ClubRole,
    Competition,
    Member,
    TableLink,
    TeamInvitation,
    Tournament,
)
from tournament.sheets.table_links import table_link_issue
from tournament.tournament_file.exporting import tournament_export
from tournament.venue import network

pytestmark = pytest.mark.django_db

LAPTOP = "192.168.1.20"
ROLE = ClubRole.Role
NEW_TOURNAMENT = {
    "rounds_planned": 3,
    "language": "nl",
    "table_sizes": ["4", "5"],
    "prefer_size": "4",
    "tiebreak_1": "tournament_points",
    "tiebreak_2": "fewer_bollen",
    "tiebreak_3": "",
}


@pytest.fixture(autouse=True)
def on_club_wifi(monkeypatch, settings):
    settings.SITE_URL = ""
    # A site of several clubs answers to what its operator lists, here the laptop's address.
    settings.ALLOWED_HOSTS = ["testserver", LAPTOP, "bollen.club.example", "localhost"]
    monkeypatch.setattr(network, "primary_address", lambda: LAPTOP)
    monkeypatch.setattr(network, "machine_addresses", lambda: [LAPTOP])
    monkeypatch.setattr(network, "machine_names", lambda: ["clublaptop", "clublaptop.local"])


def account(django_user_model, name, club=None, role=None):
    user = django_user_model.objects.create_user(name, password=f"{name}-kaart-2026")
    if club is not None:
        ClubRole.objects.create(club=club, user=user, role=role)
    return user


@pytest.fixture
def clubs(django_user_model):
    """Club A (its admin, a director who directs the tournament, another director, a scorer)
    and club B (its admin and a director)."""
    a = Club.objects.create(name="BC De Klaverbol", slug="klaverbol")
    b = Club.objects.create(name="De Buren", slug="buren")
    people = {
        "admin": account(django_user_model, "beheer", a, ROLE.ADMIN),
        "director": account(django_user_model, "leiding", a, ROLE.DIRECTOR),
        "colleague": account(django_user_model, "collega", a, ROLE.DIRECTOR),
        "scorer": account(django_user_model, "teller"),
        "b_admin": account(django_user_model, "buurbeheer", b, ROLE.ADMIN),
        "b_director": account(django_user_model, "buurleiding", b, ROLE.DIRECTOR),
    }
    tournament = played_tournament(8, rounds=1, director=people["director"], club=a)
    tournament.scorers.add(people["scorer"])
    return {"a": a, "b": b, "people": people, "tournament": tournament}


def qr_links(client, tournament) -> list[str]:
    """The table links the print page's score sheets would carry (as HTML: their hrefs)."""
    for table in tournament.rounds.get(number=1).tables.all():
        if not TableLink.objects.filter(table=table, revoked_at__isnull=True).exists():
            table_link_issue(table=table)
    links = []
    for table in tournament.rounds.get(number=1).tables.all():
        page = client.get(reverse("table_link", args=[tournament.slug, 1, table.number]))
        links += re.findall(r'id="table-link-url"[^>]*>([^<]+)<', page.content.decode())
    return links


# ---- the address for phones: the hijack ----


@pytest.mark.parametrize("who", ["scorer", "colleague", "b_admin", "b_director"])
def test_nobody_but_the_clubs_admin_moves_a_single_qr_code(client, clubs, who):
    """A scorer of the tournament, a director of the club who is not its admin, and the other
    club's people: none of them changes the address the QR codes, table links and invitations
    of club A point at, whatever they post and wherever they make tournaments."""
    client.force_login(clubs["people"]["admin"])
    before = qr_links(client, clubs["tournament"])
    assert before and all(link.startswith(f"http://{LAPTOP}") for link in before)
    client.force_login(clubs["people"][who])
    url = reverse("site_address_edit")
    for club_slug in ("klaverbol", "buren", ""):
        response = client.post(
            f"{url}?club={club_slug}",
            {"site_url": "http://bollen.evil.example", "club_slug": club_slug},
        )
        assert response.status_code in (302, 403, 422)
    # Who may make a tournament of their own does so, and still moves nothing of club A.
    client.post(reverse("tournament_create"), {**NEW_TOURNAMENT, "name": "Eigen toernooi"})
    clubs["a"].refresh_from_db()
    assert clubs["a"].site_url == ""
    assert not ClubAddressChange.objects.filter(club=clubs["a"]).exists()
    client.force_login(clubs["people"]["admin"])
    assert qr_links(client, clubs["tournament"]) == before
    print_page = client.get(reverse("print_index", args=[clubs["tournament"].slug]))
    assert "evil" not in print_page.content.decode()


def test_the_other_clubs_admin_sets_only_their_own_clubs_address(client, clubs):
    client.force_login(clubs["people"]["b_admin"])
    client.post(reverse("site_address_edit"), {"site_url": f"http://{LAPTOP}:9000"})
    clubs["a"].refresh_from_db()
    clubs["b"].refresh_from_db()
    assert (clubs["a"].site_url, clubs["b"].site_url) == ("", f"http://{LAPTOP}:9000")


def test_a_changed_address_is_on_the_print_page_and_warned_about_until_a_phone_opened_it(
    client, clubs
):
    client.force_login(clubs["people"]["admin"])
    client.post(reverse("site_address_edit"), {"site_url": "http://bollen.club.example"})
    page = client.get(reverse("print_index", args=[clubs["tournament"].slug])).content.decode()
    assert 'id="site-address-untested"' in page
    assert 'id="print-site-address-changes"' in page
    assert "beheer" in page and "http://bollen.club.example" in page
    # A director of the tournament sees the warning too, and who to ask.
    client.force_login(clubs["people"]["director"])
    page = client.get(reverse("print_index", args=[clubs["tournament"].slug])).content.decode()
    assert 'id="site-address-untested"' in page
    assert reverse("site_address_edit") not in page
    ClubAddressChange.objects.filter(club=clubs["a"]).update(confirmed_at="2026-12-01T20:00Z")
    page = client.get(reverse("print_index", args=[clubs["tournament"].slug])).content.decode()
    assert 'id="site-address-untested"' not in page
    assert "Getest met een telefoon." in page


# ---- the club's people ----


def test_the_admin_invites_a_director_who_joins_and_may_make_tournaments(client, clubs):
    client.force_login(clubs["people"]["admin"])
    page = client.post(reverse("club_invite"), {"role": "club_director"}).content.decode()
    join = re.search(r'id="invitation-url"[^>]*>([^<]+)<', page)[1]
    assert join.startswith(f"http://{LAPTOP}/join/")
    client.logout()
    path = join.split(LAPTOP, 1)[1]
    joined = client.post(
        path,
        {"username": "nieuw", "password1": "klaver-harten-2026", "password2": "klaver-harten-2026"},
    )
    assert joined.status_code == 302
    assert ClubRole.objects.get(user__username="nieuw").role == ROLE.DIRECTOR
    made = client.post(reverse("tournament_create"), {**NEW_TOURNAMENT, "name": "Mijn avond"})
    assert made.status_code == 302
    assert Tournament.objects.get(name="Mijn avond").club == clubs["a"]
    assert client.get(reverse("site_address_edit")).status_code == 403
    assert client.get(reverse("club_page")).status_code == 403


def test_roles_change_and_the_last_admin_stays(client, clubs):
    admin, colleague = clubs["people"]["admin"], clubs["people"]["colleague"]
    client.force_login(admin)
    client.post(reverse("club_role", args=[colleague.pk]), {"role": "admin"})
    assert ClubRole.objects.get(user=colleague).role == ROLE.ADMIN
    client.force_login(colleague)
    client.post(reverse("club_role", args=[admin.pk]), {"role": "director"})
    assert ClubRole.objects.get(user=admin).role == ROLE.DIRECTOR
    # Now the colleague is the only admin: nobody can take that away.
    client.force_login(colleague)
    response = client.post(reverse("club_role", args=[colleague.pk]), {"role": "director"})
    assert ClubRole.objects.get(user=colleague).role == ROLE.ADMIN
    assert response.status_code == 302
    # An account of the other club is nobody here.
    other = clubs["people"]["b_admin"]
    assert client.post(reverse("club_remove", args=[other.pk])).status_code == 404


def test_removing_someone_from_the_club_takes_their_tournaments(client, clubs):
    director, tournament = clubs["people"]["director"], clubs["tournament"]
    client.force_login(clubs["people"]["admin"])
    client.post(reverse("club_remove", args=[director.pk]))
    assert not ClubRole.objects.filter(user=director).exists()
    assert not tournament.directors.filter(pk=director.pk).exists()
    client.force_login(director)
    assert client.get(reverse("tournament_detail", args=[tournament.slug])).status_code == 403
    # The club's admins still direct it.
    client.force_login(clubs["people"]["admin"])
    assert client.get(reverse("tournament_detail", args=[tournament.slug])).status_code == 200


def test_the_team_pages_say_what_each_role_may_do(client, clubs):
    client.force_login(clubs["people"]["admin"])
    club_page = client.get(reverse("club_page")).content.decode()
    team_page = client.get(reverse("team", args=[clubs["tournament"].slug])).content.decode()
    for page in (club_page, team_page):
        assert "Clubbeheerder:" in page
        assert "Teller:" in page


# ---- the register ----


def test_a_director_corrects_only_the_members_of_their_own_evenings(client, clubs):
    a = clubs["a"]
    own = Member.objects.create(register=a, name="Eigen Lid")
    theirs = Member.objects.create(register=a, name="Ander Lid")
    tournament = clubs["tournament"]
    tournament.players.filter(pk=tournament.players.first().pk).update(member=own)
    other = played_tournament(8, rounds=1, director=clubs["people"]["colleague"], club=a, seed=4)
    other.players.filter(pk=other.players.first().pk).update(member=theirs)
    client.force_login(clubs["people"]["director"])
    form = {"name": "Nieuwe Naam", "club": "", "number": "", "active": "on"}
    assert client.post(reverse("member_edit", args=[own.pk]), form).status_code == 302
    assert client.post(reverse("member_edit", args=[theirs.pk]), form).status_code == 403
    page = client.get(reverse("member_edit", args=[theirs.pk])).content.decode()
    assert 'id="member-read-only"' in page
    assert other.name not in page.split("<h2")[-1]  # not named: it is another director's
    assert 'id="hidden-evenings"' in page
    merge = reverse("member_merge", args=[own.pk])
    assert client.post(merge, {"other": theirs.pk}).status_code == 403
    theirs.refresh_from_db()
    assert theirs.name == "Ander Lid"
    # The club admin allows it: now the director may.
    Club.objects.filter(pk=a.pk).update(directors_edit_register=True)
    form["name"] = "Andere Naam"
    assert client.post(reverse("member_edit", args=[theirs.pk]), form).status_code == 302


def test_a_member_of_another_club_is_out_of_reach(client, clubs):
    stranger = Member.objects.create(register=clubs["b"], name="Buurman")
    client.force_login(clubs["people"]["admin"])
    assert client.get(reverse("member_edit", args=[stranger.pk])).status_code == 403
    page = client.get(reverse("member_list")).content.decode()
    assert "Buurman" not in page
    mine = Member.objects.create(register=clubs["a"], name="Mijn Lid")
    merge = reverse("member_merge", args=[mine.pk])
    assert client.post(merge, {"other": stranger.pk}).status_code == 404
    assert Member.objects.filter(pk=stranger.pk).exists()


def test_member_numbers_are_unique_per_club_not_per_site(client, clubs):
    Member.objects.create(register=clubs["b"], name="Buurman", number="17")
    client.force_login(clubs["people"]["admin"])
    added = client.post(reverse("member_list"), {"name": "Eigen Lid", "number": "17"})
    assert added.status_code == 302
    refused = client.post(reverse("member_list"), {"name": "Tweede Lid", "number": "17"})
    assert refused.status_code == 200
    assert "lidnummer" in refused.content.decode()
    assert Member.objects.filter(number="17").count() == 2


# ---- several clubs for one account ----


def test_an_account_in_two_clubs_switches_and_a_form_for_the_other_club_is_refused(client, clubs):
    admin = clubs["people"]["admin"]
    ClubRole.objects.create(club=clubs["b"], user=admin, role=ROLE.DIRECTOR)
    client.force_login(admin)
    front = client.get(reverse("tournament_list")).content.decode()
    assert 'id="club-switch"' in front
    page = client.get(reverse("member_list")).content.decode()
    assert 'value="klaverbol"' in page  # the form says for which club it was shown
    client.post(reverse("club_switch"), {"club": "buren", "next": reverse("member_list")})
    # The form shown for club A, sent now: nothing lands in club B (nor in A).
    sent = client.post(reverse("member_list"), {"name": "Per Ongeluk", "club_slug": "klaverbol"})
    assert sent.status_code == 302
    assert not Member.objects.filter(name="Per Ongeluk").exists()
    client.post(reverse("member_list"), {"name": "Bij De Buren", "club_slug": "buren"})
    assert Member.objects.get(name="Bij De Buren").register == clubs["b"]
    # A club of which the account has no role cannot be chosen.
    third = Club.objects.create(name="Derde", slug="derde")
    assert client.post(reverse("club_switch"), {"club": third.slug}).status_code == 403


def test_a_laptops_one_club_shows_no_club_choice(director_client):
    page = director_client.get(reverse("tournament_list")).content.decode()
    assert 'id="club-switch"' not in page
    assert 'id="club-name"' in page  # but it asks the club's name
    director_client.post(reverse("club_name"), {"name": "BC De Gouden Aas"})
    page = director_client.get(reverse("tournament_list")).content.decode()
    assert 'id="club-name"' not in page
    assert "BC De Gouden Aas" in page


# ---- a site of many clubs ----


def test_club_create_makes_the_club_and_its_admin_with_a_password_shown_once():
    out = io.StringIO()
    call_command("club_create", "--name", "BC Harten Vrouw", "--admin", "hartenbeheer", stdout=out)
    lines = out.getvalue().strip().splitlines()
    club = Club.objects.get(slug=lines[-1])
    assert club.name == "BC Harten Vrouw"
    role = ClubRole.objects.get(club=club)
    assert (role.user.username, role.role) == ("hartenbeheer", ROLE.ADMIN)
    password = next(line.split()[-1] for line in lines if "wachtwoord:" in line)
    assert role.user.check_password(password)
    # An existing account keeps its password and gets the role in the second club.
    out = io.StringIO()
    call_command("club_create", "--name", "BC Harten Vrouw", "--admin", "hartenbeheer", stdout=out)
    second = Club.objects.get(slug=out.getvalue().strip().splitlines()[-1])
    assert second.slug != club.slug
    assert "wachtwoord:" not in out.getvalue()
    role.user.refresh_from_db()
    assert role.user.check_password(password)


def test_the_front_page_of_many_clubs_lists_those_with_public_pages(client, clubs):
    Tournament.objects.filter(pk=clubs["tournament"].pk).update(public=True)
    front = client.get(reverse("tournament_list")).content.decode()
    assert reverse("club_public", args=["klaverbol"]) in front
    assert reverse("club_public", args=["buren"]) not in front
    assert reverse("public_home", args=[clubs["tournament"].slug]) not in front
    own = client.get(reverse("club_public", args=["klaverbol"])).content.decode()
    assert reverse("public_home", args=[clubs["tournament"].slug]) in own
    assert client.get(reverse("club_public", args=["buren"])).status_code == 404


def test_commands_that_make_something_ask_which_club_on_a_site_of_many(clubs, tmp_path):
    path = tmp_path / "t.json"
    path.write_text(json.dumps(tournament_export(tournament=clubs["tournament"], site=False)))
    with pytest.raises(CommandError, match="--club"):
        call_command("import_tournament", str(path), stdout=io.StringIO())
    out = io.StringIO()
    call_command("import_tournament", str(path), "--club", "buren", stdout=out)
    assert Tournament.objects.get(slug=out.getvalue().strip().splitlines()[-1]).club == clubs["b"]


# ---- restoring ----


def test_a_backup_is_restored_into_the_club_of_whoever_restores_it(client, clubs):
    table_link_issue(table=clubs["tournament"].rounds.get(number=1).tables.first())
    backup = tournament_export(tournament=clubs["tournament"])
    assert backup["settings"]["x-site"]["club"] == {"slug": "klaverbol", "name": "BC De Klaverbol"}
    client.force_login(clubs["people"]["b_director"])
    upload = io.BytesIO(json.dumps(backup).encode())
    upload.name = "backup.json"
    response = client.post(reverse("tournament_upload"), {"file": upload})
    assert response.status_code == 302
    restored = Tournament.objects.exclude(pk=clubs["tournament"].pk).get()
    assert restored.club == clubs["b"]
    # Club A's people are not put on club B's copy, and its link tokens are not named.
    assert not restored.directors.filter(pk=clubs["people"]["director"].pk).exists()
    assert not restored.scorers.exists()
    notes = " ".join(str(m) for m in response.wsgi_request._messages)
    assert "andere club" in notes  # its table links got new tokens; the original is not named
    assert clubs["tournament"].slug not in notes


def test_replacing_another_clubs_tournament_is_refused(clubs, tmp_path):
    path = tmp_path / "t.json"
    path.write_text(json.dumps(tournament_export(tournament=clubs["tournament"], site=False)))
    slug = clubs["tournament"].slug
    err = io.StringIO()
    with pytest.raises(CommandError):
        call_command(
            "import_tournament",
            *(str(path), "--slug", slug, "--replace", "--club", "buren"),
            stdout=io.StringIO(),
            stderr=err,
        )
    assert "andere club" in err.getvalue()
    assert Tournament.objects.get(slug=slug).club == clubs["a"]


def test_a_laptop_command_needs_no_club(tmp_path, director):
    tournament = played_tournament(8, rounds=1, director=director)
    path = tmp_path / "t.json"
    path.write_text(json.dumps(tournament_export(tournament=tournament, site=False)))
    out = io.StringIO()
    call_command("import_tournament", str(path), stdout=out)
    assert Tournament.objects.get(slug=out.getvalue().strip().splitlines()[-1]).club == club_sole()
    assert Competition.objects.count() == 0
    assert TeamInvitation.objects.count() == 0


def test_a_refusal_says_whose_page_it_is(client, clubs):
    client.force_login(clubs["people"]["colleague"])
    page = client.get(reverse("club_page"))
    assert page.status_code == 403
    assert "clubbeheerders van BC De Klaverbol" in page.content.decode()
    client.force_login(clubs["people"]["scorer"])
    page = client.get(reverse("member_list")).content.decode()
    assert "geen enkele club een rol" in page


def test_a_wrong_club_name_on_the_front_page_keeps_what_was_typed(director_client):
    response = director_client.post(reverse("club_name"), {"name": "Klaver\tbol"})
    assert response.status_code == 422
    page = response.content.decode()
    assert 'value="Klaver\tbol"' in page
    assert "onzichtbaar" in page


def test_the_invitation_page_speaks_dutch_about_a_short_password(client, clubs):
    client.force_login(clubs["people"]["admin"])
    page = client.post(reverse("club_invite"), {"role": "club_director"}).content.decode()
    path = re.search(r'id="invitation-url"[^>]*>http://[^/]+([^<]+)<', page)[1]
    client.logout()
    refused = client.post(path, {"username": "kort", "password1": "kort", "password2": "kort"})
    text = refused.content.decode()
    assert "te kort: het moet minstens 10 tekens bevatten" in text
    assert "This password" not in text


# ---- what an attacker with two clubs found ----


@pytest.mark.parametrize("loses", ["removed", "demoted"])
def test_an_invitation_stops_working_when_its_maker_loses_the_role(client, clubs, loses):
    """A club admin made an admin link for themselves, then was taken out of the club (or made
    a director): the link gives nothing back."""
    colleague, admin = clubs["people"]["colleague"], clubs["people"]["admin"]
    ClubRole.objects.filter(user=colleague).update(role=ROLE.ADMIN)
    client.force_login(colleague)
    page = client.post(reverse("club_invite"), {"role": "club_admin"}).content.decode()
    path = re.search(r'id="invitation-url"[^>]*>http://[^/]+([^<]+)<', page)[1]
    client.force_login(admin)
    if loses == "removed":
        client.post(reverse("club_remove", args=[colleague.pk]))
    else:
        client.post(reverse("club_role", args=[colleague.pk]), {"role": "director"})
    assert TeamInvitation.objects.get(created_by=colleague).revoked_at is not None
    client.force_login(colleague)
    assert client.post(path, {"as": "current"}).status_code == 410
    assert not ClubRole.objects.filter(user=colleague, role=ROLE.ADMIN).exists()


def test_a_co_directors_link_dies_with_their_place_on_the_team(client, clubs, django_user_model):
    tournament = clubs["tournament"]
    helper = account(django_user_model, "helper")
    tournament.directors.add(helper)
    client.force_login(helper)
    page = client.post(reverse("team_invite", args=[tournament.slug]), {"role": "director"})
    path = re.search(r'id="invitation-url"[^>]*>http://[^/]+([^<]+)<', page.content.decode())[1]
    client.force_login(clubs["people"]["director"])
    remove = {"user": helper.pk, "role": "director"}
    client.post(reverse("team_remove", args=[tournament.slug]), remove)
    client.force_login(helper)
    assert client.post(path, {"as": "current"}).status_code == 410
    assert not tournament.directors.filter(pk=helper.pk).exists()


def test_the_address_and_competition_forms_say_for_which_club_they_were_shown(client, clubs):
    admin = clubs["people"]["admin"]
    ClubRole.objects.create(club=clubs["b"], user=admin, role=ROLE.ADMIN)
    client.force_login(admin)
    address_page = client.get(reverse("site_address_edit") + "?club=klaverbol").content.decode()
    competitions = client.get(reverse("competition_list")).content.decode()
    assert 'name="club_slug" value="klaverbol"' in address_page
    assert 'name="club_slug" value="klaverbol"' in competitions
    client.post(reverse("club_switch"), {"club": "buren"})
    for url, data in (
        (reverse("site_address_edit"), {"site_url": "http://10.6.6.6"}),
        (reverse("competition_list"), {"name": "Bedoeld voor A", "min_evenings": 0}),
    ):
        assert client.post(url, {**data, "club_slug": "klaverbol"}).status_code == 302
    clubs["b"].refresh_from_db()
    assert clubs["b"].site_url == ""
    assert not Competition.objects.filter(name="Bedoeld voor A").exists()


@pytest.mark.parametrize("junk", ["²", "abc", "9" * 30, "-1", "١٢"])
def test_odd_ids_in_the_season_pages_are_refused_not_a_500(client, clubs, junk):
    a = clubs["a"]
    keep = Member.objects.create(register=a, name="Eigen Lid")
    competition = Competition.objects.create(club=a, name="Seizoen", slug="seizoen")
    client.force_login(clubs["people"]["admin"])
    answers = [
        client.get(reverse("member_merge", args=[keep.pk]) + f"?other={junk}"),
        client.post(
            reverse("member_merge_remove", args=[keep.pk]), {"player": junk, "other": junk}
        ),
        client.post(reverse("competition_questions", args=[competition.slug]), {"player": junk}),
        client.post(
            reverse("competition_questions", args=[competition.slug]),
            {"player": "1", "member": junk},
        ),
        client.post(
            reverse("check_in", args=[competition.slug]), {"tick_last": "1", "members": junk}
        ),
        client.post(reverse("check_in", args=[competition.slug]), {"name": "x", "members": junk}),
    ]
    assert [r.status_code for r in answers if r.status_code >= 500] == []


def test_an_address_too_long_to_store_is_refused(client, clubs):
    client.force_login(clubs["people"]["admin"])
    long_host = ".".join(["a" * 63] * 3) + ".nl"  # 194 characters, 201 with http://
    response = client.post(reverse("site_address_edit"), {"site_url": long_host})
    assert response.status_code == 422
    assert "hoogstens 200 tekens" in response.content.decode()


def test_on_a_site_of_several_clubs_a_clubs_address_makes_the_site_answer_to_nothing_new(
    client, clubs, settings
):
    settings.ALLOWED_HOSTS = ["testserver", "bollen.example.nl"]
    Club.objects.filter(pk=clubs["b"].pk).update(site_url="http://bollen.evil.example")
    assert client.get("/", HTTP_HOST="bollen.evil.example").status_code == 400
    client.force_login(clubs["people"]["admin"])
    refused = client.post(reverse("site_address_edit"), {"site_url": "http://10.1.1.1:8000"})
    assert refused.status_code == 422
    assert "bollen.example.nl" in refused.content.decode()
    taken = client.post(reverse("site_address_edit"), {"site_url": "https://bollen.example.nl"})
    assert taken.status_code == 302


def test_every_form_of_a_club_page_says_its_club(client, clubs):
    """Each form on the pages of the current club carries the club it was shown for, so none
    can land in another club after a switch in another tab."""
    client.force_login(clubs["people"]["admin"])
    Club.objects.filter(pk=clubs["a"].pk).update(name="")  # the front page asks the name
    pages = [
        client.get(reverse(name)).content.decode()
        for name in (
            "tournament_list",
            "tournament_create",
            "tournament_upload",
            "member_list",
            "competition_list",
            "competition_upload",
            "club_page",
            "site_address_edit",
        )
    ]
    pages.append(client.post(reverse("club_invite"), {"role": "club_director"}).content.decode())
    skipped = ("/logout/", "/i18n/", "/club/switch/")
    for page in pages:
        for form in re.findall(r"<form[^>]*method=\"post\"[^>]*>.*?</form>", page, re.S):
            action = re.search(r'action="([^"]*)"', form)
            if action and action[1].startswith(skipped):
                continue
            assert 'name="club_slug" value="klaverbol"' in form, form[:200]


def test_a_refused_form_goes_back_to_the_page_it_was_on(client, clubs):
    admin = clubs["people"]["admin"]
    ClubRole.objects.create(club=clubs["b"], user=admin, role=ROLE.ADMIN)
    client.force_login(admin)
    client.post(reverse("club_switch"), {"club": "buren"})
    answer = client.post(
        reverse("club_invite"),
        {"role": "club_director", "club_slug": "klaverbol"},
        HTTP_REFERER="http://testserver/club/",
    )
    assert answer["Location"] == "http://testserver/club/"
    assert not TeamInvitation.objects.filter(tournament__isnull=True).exists()


def test_an_address_stored_outside_the_sites_hosts_is_never_in_a_link(client, clubs, settings):
    """A site of several clubs: an address kept from before (or set in the admin) that the site
    does not answer to is not used for the club's links."""
    Club.objects.filter(pk=clubs["b"].pk).update(site_url="http://bollen.evil.example:8000")
    client.force_login(clubs["people"]["b_admin"])
    page = client.post(reverse("club_invite"), {"role": "club_director"}).content.decode()
    join = re.search(r'id="invitation-url"[^>]*>([^<]+)<', page)[1]
    assert "evil" not in join
    assert join.startswith(f"http://{LAPTOP}")


def test_an_ipv6_host_of_the_site_can_be_the_address_on_a_site_of_several(client, clubs, settings):
    settings.ALLOWED_HOSTS = ["testserver", "[2001:db8::20]"]
    client.force_login(clubs["people"]["admin"])
    answer = client.post(reverse("site_address_edit"), {"site_url": "http://[2001:db8::20]:8000"})
    assert answer.status_code == 302
    clubs["a"].refresh_from_db()
    assert clubs["a"].site_url == "http://[2001:db8::20]:8000"
