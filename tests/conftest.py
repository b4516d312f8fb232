"""Fixtures shared by the whole suite, and what a bare ``pytest`` needs on a fresh checkout."""

import io
from pathlib import Path

import pytest
from django.core.management import call_command
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parent.parent

# Hypothesis's timing checks measure the machine, not the code: on two cores with both busy
# (pytest-xdist, a browser, another job) a strategy drawing whole sheets is "slow" and an
# example passes its deadline. What a property finds does not depend on either.
settings.register_profile(
    "suite", suppress_health_check=[HealthCheck.too_slow], deadline=None, print_blob=True
)
settings.load_profile("suite")


@pytest.hookimpl(trylast=True)
def pytest_configure(config):
    # Both are git-ignored: the test databases and screenshots go to test-artifacts/, and the
    # pages are asserted in Dutch, which needs the .mo files (compiled only when missing or
    # older than their .po). After pytest-django's own hook, so the settings are loaded.
    (ROOT / "test-artifacts").mkdir(exist_ok=True)
    call_command("compile_translations", stdout=io.StringIO())


# The fixtures through which a test reaches the site's database (pytest-django's, directly or
# through the suite's own fixtures).
DATABASE_FIXTURES = frozenset(
    {"db", "transactional_db", "django_db_reset_sequences", "live_server"}
)


def uses_database(item: pytest.Item) -> bool:
    return item.get_closest_marker("django_db") is not None or not DATABASE_FIXTURES.isdisjoint(
        getattr(item, "fixturenames", ())
    )


def on_postgres() -> bool:
    from django.conf import settings

    return settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"


def _grouped(item: pytest.Item) -> bool:
    return item.get_closest_marker("xdist_group") is not None


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    """On PostgreSQL only the tests that can find something there: those that use the site's
    database, but not through a browser (the browser tests run once, on SQLite: what they add
    over the view tests is the page in Chromium, not the database). Pure rules, files, the
    wheel, the servers on their own SQLite and the layout run on the SQLite pass only. The rule
    is in the README ("Running the tests")."""
    # The tests that start servers, virtualenvs or a second database keep them for their module
    # (an xdist group: one worker each); those that never touch the site's database go first,
    # so that they run beside the rest instead of after it.
    items.sort(key=lambda item: not (_grouped(item) and not uses_database(item)))
    if not on_postgres():
        return
    kept = [
        item
        for item in items
        if uses_database(item)
        and item.get_closest_marker("browser") is None
        and item.get_closest_marker("both_databases") is None
    ]
    if len(kept) < len(items):
        keep = set(kept)
        config.hook.pytest_deselected(items=[item for item in items if item not in keep])
        items[:] = kept


@pytest.fixture(autouse=True)
def _empty_cache(request):
    """Each test starts with an empty cache: a test's database is rolled back afterwards, so
    the next test may reuse its ids, and cached standings keyed by them would be another's.
    The database cache (on PostgreSQL) is emptied only by tests that use the database; the
    others cannot reach it, and cannot have filled it."""
    from django.core.cache import caches
    from django.core.cache.backends.db import DatabaseCache

    database = uses_database(request.node)
    if isinstance(caches["default"], DatabaseCache) and not database:
        return
    if database:
        request.getfixturevalue("_django_db_helper")  # the database is open before the cache
    caches["default"].clear()


@pytest.fixture
def club(db):
    """The site's one club, as a laptop has it (made by the first ``make run``)."""
    from tournament.clubs.services import club_sole

    return club_sole()


@pytest.fixture
def director(django_user_model, club):
    """A tournament director's account: the admin of the site's one club, as the laptop's
    ``directeur`` is."""
    from tournament.models import ClubRole

    user = django_user_model.objects.create_user(
        username="director", password="correct-horse-battery", is_staff=True
    )
    ClubRole.objects.create(club=club, user=user, role=ClubRole.Role.ADMIN)
    return user


@pytest.fixture
def director_client(client, director):
    client.force_login(director)
    return client
