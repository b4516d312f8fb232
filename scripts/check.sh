#!/usr/bin/env bash
# The quick loop while developing (make check): lint, types, and the tests without a browser on
# SQLite, on both cores. A few minutes at most; `make test` (every test, on both databases) is
# what CI runs. Extra arguments go to pytest (e.g. scripts/check.sh tests/sheets).
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/bootstrap.sh test >/dev/null
scripts/lint.sh
echo "== tests without a browser, on SQLite"
env -u DATABASE_URL .venv/bin/pytest -q -n "${TEST_WORKERS:-$(nproc)}" --dist loadgroup -m "not browser and not package" "$@"
