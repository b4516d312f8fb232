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
    Competition,
    CompetitionEvening,
    Member,
    Round,
    SheetVersion,
    Table,
)
from tournament.sheets.selectors import sheet_version_number
from tournament.sheets.services import sheet_record
from tournament.sheets.submission import SheetSubmission
from tournament.sheets.table_links import table_link_issue
from tournament.team.services import team_invitation_create

pytestmark = pytest.mark.django_db

ROLES = (
    "anonymous",
    "public",
    "stranger",
    "director",
    "co_director",
    "scorer",
    "table_link",
    "other_table_link",
)
SIGNED_IN_ROLES = ("stranger", "director", "co_director", "scorer")

OK = "ok"  # 200, or a redirect that is not to the sign-in page
LOGIN = "login"  # redirected to sign in
FORBIDDEN = "forbidden"  # 403
MISSING = "missing"  # 404: nothing to see here (not public, not yours)
POST_ONLY = "post_only"  # 405 to a GET: the page only acts on a form

# Co-directors and superusers: everything. Scorers: sheets and the round overview only.
DIRECTOR_ONLY = {
    "anonymous": LOGIN,
    "public": LOGIN,
    "stranger": FORBIDDEN,
    "director": OK,
    "co_director": OK,
    "scorer": FORBIDDEN,
    "table_link": LOGIN,
    "other_table_link": LOGIN,
}
DIRECTOR_POST = {**DIRECTOR_ONLY, "director": POST_ONLY, "co_director": POST_ONLY}
TEAM = {**DIRECTOR_ONLY, "scorer": OK}
TEAM_POST = {**DIRECTOR_POST, "scorer": POST_ONLY}
SIGNED_IN = {**DIRECTOR_ONLY, "stranger": OK, "scorer": OK}
EVERYONE = dict.fromkeys(ROLES, OK)
PUBLIC = {**dict.fromkeys(ROLES, MISSING), "public": OK}

