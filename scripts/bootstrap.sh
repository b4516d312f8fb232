#!/usr/bin/env bash
# Set up the project on this machine: a virtualenv in .venv with the dependencies exactly as the
# lock file pins them (requirements/site.txt; with "test" as the first argument
# requirements/test.txt, the same pins and the test tools), every file checked against its hash,
# then the project itself (editable, --no-deps), and the compiled translations. Safe to run
# again: it only reinstalls when pyproject.toml or the lock file changed (scripts/lock.sh
# makes the lock files).
set -euo pipefail
cd "$(dirname "$0")/.."

extra="${1:-}"

find_python() {
  for candidate in "${PYTHON:-}" python3.11 python3.12 python3.13 python3; do
    [ -n "$candidate" ] || continue
    if command -v "$candidate" >/dev/null 2>&1 &&
      "$candidate" -c 'import sys; sys.exit(0 if (3, 11) <= sys.version_info[:2] < (3, 14) else 1)'; then
      command -v "$candidate"
      return 0
    fi
  done
  return 1
}

if [ ! -x .venv/bin/python ]; then
  python=$(find_python) || {
    echo "Python 3.11 (or 3.12/3.13) is needed but was not found. Install it, or set PYTHON=/path/to/python3.11." >&2
    exit 1
  }
  echo "Creating the virtualenv in .venv with $python"
  "$python" -m venv .venv || {
    echo "Could not create a virtualenv. On Debian/Ubuntu: apt-get install python3-venv" >&2
    exit 1
  }
fi

lock=requirements/site.txt
[ "$extra" = test ] && lock=requirements/test.txt
stamp=".venv/.installed${extra:+-$extra}"
# An install with the test tools has everything a plain one needs (the same pins).
if [ -z "$extra" ] && [ -f .venv/.installed-test ] && [ ! pyproject.toml -nt .venv/.installed-test ] &&
  [ ! requirements/test.txt -nt .venv/.installed-test ]; then
  stamp=.venv/.installed-test
  lock=requirements/test.txt
fi
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ] || [ "$lock" -nt "$stamp" ]; then
  echo "Installing the project and its dependencies into .venv from $lock"
  # (PYTHONWARNINGS: setuptools' note about editable installs is for developers, not clubs.
  # --no-compile: Python compiles the modules it imports when it first imports them, and keeps
  # them unless PYTHONDONTWRITEBYTECODE is set (scripts/test.sh unsets it); compiling every file
  # of every package up front took a fifth of the install.)
  PYTHONWARNINGS=ignore .venv/bin/python -m pip install --quiet --disable-pip-version-check \
    --no-compile --require-hashes -r "$lock"
  # The project itself: its dependencies are all in the lock; setuptools (for the build) too.
  PYTHONWARNINGS=ignore .venv/bin/python -m pip install --quiet --disable-pip-version-check \
    --no-compile --no-deps --no-build-isolation -e .
  # A dependency added to pyproject.toml but not to the lock would be missing.
  .venv/bin/python -m pip check --disable-pip-version-check >/dev/null || {
    .venv/bin/python -m pip check --disable-pip-version-check >&2 || true
    echo "The lock file $lock does not hold what pyproject.toml needs: run scripts/lock.sh." >&2
    exit 1
  }
  touch "$stamp"
fi

# The test tools from npm (axe-core for the accessibility tests), when npm is here; without it,
# scripts/test.sh installs Node.js first (scripts/system-packages.sh browser).
if [ "$extra" = test ]; then
  if command -v npm >/dev/null 2>&1; then
    scripts/npm-tools.sh
  else
    echo "npm not found: the accessibility tests need it (scripts/system-packages.sh browser installs it)." >&2
  fi
fi

DEBUG=1 .venv/bin/python manage.py compile_translations
