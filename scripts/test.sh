#!/usr/bin/env bash
# Set up everything and run every test: lint, then the whole suite on SQLite and the tests that
# use the database again on a throwaway PostgreSQL cluster, on every core (pytest-xdist); beside
# them the README's large-event set-up on a fresh clone. Extra arguments go to pytest (e.g.
# scripts/test.sh -k sheet).
set -euo pipefail
cd "$(dirname "$0")/.."
# Python keeps what it compiles (__pycache__, git-ignored). A machine that sets
# PYTHONDONTWRITEBYTECODE (this one does) makes every test process, and every server and command
# the suite starts, compile Django, WeasyPrint and the tests again: collecting took 9 s a process
# instead of 3, and a manage.py command started in 3 s instead of 1.3.
unset PYTHONDONTWRITEBYTECODE

scripts/bootstrap.sh test
scripts/system-packages.sh browser
scripts/npm-tools.sh
mkdir -p test-artifacts

pgdir=""
large_event=""
lint=""
pg_pass=""
large_event_log=test-artifacts/large-event-check.log
cleanup() {
  # (its own process group: its gunicorn and PostgreSQL go with it)
  if [ -n "$large_event" ]; then kill -- "-$large_event" 2>/dev/null || true; fi
  if [ -n "$pg_pass" ]; then kill -- "-$pg_pass" 2>/dev/null || true; fi
  if [ -n "$lint" ]; then kill "$lint" 2>/dev/null || true; fi
  if [ -n "$pgdir" ]; then scripts/postgres.sh stop "$pgdir"; fi
}
trap cleanup EXIT

postgres=0
if scripts/postgres.sh available x; then
  postgres=1
  # Most of it is installing the packages into the clone's virtualenv, which waits on the disk
  # more than on the cores: it runs beside the lint and the tests, its steps shown at the end.
  setsid scripts/large-event-check.sh >"$large_event_log" 2>&1 &
  large_event=$!
elif [ "${CI:-}" = true ]; then
  echo "PostgreSQL binaries (initdb, pg_ctl) are missing; CI must test on PostgreSQL too." >&2
  exit 1
fi

# The lint (one process) beside the tests, its findings printed after the SQLite pass.
lint_log=test-artifacts/lint.log
scripts/lint.sh >"$lint_log" 2>&1 &
lint=$!

# The PostgreSQL pass runs beside the SQLite pass, its output printed after it: one after the
# other the cores idled through each pass's start and its last long tests (8:27 on two cores,
# against 7:xx side by side). One process per core's half: without browsers these tests compute
# more than they wait, and the SQLite pass has the rest.
pg_log=test-artifacts/postgresql.log
if [ "$postgres" = 1 ]; then
  pgdir=$(mktemp -d /tmp/bollen-pg.XXXXXX)
  url=$(scripts/postgres.sh start "$pgdir")
  pg_workers="${TEST_WORKERS:-$(( $(nproc) / 2 > 0 ? $(nproc) / 2 : 1 ))}"
  setsid env DATABASE_URL="$url" .venv/bin/pytest -n "$pg_workers" --dist loadgroup "$@" \
    >"$pg_log" 2>&1 &
  pg_pass=$!
fi

# Two test processes per core: a browser test waits on Chromium and the live server, a server
# test on its start, so one per core leaves them idle (on two cores the SQLite pass took 8:31
# with four, 9:25 with six, about 10 minutes with two). TEST_WORKERS=0 runs them in this process.
workers="${TEST_WORKERS:-$(($(nproc) * 2))}"

echo "== tests on SQLite"
sqlite=0
env -u DATABASE_URL .venv/bin/pytest -n "$workers" --dist loadgroup "$@" || sqlite=$?
status=0
wait "$lint" || status=$?
lint=""
cat "$lint_log"
[ "$status" = 0 ] || exit "$status"
[ "$sqlite" = 0 ] || exit "$sqlite"

if [ "$postgres" = 1 ]; then
  echo "== tests that use the database, again on PostgreSQL ($url), run beside the SQLite pass"
  status=0
  wait "$pg_pass" || status=$?
  pg_pass=""
  cat "$pg_log"
  [ "$status" = 0 ] || exit "$status"

  echo "== the README's large-event set-up, followed on a fresh clone (PostgreSQL, gunicorn)"
  status=0
  wait "$large_event" || status=$?
  large_event=""
  cat "$large_event_log"
  [ "$status" = 0 ] || exit "$status"
else
  echo "== PostgreSQL binaries (initdb, pg_ctl) not found: only the SQLite pass ran." >&2
  echo "   Install them (apt-get install postgresql) to test on PostgreSQL too." >&2
fi
