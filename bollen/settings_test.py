"""Settings for the test suite: the normal settings with a fixed key and fast hashing."""

import os

os.environ.setdefault("SECRET_KEY", "test-only-secret-key-not-for-production-use-0123456789")
# The checkout's .env is for the venue server (it may name a real database): tests read none.
os.environ.setdefault("ENV_FILE", "")

from bollen.settings import *  # noqa: F403

PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# One folder per test process: pytest-xdist's workers (gw0, gw1, ...) write backups side by side,
# and the SQLite and PostgreSQL passes run at the same time (scripts/test.sh).
_worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
_vendor = "postgresql" if "postgresql" in DATABASES["default"]["ENGINE"] else "sqlite"  # noqa: F405
BACKUP_DIR = BASE_DIR / "test-artifacts" / f"backups-{_vendor}-{_worker}"  # noqa: F405
AXES_ENABLED = False  # enabled again in the throttling test
STORAGES = {
    **STORAGES,  # noqa: F405
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
WHITENOISE_AUTOREFRESH = True
WHITENOISE_USE_FINDERS = True
# Seating plans that do not depend on how busy the machine is: the search stops at its step
# cap, the time limit is only a backstop. The site's tests need a good plan, not the best the
# search can reach (that is tests/scoring's and bench/seating.py's): a plan that cannot reach
# its lower bound (17 players, five rounds) runs to the cap, 3000 steps took a second or two.
SEATING_MAX_ITERATIONS = 1000
SEATING_TIME_LIMIT = 60.0
PUBLIC_STANDINGS_SECONDS = 0  # exact figures; tests/site/test_public.py tests the delay
# Costly uploads run in the request's thread: a test's database is one transaction, which
# another thread's connection would not see (tests/site/test_costly.py runs the thread).
COSTLY_NICE = 0

# A file, not SQLite's shared in-memory database: with a file, concurrent writers (the live
# server, the concurrency tests) wait for each other as in production instead of failing.
if DATABASES["default"]["ENGINE"] == "tournament.venue.sqlite":  # noqa: F405
    # One file per test process, so two test runs on one machine never share a database.
    DATABASES["default"]["TEST"] = {  # noqa: F405
        "NAME": str(BASE_DIR / "test-artifacts" / f"test-{os.getpid()}.sqlite3")  # noqa: F405
    }
