#!/usr/bin/env bash
# The quick loop while developing (make check): lint, types, and the tests without a browser on
# SQLite, on both cores. Under three minutes; `make test` (every test, on both databases) is
# what CI runs. Extra arguments go to pytest (e.g. scripts/check.sh tests/sheets).
set -euo pipefail
cd "$(dirname "$0")/.."
# Python keeps what it compiles (__pycache__, git-ignored). A machine that sets
# PYTHONDONTWRITEBYTECODE (this one does) makes every test process, and every server and command
# the suite starts, compile Django, WeasyPrint and the tests again: collecting took 9 s a process
# instead of 3, and a manage.py command started in 3 s instead of 1.3.
unset PYTHONDONTWRITEBYTECODE

scripts/bootstrap.sh test >/dev/null
# The lint runs in one process and the tests start their workers meanwhile: side by side, its
# findings printed first once both are done.
echo "== lint, types and the tests without a browser on SQLite, side by side (their output follows)"
lint_log=$(mktemp)
trap 'rm -f "$lint_log" "$lint_log.tests"' EXIT
scripts/lint.sh >"$lint_log" 2>&1 &
lint=$!
tests=0
env -u DATABASE_URL .venv/bin/pytest -q -n "${TEST_WORKERS:-$(nproc)}" --dist loadgroup \
  -m "not browser and not package" "$@" >"$lint_log.tests" 2>&1 || tests=$?
lint_status=0
wait "$lint" || lint_status=$?
cat "$lint_log"
echo "== tests without a browser, on SQLite"
cat "$lint_log.tests"
[ "$lint_status" = 0 ] || exit "$lint_status"
exit "$tests"
