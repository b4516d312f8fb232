"""Every URL of the site, visited by every kind of visitor, gets exactly what it should.

The test walks the URL configuration itself: a new URL without a rule here fails it, so nobody
can add a page and forget to decide who may see it.
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Callable, Iterator

import pytest
from django.urls import URLResolver, get_resolver, resolve, reverse

from tests.factories import played_tournament
from tournament.adapter import table_sheet
from tournament.models import (
    Club,
    ClubRole,
    Competition,
    CompetitionEvening,
    EveningRemoval,
    Member,
    Round,
    SheetPhoto,
    SheetVersion,
    Table,
    Tournament,
)
from tournament.sheets.selectors import sheet_version_number
from tournament.sheets.services import sheet_record
from tournament.sheets.submission import SheetSubmission
from tournament.sheets.table_links import table_link_issue
from tournament.team.services import team_invitation_create

pytestmark = pytest.mark.django_db

# Who visits. The site has two clubs, A and B, each with every role; the walk visits club A's
# pages (its tournament, competition, member, invitation) as everyone. Club B's people are the
# other club: each of them must get 403, 404 or a sign-in on A's pages, and see nothing of A
# on any page (``test_the_other_club_sees_nothing_of_club_a``). By symmetry that is every role
# of one club against every URL of the other.
ROLES = (
    "anonymous",
    "public",
    "stranger",  # signed in, no role anywhere
    "club_admin",  # A's club admin
    "director",  # a director of A who directs the tournament
    "other_director",  # a director of A who does not
    "co_director",  # invited to the tournament only, no club role
    "scorer",
    "table_link",
    "other_table_link",
    "b_admin",  # club B's people
    "b_director",
    "b_co_director",
    "b_scorer",
)
SIGNED_IN_ROLES = (
    "stranger",
    "club_admin",
    "director",
    "other_director",
    "co_director",
    "scorer",
    "b_admin",
    "b_director",
    "b_co_director",
    "b_scorer",
)
CLUB_B_ROLES = ("b_admin", "b_director", "b_co_director", "b_scorer")

OK = "ok"  # 200, or a redirect that is not to the sign-in page
LOGIN = "login"  # redirected to sign in
FORBIDDEN = "forbidden"  # 403
MISSING = "missing"  # 404: nothing to see here (not public, not yours)
POST_ONLY = "post_only"  # 405 to a GET: the page only acts on a form

_SIGNED_OUT = {"anonymous": LOGIN, "public": LOGIN, "table_link": LOGIN, "other_table_link": LOGIN}
_NOBODY = {**_SIGNED_OUT, **dict.fromkeys(SIGNED_IN_ROLES, FORBIDDEN)}

# One tournament: its directors (co-directors, the club's admins, superusers) everything;
# scorers the sheets and the round overview. Other directors of the club, and the other club,
# nothing.
DIRECTOR_ONLY = {**_NOBODY, "club_admin": OK, "director": OK, "co_director": OK}
DIRECTOR_POST = {
    **DIRECTOR_ONLY,
    **dict.fromkeys(("club_admin", "director", "co_director"), POST_ONLY),
}
TEAM = {**DIRECTOR_ONLY, "scorer": OK}
TEAM_POST = {**DIRECTOR_POST, "scorer": POST_ONLY}
SIGNED_IN = {**_SIGNED_OUT, **dict.fromkeys(SIGNED_IN_ROLES, OK)}
EVERYONE = dict.fromkeys(ROLES, OK)
PUBLIC = {**dict.fromkeys(ROLES, MISSING), "public": OK}
# The pages of the current club as a whole: each account sees its own club's (club B's people
# theirs, which the walk checks holds nothing of A).
CLUB_DIRECTORS = {
    **_NOBODY,
    **dict.fromkeys(("club_admin", "director", "other_director", "b_admin", "b_director"), OK),
}
CLUB_ADMINS = {**_NOBODY, "club_admin": OK, "b_admin": OK}
# One of A's competitions or members: A's directors and admins; A's admins only.
OF_CLUB = {**_NOBODY, **dict.fromkeys(("club_admin", "director", "other_director"), OK)}
OF_CLUB_ADMINS = {**_NOBODY, "club_admin": OK}

RULES: dict[str, dict[str, str]] = {
    "tournament_list": EVERYONE,
    "login": EVERYONE,
    "logout": dict.fromkeys(ROLES, POST_ONLY),
    "password_change": SIGNED_IN,
    "password_change_done": SIGNED_IN,
    "account_email": SIGNED_IN,
    # A forgotten password by e-mail: for everyone; a made-up reset link is gone (410).
    "password_reset": EVERYONE,
    "password_reset_done": EVERYONE,
    "password_reset_complete": EVERYONE,
    "password_reset_confirm": dict.fromkeys(ROLES, "410"),
    "set_language": EVERYONE,
    "tournament_create": CLUB_DIRECTORS,
    "tournament_upload": CLUB_DIRECTORS,
    "tournament_detail": TEAM,
    "tournament_edit": DIRECTOR_ONLY,
    "tournament_finish": DIRECTOR_ONLY,
    "tournament_reopen": DIRECTOR_POST,
    "tournament_download": DIRECTOR_ONLY,
    "player_list": DIRECTOR_ONLY,
    "player_paste": DIRECTOR_ONLY,
    "player_import": DIRECTOR_ONLY,
    "player_detail": DIRECTOR_ONLY,
    "player_edit": DIRECTOR_ONLY,
    "player_withdraw": DIRECTOR_POST,
    "player_delete": DIRECTOR_POST,
    "player_apart": DIRECTOR_POST,
    "round_list": TEAM,
    "round_seat": DIRECTOR_POST,
    "round_detail": TEAM,
    "round_adjust": DIRECTOR_POST,
    "round_publish": DIRECTOR_POST,
    "round_balance": DIRECTOR_POST,
    "round_unseat": DIRECTOR_POST,
    "table_first_dealer": TEAM_POST,  # part of the sheet: the seats do not move
    "round_close": DIRECTOR_POST,
    "round_reopen": DIRECTOR_POST,
    "standings": TEAM,
    "standings_download": DIRECTOR_ONLY,
    "sheet_edit": TEAM,
    # Photos of score sheets: the round page's upload and the kept photos, for the team.
    "round_photos": TEAM,
    "sheet_photo_page": TEAM,
    "sheet_photo_original": TEAM,
    "sheet_history": TEAM,
    "sheet_version_restore": TEAM_POST,
    "print_index": DIRECTOR_ONLY,
    "print_sheets": DIRECTOR_ONLY,
    "print_seating": DIRECTOR_ONLY,
    "print_blank": DIRECTOR_ONLY,
    "print_standings": DIRECTOR_ONLY,
    "print_workbook": DIRECTOR_ONLY,
    # The shared result: the page, its text, PDF and PNG.
    "result_share": DIRECTOR_ONLY,
    "result_text": DIRECTOR_ONLY,
    "result_pdf": DIRECTOR_ONLY,
    "result_png": DIRECTOR_ONLY,
    # The club's own page and the address for phones: its admins only.
    "club_page": CLUB_ADMINS,
    "club_name": {**CLUB_ADMINS, "club_admin": POST_ONLY, "b_admin": POST_ONLY},
    "club_invite": {**CLUB_ADMINS, "club_admin": POST_ONLY, "b_admin": POST_ONLY},
    "club_role": {**CLUB_ADMINS, "club_admin": POST_ONLY, "b_admin": POST_ONLY},
    "club_remove": {**CLUB_ADMINS, "club_admin": POST_ONLY, "b_admin": POST_ONLY},
    "club_invitation_revoke": {**CLUB_ADMINS, "club_admin": POST_ONLY, "b_admin": POST_ONLY},
    "club_switch": dict.fromkeys(ROLES, POST_ONLY),
    # The club's backup (everything it has) and its restore: its admins only.
    "club_backup_download": CLUB_ADMINS,
    "club_backup_restore": CLUB_ADMINS,
    "site_address_edit": CLUB_ADMINS,
    # The test code's link: a made-up secret opens nothing, for anyone.
    "site_address_check": dict.fromkeys(ROLES, MISSING),
    "club_public": PUBLIC,
    # A club's privacy: its settings, log and deletion (its admins), the public statement
    # (everyone), a member's data file and erasure (the member's club admins), consent (who
    # may edit the member; the tournament's directors for a player).
    "club_privacy": CLUB_ADMINS,
    "club_log": CLUB_ADMINS,
    "club_delete": CLUB_ADMINS,
    "club_privacy_public": {**PUBLIC, "club_admin": OK},
    "member_data_download": OF_CLUB_ADMINS,
    "member_erase": OF_CLUB_ADMINS,
    "member_consent": {
        **_NOBODY,
        **dict.fromkeys(("club_admin", "director", "other_director"), POST_ONLY),
    },
    "player_consent": DIRECTOR_POST,
    "table_link": TEAM,
    "table_link_new": DIRECTOR_POST,
    "table_link_revoke": DIRECTOR_POST,
    "sheet_confirm": TEAM,
    "sheet_retype": TEAM,
    "standings_unconfirmed": DIRECTOR_POST,
    "team": DIRECTOR_ONLY,
    "team_invite": DIRECTOR_ONLY,  # a GET goes back to the team page
    "team_remove": DIRECTOR_POST,
    "team_confirmation_rule": DIRECTOR_POST,
    "team_invitation_revoke": DIRECTOR_POST,
    # A working invitation opens its page for everyone (signed in: "join with this account").
    "team_join": EVERYONE,
    # Each visitor brings the token they have: table 1's link, table 2's link, a revoked link
    # (the signed-in ones) or a made-up one (anonymous, public). Only a working link opens.
    "table_entry": {**dict.fromkeys(ROLES, MISSING), "table_link": OK, "other_table_link": OK},
    "table_entry_first_dealer": dict.fromkeys(ROLES, POST_ONLY),
    "table_entry_photos": dict.fromkeys(ROLES, POST_ONLY),
    # The photo waiting on table 1's sheet: through table 1's link only.
    "table_entry_photo_page": {**dict.fromkeys(ROLES, MISSING), "table_link": OK},
    "public_home": PUBLIC,
    "public_standings": PUBLIC,
    "public_screen": PUBLIC,
    # A club's season: the register and the competitions are its directors' and admins'.
    "member_list": CLUB_DIRECTORS,
    "member_edit": OF_CLUB,
    "member_merge": OF_CLUB,  # without the other record: back to the member
    "member_merge_remove": {
        **OF_CLUB,
        **dict.fromkeys(("club_admin", "director", "other_director"), POST_ONLY),
    },
    "competition_list": CLUB_DIRECTORS,
    "competition_upload": CLUB_ADMINS,  # a new competition, from a file
    "competition_detail": OF_CLUB,
    "competition_edit": OF_CLUB_ADMINS,
    "evening_add": OF_CLUB,  # a GET goes back to the competition
    # Taking an evening out and putting it back: who directs its tournament (the club's
    # admins, its directors of the club); a deleted one, the admins and who deleted it.
    "evening_remove": {**_NOBODY, "club_admin": OK, "director": OK},
    "evening_put_back": {**_NOBODY, "club_admin": OK, "director": OK},
    "check_in": OF_CLUB,
    "competition_questions": OF_CLUB,
    "competition_print": OF_CLUB,
    "competition_download": OF_CLUB,
    "competition_file": OF_CLUB_ADMINS,  # the register and every evening's site records
    "competition_attendance": OF_CLUB,
    "competition_attendance_download": OF_CLUB,
    "competition_sign_in": OF_CLUB,  # the next evening's sign-in list
    "member_list_download": CLUB_DIRECTORS,  # the register as xlsx/csv
    "member_card": OF_CLUB,  # a member's season card and its PDF
    "member_card_print": OF_CLUB,
    "public_season": PUBLIC,
    "public_live": PUBLIC,
    "public_player": PUBLIC,
}


def walk(patterns, arguments: tuple[str, ...] = ()) -> Iterator[tuple[str, tuple[str, ...]]]:
    """Every named URL with the names of all its arguments (those of included prefixes too)."""
    for entry in patterns:
        own = tuple(entry.pattern.converters)
        if isinstance(entry, URLResolver):
            if entry.namespace == "admin":
                continue  # Django's admin guards itself (staff only); checked below
            yield from walk(entry.url_patterns, arguments + own)
        elif entry.name:
            yield entry.name, arguments + own


def test_every_url_has_an_access_rule():
    names = {name for name, _pattern in walk(get_resolver().url_patterns)}
    assert names - RULES.keys() == set(), "add an access rule for these new URLs"
    assert RULES.keys() - names == set(), "these rules name URLs that no longer exist"


# What club A's pages may show to A's own people only: the other club must see none of it.
A_SECRETS = ("Klaverbol", "Geheim toernooi A", "Anna Aalbers", "Seizoen A", "Lid van A")


def _club(name: str, slug: str, django_user_model, prefix: str) -> dict:
    """A club with every role, a tournament of two rounds (the second under way) with a saved
    sheet and table links, a competition of that evening and a member."""
    club = Club.objects.create(name=name, slug=slug)
    user = lambda role: django_user_model.objects.create_user(  # noqa: E731
        f"{prefix}{role}", password=f"x-kaart-2026-{role}"
    )
    people = {
        "club_admin": user("admin"),
        "director": user("leiding"),
        "other_director": user("collega"),
        "co_director": user("mede"),
        "scorer": user("teller"),
    }
    ClubRole.objects.create(club=club, user=people["club_admin"], role=ClubRole.Role.ADMIN)
    for role in ("director", "other_director"):
        ClubRole.objects.create(club=club, user=people[role], role=ClubRole.Role.DIRECTOR)
    first = "Anna Aalbers" if prefix == "a_" else "Bert Bakker"
    tournament = played_tournament(
        8,
        rounds=2,
        last_round=[11, 4],
        director=people["director"],
        club=club,
        names=[f"{first} {i}" for i in range(1, 9)],
    )
    Tournament.objects.filter(pk=tournament.pk).update(
        name="Geheim toernooi A" if prefix == "a_" else "Toernooi van B"
    )
    tournament.refresh_from_db()
    tournament.directors.add(people["co_director"])
    tournament.scorers.add(people["scorer"])
    # One save through the sheet page's service, so the sheet has a version to restore.
    table = Table.objects.get(round__tournament=tournament, round__number=2, number=2)
    sheet = table_sheet(table).sheet
    cells = {
        (deal, seat): (entry.bids[seat], entry.tricks[seat])
        for deal, entry in enumerate(sheet.deals, start=1)
        for seat in range(sheet.n_seats)
    }
    cells[5, 1] = (0, None)  # the first bid of deal 5
    sheet_record(
        table=table,
        submission=SheetSubmission(
            cells=cells,
            penalties=(),
            base_version=sheet_version_number(table),
            idempotency_key=uuid.uuid4(),
            by_user=people["director"],
        ),
    )
    # Table links of round 2: table 1's first link was replaced, so it is revoked.
    first_table, second = (Table.objects.get(round=table.round, number=n) for n in (1, 2))
    revoked = table_link_issue(table=first_table, by_user=people["director"]).token
    links = {
        "revoked": revoked,
        "table_link": table_link_issue(table=first_table, by_user=people["director"]).token,
        "other_table_link": table_link_issue(table=second, by_user=people["director"]).token,
    }
    photo = SheetPhoto.objects.create(  # a photo of table 1's sheet, waiting to be checked
        table=first_table,
        uploaded_by=people["director"],
        via=SheetPhoto.Via.ROUND_PAGE,
        photo=b"\xff\xd8 photo",
        page=b"\xff\xd8 page",
        px_per_mm=4.0,
        reading={"deals": [], "uncertain": [], "boxes": {}},
    )
    invitation = team_invitation_create(
        tournament=tournament, role="scorer", by_user=people["director"]
    )
    club_invitation = team_invitation_create(
        club=club, role="club_director", by_user=people["club_admin"]
    )
    competition = Competition.objects.create(
        club=club, name="Seizoen A" if prefix == "a_" else "Seizoen B", slug=f"{slug}-seizoen"
    )
    evening = CompetitionEvening.objects.create(
        competition=competition, tournament=tournament, number=1
    )
    removal = EveningRemoval.objects.create(
        competition=competition,
        kind=EveningRemoval.Kind.DELETED,
        number=2,
        name="Verwijderde avond",
        slug="verwijderde-avond",
        tournament_created_at=tournament.created_at,
        backup="verwijderde-avond/verwijderde-avond-deleted.json",  # gone: the page says so
        by=people["director"],
    )
    member = Member.objects.create(
        register=club, name="Lid van A" if prefix == "a_" else "Lid van B"
    )
    return {
        "club": club,
        "people": people,
        "tournament": tournament,
        "links": links,
        "photo": photo,
        "invitation": invitation,
        "club_invitation": club_invitation,
        "competition": competition,
        "evening": evening,
        "removal": removal,
        "member": member,
    }


@pytest.fixture
def site(django_user_model):
    """Two clubs with every role each: A (De Klaverbol), whose pages the walk visits, and B."""
    a = _club("BC De Klaverbol", "klaverbol", django_user_model, "a_")
    b = _club("De Buren", "buren", django_user_model, "b_")
    accounts = {
        **a["people"],
        "b_admin": b["people"]["club_admin"],
        "b_director": b["people"]["director"],
        "b_co_director": b["people"]["co_director"],
        "b_scorer": b["people"]["scorer"],
        "stranger": django_user_model.objects.create_user("vreemde", password="x-kaart-2026-z"),
    }
    tokens = {
        "anonymous": secrets.token_urlsafe(32),
        "public": secrets.token_urlsafe(32),
        **dict.fromkeys(SIGNED_IN_ROLES, a["links"]["revoked"]),
        "table_link": a["links"]["table_link"],
        "other_table_link": a["links"]["other_table_link"],
    }
    b["tokens"] = {
        **dict.fromkeys(SIGNED_IN_ROLES, b["links"]["revoked"]),
        "table_link": b["links"]["table_link"],
        "other_table_link": b["links"]["other_table_link"],
    }
    return {**a, "b": b, "accounts": accounts, "tokens": tokens}


# Downloads in csv and xlsx only (no json).
TABLE_DOWNLOADS = {"competition_attendance_download", "member_list_download"}


def kwargs_for(name: str, arguments: tuple[str, ...], site, role: str = "director") -> dict:
    tournament = site["tournament"]
    values: dict[str, Callable[[], object]] = {
        "token": lambda: _token_for(name, site, role),
        "slug": lambda: _slug_for(name, site),
        "number": lambda: 2,
        "round": lambda: 2,
        "table": lambda: 1,
        "pk": lambda: _pk_for(name, site),
        "format": lambda: "json",
        "seats": lambda: 4,
        "fmt": lambda: "csv" if name in TABLE_DOWNLOADS else "json",
        "player_id": lambda: tournament.players.first().pk,
        "uidb64": lambda: "MQ",  # a reset link's account (made up, like its token)
    }
    unknown = [a for a in arguments if a not in values]
    assert not unknown, f"{name}: no test value for URL arguments {unknown}"
    return {argument: values[argument]() for argument in arguments}


def _token_for(name: str, site, role: str) -> str:
    if name == "team_join":
        return site["invitation"].token
    if name == "site_address_check":
        return secrets.token_urlsafe(24)
    return site["tokens"][role]


def _slug_for(name: str, site) -> str:
    if name in ("club_public", "club_privacy_public"):
        return site["club"].slug
    if name.startswith(("competition", "evening", "check_in", "public_season")):
        return site["competition"].slug
    return site["tournament"].slug


def _pk_for(name: str, site) -> int:
    tournament = site["tournament"]
    if name == "team_invitation_revoke":
        return site["invitation"].invitation.pk
    if name == "club_invitation_revoke":
        return site["club_invitation"].invitation.pk
    if name in ("club_role", "club_remove"):
        return site["people"]["other_director"].pk
    if name.startswith("player"):
        return tournament.players.first().pk
    if name.startswith("member"):
        return site["member"].pk
    if name == "evening_remove":
        return site["evening"].pk
    if name == "evening_put_back":
        return site["removal"].pk
    if name in ("sheet_photo_page", "sheet_photo_original", "table_entry_photo_page"):
        return site["photo"].pk
    if name == "sheet_version_restore":
        version = SheetVersion.objects.filter(table__round__tournament=tournament).first()
        assert version is not None, "the fixture tournament needs a stored sheet version"
        return version.pk
    raise AssertionError(f"{name}: which object does its pk name?")


def visit(client, url: str):
    return client.get(url)


def outcome(response) -> str:
    if response.status_code == 302:
        return LOGIN if "/login/" in response.url else OK
    return {200: OK, 403: FORBIDDEN, 404: MISSING, 405: POST_ONLY}.get(
        response.status_code, str(response.status_code)
    )


def _as(client, site, role: str) -> None:
    if role == "public":
        Tournament.objects.filter(pk=site["tournament"].pk).update(public=True)
        Competition.objects.filter(pk=site["competition"].pk).update(public=True)
    if role in SIGNED_IN_ROLES:
        client.force_login(site["accounts"][role])
    if role in ("table_link", "other_table_link"):
        # A phone at the table: it has opened its own link (and got its cookies) first.
        own = client.get(reverse("table_entry", args=[site["tokens"][role]]))
        assert own.status_code == 200


def _body(response) -> str:
    if getattr(response, "streaming", False):
        return b"".join(response.streaming_content).decode(errors="replace")
    return response.content.decode(errors="replace")


@pytest.mark.parametrize("role", ROLES)
def test_each_visitor_gets_what_the_rules_say(client, site, role):
    _as(client, site, role)
    failures = []
    for name, arguments in walk(get_resolver().url_patterns):
        url = reverse(name, kwargs=kwargs_for(name, arguments, site, role))
        response = visit(client, url)
        got = outcome(response)
        expected = RULES[name][role]
        if got != expected:
            failures.append(f"{name} ({url}): expected {expected}, got {got}")
        if role in CLUB_B_ROLES and name != "team_join":
            # Club B's people: whatever they get, nothing of club A is in it. (An invitation
            # link shows what it invites to, to whoever has it: the link is the permission.)
            body = _body(response)
            shown = [secret for secret in A_SECRETS if secret in body]
            if shown:
                failures.append(f"{name} ({url}) shows club A's {shown} to {role}")
    if role in CLUB_B_ROLES:
        # And on every page of their own club (its tournament, competition, register, check-in,
        # downloads): nothing of club A either.
        for name, arguments in walk(get_resolver().url_patterns):
            if name == "team_join":
                continue
            url = reverse(name, kwargs=kwargs_for(name, arguments, site["b"], role))
            body = _body(visit(client, url))
            shown = [secret for secret in A_SECRETS if secret in body]
            if shown:
                failures.append(f"club B's {name} ({url}) shows club A's {shown} to {role}")
    assert failures == []


def test_the_other_clubs_rules_are_refusals_only():
    """On A's pages club B's people get a refusal or their own club's page, never A's."""
    for name, rule in RULES.items():
        for role in CLUB_B_ROLES:
            if rule[role] == OK:
                assert rule["other_director"] == OK or rule["club_admin"] == OK, name
                assert name in {
                    "tournament_list",
                    "login",
                    "set_language",
                    "password_change",
                    "password_change_done",
                    "account_email",
                    "password_reset",
                    "password_reset_done",
                    "password_reset_complete",
                    "team_join",
                    "tournament_create",
                    "tournament_upload",
                    "club_page",
                    "club_privacy",
                    "club_log",
                    "club_delete",
                    "club_backup_download",  # their own club's backup
                    "club_backup_restore",
                    "site_address_edit",
                    "member_list",
                    "member_list_download",
                    "competition_list",
                    "competition_upload",
                }, f"{name} is club A's own: {role} must be refused"


def test_admin_is_for_staff_only(client, site):
    assert "/admin/login/" in client.get(reverse("admin:index")).url
    client.force_login(site["accounts"]["stranger"])
    assert "/admin/login/" in client.get(reverse("admin:index")).url
    client.force_login(site["accounts"]["club_admin"])  # a club admin runs a club, not the site
    assert "/admin/login/" in client.get(reverse("admin:index")).url


def test_post_only_pages_refuse_a_strangers_post(client, site):
    slug = site["tournament"].slug
    for role in ("stranger", "other_director", "b_admin"):
        client.force_login(site["accounts"][role])
        refused = client.post(reverse("round_seat", args=[slug]))
        assert refused.status_code == 403
        # Another club's admin is told they are not on the team, not what a scorer may do.
        assert "je account hoort daar niet bij" in refused.content.decode(), role
        assert client.post(reverse("round_unseat", args=[slug, 2])).status_code == 403
    assert Round.objects.filter(tournament=site["tournament"]).count() == 2


def test_the_views_say_who_they_are_for_as_the_rules_do():
    """The decorators mark a view ``director_only``, ``team_only`` or ``club_only``; the rules
    agree."""
    for name, arguments in walk(get_resolver().url_patterns):
        view = _resolve(name, arguments).func
        rule = RULES[name]
        if getattr(view, "director_only", False):
            assert rule["scorer"] == FORBIDDEN, f"{name} is for directors only"
            assert rule["co_director"] == rule["director"], name
            assert rule["other_director"] == FORBIDDEN, name
        elif getattr(view, "team_only", False):
            assert rule["scorer"] in (OK, POST_ONLY), f"{name} is for the team"
            assert rule["stranger"] == FORBIDDEN, name
        elif getattr(view, "club_only", ""):
            assert rule["scorer"] == FORBIDDEN, f"{name} is for a club's people"
            assert rule["co_director"] == FORBIDDEN, f"{name}: a tournament's co-director"
            if view.club_only == "admin":
                assert rule["other_director"] == FORBIDDEN, f"{name} is for club admins"


def _resolve(name: str, arguments: tuple[str, ...]):
    fake = {"slug": "x", "token": "x", "format": "json"}
    kwargs = {a: fake.get(a, 1) for a in arguments}
    return resolve(reverse(name, kwargs=kwargs))


def test_a_scorer_is_refused_seating_players_and_imports(client, site):
    client.force_login(site["people"]["scorer"])
    slug = site["tournament"].slug
    player = site["tournament"].players.first()
    refused = [
        client.post(reverse("round_seat", args=[slug])),
        client.post(reverse("round_unseat", args=[slug, 2])),
        client.post(reverse("round_publish", args=[slug, 2])),
        client.post(reverse("player_list", args=[slug]), {"name": "Nieuw"}),
        client.post(reverse("player_withdraw", args=[slug, player.pk]), {"from_round": 2}),
        client.post(reverse("player_paste", args=[slug]), {"text": "Nieuw"}),
        client.get(reverse("player_import", args=[slug])),
        client.get(reverse("tournament_download", args=[slug])),
        client.post(reverse("tournament_edit", args=[slug]), {"name": "Anders"}),
        client.post(reverse("team_invite", args=[slug]), {"role": "director"}),
        client.post(reverse("tournament_create"), {"name": "Eigen toernooi"}),
        client.post(reverse("tournament_upload")),
        client.post(reverse("site_address_edit"), {"site_url": "http://10.6.6.6"}),
        client.post(reverse("member_list"), {"name": "Nieuw lid"}),
    ]
    assert [r.status_code for r in refused] == [403] * len(refused)
    tournament = site["tournament"]
    tournament.refresh_from_db()
    assert tournament.name == "Geheim toernooi A"
    assert Round.objects.filter(tournament=tournament).count() == 2
    assert tournament.players.count() == 8
    assert not tournament.invitations.exclude(pk=site["invitation"].invitation.pk).exists()
    assert Tournament.objects.count() == 2
    assert not Member.objects.filter(name="Nieuw lid").exists()


def test_a_scorer_sees_only_the_buttons_they_may_press(client, site):
    slug = site["tournament"].slug
    client.force_login(site["people"]["scorer"])
    overview = client.get(reverse("tournament_detail", args=[slug])).content.decode()
    rounds = client.get(reverse("round_list", args=[slug])).content.decode()
    round_page = client.get(reverse("round_detail", args=[slug, 2])).content.decode()
    link_page = client.get(reverse("table_link", args=[slug, 2, 1])).content.decode()
    for page in (overview, rounds, round_page, link_page):
        for hidden in ("player_list", "print_index", "team"):
            assert f'href="{reverse(hidden, args=[slug])}"' not in page
        assert f'href="{reverse("standings", args=[slug])}"' in page  # to look, not to change
        assert reverse("site_address_edit") not in page
    standings = client.get(reverse("standings", args=[slug])).content.decode()
    assert reverse("standings_download", args=[slug, "xlsx"]) not in standings
    assert reverse("standings_unconfirmed", args=[slug]) not in standings
    assert reverse("tournament_edit", args=[slug]) not in overview
    assert reverse("tournament_download", args=[slug]) not in overview
    assert reverse("round_seat", args=[slug]) not in rounds
    assert reverse("sheet_edit", args=[slug, 2, 1]) in round_page
    assert reverse("table_link", args=[slug, 2, 1]) in round_page
    assert reverse("table_link_new", args=[slug, 2, 1]) not in link_page
    assert reverse("table_link_revoke", args=[slug, 2, 1]) not in link_page
    front = client.get(reverse("tournament_list")).content.decode()
    assert reverse("tournament_create") not in front
    assert reverse("member_list") not in front
    # A co-director sees them all, but not the club's address for phones.
    client.force_login(site["people"]["co_director"])
    overview = client.get(reverse("tournament_detail", args=[slug])).content.decode()
    for shown in ("player_list", "standings", "print_index", "team", "tournament_edit"):
        assert reverse(shown, args=[slug]) in overview
    assert reverse("site_address_edit") not in overview
    link_page = client.get(reverse("table_link", args=[slug, 2, 1])).content.decode()
    assert reverse("table_link_new", args=[slug, 2, 1]) in link_page
    # The club admin sees the address too.
    client.force_login(site["people"]["club_admin"])
    overview = client.get(reverse("tournament_detail", args=[slug])).content.decode()
    assert reverse("site_address_edit") in overview


def test_each_finds_their_tournaments_on_the_home_page_and_no_others(client, site):
    detail = reverse("tournament_detail", args=[site["tournament"].slug])
    theirs = reverse("tournament_detail", args=[site["b"]["tournament"].slug])
    for role, sees in (
        ("scorer", True),
        ("co_director", True),
        ("director", True),
        ("club_admin", True),
        ("other_director", False),
        ("b_admin", False),
    ):
        client.force_login(site["accounts"][role])
        page = client.get(reverse("tournament_list")).content.decode()
        assert (detail in page) is sees, role
        assert (theirs in page) is (role == "b_admin"), role