RULES: dict[str, dict[str, str]] = {
    "tournament_list": EVERYONE,
    "login": EVERYONE,
    "logout": dict.fromkeys(ROLES, POST_ONLY),
    "password_change": SIGNED_IN,
    "password_change_done": SIGNED_IN,
    "set_language": EVERYONE,
    "tournament_create": SIGNED_IN,
    "tournament_upload": SIGNED_IN,
    "tournament_detail": TEAM,
    "tournament_edit": DIRECTOR_ONLY,
    "tournament_download": DIRECTOR_ONLY,
    "player_list": DIRECTOR_ONLY,
    "player_paste": DIRECTOR_ONLY,
    "player_import": DIRECTOR_ONLY,
    "player_detail": DIRECTOR_ONLY,
    "player_edit": DIRECTOR_ONLY,
    "player_withdraw": DIRECTOR_POST,
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
    "sheet_history": TEAM,
    "sheet_version_restore": TEAM_POST,
    "print_index": DIRECTOR_ONLY,
    "print_sheets": DIRECTOR_ONLY,
    "print_seating": DIRECTOR_ONLY,
    "print_blank": DIRECTOR_ONLY,
    "print_standings": DIRECTOR_ONLY,
    "print_workbook": DIRECTOR_ONLY,
    # The whole site's address for phones: anyone who directs a tournament (the stranger directs
    # none).
    "site_address_edit": DIRECTOR_ONLY,
    "table_link": TEAM,
    "table_link_new": DIRECTOR_POST,
    "table_link_revoke": DIRECTOR_POST,
    "sheet_confirm": TEAM,
    "sheet_retype": TEAM,
    "standings_unconfirmed": DIRECTOR_POST,
    "team": DIRECTOR_ONLY,
    "team_invite": DIRECTOR_ONLY,  # a GET goes back to the team page
    "team_remove": DIRECTOR_POST,
    "team_invitation_revoke": DIRECTOR_POST,
    # A working invitation opens its page for everyone (signed in: "join with this account").
    "team_join": EVERYONE,
    # Each visitor brings the token they have: table 1's link, table 2's link, a revoked link
    # (the signed-in ones) or a made-up one (anonymous, public). Only a working link opens.
    "table_entry": {**dict.fromkeys(ROLES, MISSING), "table_link": OK, "other_table_link": OK},
    "table_entry_first_dealer": dict.fromkeys(ROLES, POST_ONLY),
    "public_home": PUBLIC,
    "public_standings": PUBLIC,
    "public_screen": PUBLIC,
    # A club's season: the register is the whole club site's; a competition its directors'.
    "member_list": SIGNED_IN,
    "member_edit": SIGNED_IN,
    "member_merge": SIGNED_IN,  # without the other record: back to the member
    "member_merge_remove": {**SIGNED_IN, **dict.fromkeys(SIGNED_IN_ROLES, POST_ONLY)},
    "competition_list": SIGNED_IN,
    "competition_upload": SIGNED_IN,  # a new competition, from a file
    "competition_detail": DIRECTOR_ONLY,
    "competition_edit": DIRECTOR_ONLY,
    "evening_add": DIRECTOR_ONLY,  # a GET goes back to the competition
    "check_in": DIRECTOR_ONLY,
    "competition_questions": DIRECTOR_ONLY,
    "competition_print": DIRECTOR_ONLY,
    "competition_download": DIRECTOR_ONLY,
    "competition_file": DIRECTOR_ONLY,  # the register and every evening's site records
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


@pytest.fixture
def site(django_user_model):
    """A tournament with two rounds (the second under way), its team (director, co-director,
    scorer) and a stranger."""
    director = django_user_model.objects.create_user("leiding", password="x-kaart-2026-y")
    co_director = django_user_model.objects.create_user("mede", password="x-kaart-2026-c")
    scorer = django_user_model.objects.create_user("teller", password="x-kaart-2026-s")
    stranger = django_user_model.objects.create_user("vreemde", password="x-kaart-2026-z")
    tournament = played_tournament(8, rounds=2, last_round=[11, 4], director=director)
    tournament.directors.add(co_director)
    tournament.scorers.add(scorer)
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
            by_user=director,
        ),
    )
    # Table links of round 2: table 1's first link was replaced, so it is revoked.
    first, second = (Table.objects.get(round=table.round, number=n) for n in (1, 2))
    revoked = table_link_issue(table=first, by_user=director)
    tokens = {
        "anonymous": secrets.token_urlsafe(32),
        "public": secrets.token_urlsafe(32),
        **dict.fromkeys(SIGNED_IN_ROLES, revoked.token),
        "table_link": table_link_issue(table=first, by_user=director).token,
        "other_table_link": table_link_issue(table=second, by_user=director).token,
    }
    invitation = team_invitation_create(tournament=tournament, role="scorer", by_user=director)
    # A competition under the tournament's slug, run by the tournament's directors.
    competition = Competition.objects.create(name="Seizoen", slug=tournament.slug)
    competition.directors.add(director, co_director)
    CompetitionEvening.objects.create(competition=competition, tournament=tournament, number=1)
    member = Member.objects.create(name="Lid")
    return {
        "competition": competition,
        "member": member,
        "tournament": tournament,
        "director": director,
        "co_director": co_director,
        "scorer": scorer,
        "stranger": stranger,
        "tokens": tokens,
        "invitation": invitation,
    }


def kwargs_for(name: str, arguments: tuple[str, ...], site, role: str = "director") -> dict:
    tournament = site["tournament"]
    values: dict[str, Callable[[], object]] = {
        "token": lambda: site["invitation"].token if name == "team_join" else site["tokens"][role],
        "slug": lambda: tournament.slug,
        "number": lambda: 2,
        "round": lambda: 2,
        "table": lambda: 1,
        "pk": lambda: _pk_for(name, site),
        "format": lambda: "json",
        "seats": lambda: 4,
        "fmt": lambda: "json",
        "player_id": lambda: tournament.players.first().pk,
    }
    unknown = [a for a in arguments if a not in values]
    assert not unknown, f"{name}: no test value for URL arguments {unknown}"
    return {argument: values[argument]() for argument in arguments}


def _pk_for(name: str, site) -> int:
    tournament = site["tournament"]
    if name == "team_invitation_revoke":
        return site["invitation"].invitation.pk
    if name.startswith("player"):
        return tournament.players.first().pk
    if name.startswith("member"):
        return site["member"].pk
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


