#!/usr/bin/env bash
# Set up everything and run every test: lint, then the whole suite on SQLite and again on a
# throwaway PostgreSQL cluster. Extra arguments go to pytest (e.g. scripts/test.sh -k sheet).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/bootstrap.sh test
scripts/system-packages.sh browser
scripts/npm-tools.sh

echo "== ruff"
.venv/bin/ruff check .
.venv/bin/ruff format --check .

echo "== mypy (strict: scoring/ and the clean part of tournament/, as [tool.mypy] in pyproject.toml lists)"
.venv/bin/mypy

echo "== migrations are up to date"
.venv/bin/python manage.py makemigrations --check --dry-run >/dev/null || {
  echo "A model change has no migration: run '.venv/bin/python manage.py makemigrations'." >&2
  exit 1
}

mkdir -p test-artifacts

echo "== tests on SQLite"
env -u DATABASE_URL .venv/bin/pytest "$@"

if scripts/postgres.sh available x; then
  echo "== the README's large-event set-up, followed on a fresh clone (PostgreSQL, gunicorn)"
  scripts/large-event-check.sh
  pgdir=$(mktemp -d /tmp/bollen-pg.XXXXXX)
  trap 'scripts/postgres.sh stop "$pgdir"' EXIT
  url=$(scripts/postgres.sh start "$pgdir")
  echo "== tests on PostgreSQL ($url)"
  DATABASE_URL="$url" .venv/bin/pytest "$@"
elif [ "${CI:-}" = true ]; then
  echo "PostgreSQL binaries (initdb, pg_ctl) are missing; CI must test on PostgreSQL too." >&2
  exit 1
else
  echo "== PostgreSQL binaries (initdb, pg_ctl) not found: only the SQLite pass ran." >&2
  echo "   Install them (apt-get install postgresql) to test on PostgreSQL too." >&2
fi
