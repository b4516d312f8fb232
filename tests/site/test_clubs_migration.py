"""Migration 0014: a database built at 0013 (one site, no clubs) gets one club that holds
everything, with its directors as club admins and the site's address for phones as the club's
(not yet tested from a phone); going back gives the site its address and its competitions
their directors again. Runs on SQLite and PostgreSQL alike (the suite runs on both)."""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.hashers import make_password
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tournament.models import (
    Club,
    ClubAddressChange,
    ClubRole,
    Competition,
    Member,
    TeamInvitation,
    Tournament,
)
from tournament.permissions import is_director

BEFORE = ("tournament", "0013_penalty_order")
AFTER = ("tournament", "0014_clubs")


def _migrate(target):
    executor = MigrationExecutor(connection)
    executor.migrate([target])
    return executor.loader.project_state([target]).apps


def _to_today():
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.fixture
def old_schema(transactional_db):
    """The database at 0013, back at the newest migration afterwards."""
    yield _migrate(BEFORE)
    _to_today()


def _old_site(apps) -> dict[str, int]:
    """What a site at 0013 holds: two tournaments (directed by anna, and by bert with anna),
    a scorer, a competition run by cor, a register with member numbers, an invitation, the
    address for phones set on the site and a superuser who directs nothing."""
    model = lambda name: apps.get_model("tournament", name)  # noqa: E731
    user_model = apps.get_model("auth", "User")
    user = lambda name, **extra: user_model.objects.create(  # noqa: E731
        username=name, password=make_password("x" * 12), **extra
    )
    anna, bert, cor, tess = user("anna"), user("bert"), user("cor"), user("tess")
    baas = user("baas", is_superuser=True, is_staff=True)
    first = model("Tournament").objects.create(name="Najaar", slug="najaar")
    second = model("Tournament").objects.create(name="Kerst", slug="kerst")
    first.directors.add(anna)
    second.directors.add(bert, anna)
    second.scorers.add(tess)
    competition = model("Competition").objects.create(name="Seizoen", slug="seizoen")
    competition.directors.add(cor)
    model("CompetitionEvening").objects.create(competition=competition, tournament=first, number=1)
    model("Member").objects.create(name="Lid Een", number="17")
    model("Member").objects.create(name="Lid Twee", number="18")
    model("TeamInvitation").objects.create(
        tournament=first,
        role="scorer",
        token_hash="a" * 64,
        expires_at=datetime.datetime(2030, 1, 1, tzinfo=datetime.UTC),
    )
    model("SiteSettings").objects.create(pk=1, site_url="http://192.168.1.20:8000")
    return {"anna": anna.pk, "bert": bert.pk, "cor": cor.pk, "tess": tess.pk, "baas": baas.pk}


def test_everything_moves_into_one_club_run_by_the_directors(old_schema):
    users = _old_site(old_schema)
    _migrate(AFTER)
    _to_today()
    club = Club.objects.get()
    assert (club.slug, club.name, club.site_url) == ("club", "", "http://192.168.1.20:8000")
    assert set(Tournament.objects.values_list("club", flat=True)) == {club.pk}
    assert set(Competition.objects.values_list("club", flat=True)) == {club.pk}
    assert set(Member.objects.values_list("register", flat=True)) == {club.pk}
    assert TeamInvitation.objects.get().club == club
    admins = set(ClubRole.objects.filter(club=club).values_list("user_id", "role"))
    assert admins == {(users[name], "admin") for name in ("anna", "bert", "cor", "baas")}
    # The scorer stays a scorer: no club role, the tournament as before.
    kerst = Tournament.objects.get(slug="kerst")
    assert kerst.scorers.filter(pk=users["tess"]).exists()
    assert not ClubRole.objects.filter(user_id=users["tess"]).exists()
    assert is_director(kerst.directors.get(username="bert"), kerst)
    # The address set before clubs existed is the club's, and no phone has tested it yet.
    change = ClubAddressChange.objects.get(club=club)
    assert (change.old_url, change.new_url, change.confirmed_at) == (
        "",
        "http://192.168.1.20:8000",
        None,
    )
    # Member numbers are unique per register now; the register's numbers are kept.
    assert sorted(Member.objects.values_list("number", flat=True)) == ["17", "18"]


def test_going_back_gives_the_site_its_address_and_the_competitions_their_directors(
    old_schema,
):
    users = _old_site(old_schema)
    _migrate(AFTER)
    apps = _migrate(BEFORE)
    site = apps.get_model("tournament", "SiteSettings").objects.get(pk=1)
    assert site.site_url == "http://192.168.1.20:8000"
    competition = apps.get_model("tournament", "Competition").objects.get()
    # The club's admins ran every competition.
    assert set(competition.directors.values_list("pk", flat=True)) == {
        users[name] for name in ("anna", "bert", "cor", "baas")
    }
    tournament = apps.get_model("tournament", "Tournament").objects.get(slug="najaar")
    assert set(tournament.directors.values_list("pk", flat=True)) == {users["anna"]}


def test_a_fresh_database_gets_no_club_from_the_migration(transactional_db):
    """The first make run (``ensure_director``) or ``club_create`` makes it instead."""
    _migrate(BEFORE)
    _migrate(AFTER)
    _to_today()
    assert not Club.objects.exists()


def test_going_back_is_refused_on_a_site_of_several_clubs(old_schema):
    _old_site(old_schema)
    _migrate(AFTER)
    _to_today()
    Club.objects.create(name="Tweede club", slug="tweede")
    with pytest.raises(RuntimeError, match="several clubs"):
        _migrate(BEFORE)
