#!/usr/bin/env bash
# What both make test and make check run before the tests: ruff, mypy, the packages' import
# contracts, and that no model change lacks its migration.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== ruff"
.venv/bin/ruff check .
.venv/bin/ruff format --check .

echo "== mypy (strict: scoring/ and tournament/, as [tool.mypy] in pyproject.toml says)"
.venv/bin/mypy

echo "== the packages' direction (the contracts under [tool.importlinter] in pyproject.toml)"
.venv/bin/lint-imports --no-logo

echo "== migrations are up to date"
.venv/bin/python manage.py makemigrations --check --dry-run >/dev/null || {
  echo "A model change has no migration: run '.venv/bin/python manage.py makemigrations'." >&2
  exit 1
}
