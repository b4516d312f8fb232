#!/usr/bin/env bash
# Make the lock files again from pyproject.toml: every dependency pinned, with the hashes of its
# files on PyPI, for Python 3.11 to 3.13 on every platform (uv pip compile --universal).
#   requirements/site.txt  the site with its extras postgres and server (make run, a server)
#   requirements/test.txt  the same pins, with the test tools (make test, CI)
# Run it after changing a dependency in pyproject.toml, and commit both files: it keeps every
# pin it can (only what the change needs moves); scripts/lock.sh --upgrade takes the newest
# versions pyproject.toml allows. uv is installed into a throwaway virtualenv, not the project's.
set -euo pipefail
cd "$(dirname "$0")/.."
UV_VERSION=0.13.9

tools=$(mktemp -d "${TMPDIR:-/tmp}/bollen-lock.XXXXXX")
trap 'rm -rf "$tools"' EXIT
python3 -m venv "$tools/venv"
"$tools/venv/bin/python" -m pip install --quiet --disable-pip-version-check "uv==$UV_VERSION"

options=("$@")  # e.g. --upgrade, --upgrade-package django

compile() {
  local out=$1
  shift
  # uv keeps the pins of the file it writes: start from the current lock.
  rm -f "$tools/new.txt"
  if [ -f "$out" ]; then cp "$out" "$tools/new.txt"; fi
  # (UV_*: this machine's uv settings, if any, must not change what everyone installs.)
  env -u UV_INDEX_URL -u UV_EXTRA_INDEX_URL -u UV_FIND_LINKS -u UV_CONSTRAINT \
    "$tools/venv/bin/uv" pip compile --quiet --no-config --universal --python-version 3.11 \
    --generate-hashes --index-url https://pypi.org/simple --custom-compile-command scripts/lock.sh \
    --no-emit-package bollen-toernooi \
    pyproject.toml requirements/build.in --extra postgres --extra server \
    ${options[@]+"${options[@]}"} "$@" -o "$tools/new.txt"
  # Unchanged: the file keeps its time, so scripts/bootstrap.sh does not install again.
  # WeasyPrint asks for fonttools[woff]: pip 23 (Debian's, the virtualenv's) in hash mode
  # takes that as a second, unpinned requirement and picks the newest fonttools it can see,
  # unless the pin names the extra too.
  sed -i 's/^fonttools==/fonttools[woff]==/' "$tools/new.txt"
  if [ -f "$out" ] && cmp -s "$tools/new.txt" "$out"; then rm "$tools/new.txt"; else mv "$tools/new.txt" "$out"; fi
}
compile requirements/site.txt
# The test lock keeps the site's pins: what the tests pass on is what a server installs.
compile requirements/test.txt --extra test --constraint requirements/site.txt
echo "requirements/site.txt: $(grep -c '==' requirements/site.txt) packages;" \
  "requirements/test.txt: $(grep -c '==' requirements/test.txt) packages"