@pytest.mark.parametrize("role", ROLES)
def test_each_visitor_gets_what_the_rules_say(client, site, role):
    tournament = site["tournament"]
    if role == "public":
        tournament.public = True
        tournament.save(update_fields=["public"])
        Competition.objects.filter(pk=site["competition"].pk).update(public=True)
    if role in SIGNED_IN_ROLES:
        client.force_login(site[role])
    if role in ("table_link", "other_table_link"):
        # A phone at the table: it has opened its own link (and got its cookies) first.
        own = client.get(reverse("table_entry", args=[site["tokens"][role]]))
        assert own.status_code == 200
    failures = []
    for name, arguments in walk(get_resolver().url_patterns):
        url = reverse(name, kwargs=kwargs_for(name, arguments, site, role))
        got = outcome(visit(client, url))
        expected = RULES[name][role]
        if got != expected:
            failures.append(f"{name} ({url}): expected {expected}, got {got}")
    assert failures == []


def test_admin_is_for_staff_only(client, site):
    assert "/admin/login/" in client.get(reverse("admin:index")).url
    client.force_login(site["stranger"])
    assert "/admin/login/" in client.get(reverse("admin:index")).url


def test_post_only_pages_refuse_a_strangers_post(client, site):
    client.force_login(site["stranger"])
    slug = site["tournament"].slug
    assert client.post(reverse("round_seat", args=[slug])).status_code == 403
    assert client.post(reverse("round_unseat", args=[slug, 2])).status_code == 403
    assert Round.objects.filter(tournament=site["tournament"]).count() == 2


def test_the_views_say_who_they_are_for_as_the_rules_do():
    """The decorators mark a view ``director_only`` or ``team_only``; a scorer's rule agrees."""
    for name, arguments in walk(get_resolver().url_patterns):
        view = _resolve(name, arguments).func
        rule = RULES[name]
        if getattr(view, "director_only", False):
            assert rule["scorer"] == FORBIDDEN, f"{name} is for directors only"
            assert rule["co_director"] == rule["director"], name
        elif getattr(view, "team_only", False):
            assert rule["scorer"] in (OK, POST_ONLY), f"{name} is for the team"
            assert rule["stranger"] == FORBIDDEN, name


def _resolve(name: str, arguments: tuple[str, ...]):
    fake = {"slug": "x", "token": "x", "format": "json"}
    kwargs = {a: fake.get(a, 1) for a in arguments}
    return resolve(reverse(name, kwargs=kwargs))


def test_a_scorer_is_refused_seating_players_and_imports(client, site):
    client.force_login(site["scorer"])
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
    ]
    assert [r.status_code for r in refused] == [403] * len(refused)
    tournament = site["tournament"]
    tournament.refresh_from_db()
    assert tournament.name == "Testtoernooi"
    assert Round.objects.filter(tournament=tournament).count() == 2
    assert tournament.players.count() == 8
    assert not tournament.invitations.exclude(pk=site["invitation"].invitation.pk).exists()


def test_a_scorer_sees_only_the_buttons_they_may_press(client, site):
    slug = site["tournament"].slug
    client.force_login(site["scorer"])
    overview = client.get(reverse("tournament_detail", args=[slug])).content.decode()
    rounds = client.get(reverse("round_list", args=[slug])).content.decode()
    round_page = client.get(reverse("round_detail", args=[slug, 2])).content.decode()
    link_page = client.get(reverse("table_link", args=[slug, 2, 1])).content.decode()
    for page in (overview, rounds, round_page, link_page):
        for hidden in ("player_list", "print_index", "team"):
            assert f'href="{reverse(hidden, args=[slug])}"' not in page
        assert f'href="{reverse("standings", args=[slug])}"' in page  # to look, not to change
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
    # A co-director sees them all.
    client.force_login(site["co_director"])
    overview = client.get(reverse("tournament_detail", args=[slug])).content.decode()
    for shown in ("player_list", "standings", "print_index", "team", "tournament_edit"):
        assert reverse(shown, args=[slug]) in overview
    link_page = client.get(reverse("table_link", args=[slug, 2, 1])).content.decode()
    assert reverse("table_link_new", args=[slug, 2, 1]) in link_page


def test_a_scorer_finds_their_tournament_on_the_home_page(client, site):
    client.force_login(site["scorer"])
    page = client.get(reverse("tournament_list")).content.decode()
    assert reverse("tournament_detail", args=[site["tournament"].slug]) in page
