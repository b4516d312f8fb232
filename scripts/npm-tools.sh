#!/usr/bin/env bash
# The JavaScript tools the browser tests use, from package.json / package-lock.json (today only
# axe-core, which checks every page for accessibility): installed into node_modules/ with
# `npm ci`, again only when the lock file changed. Needs node and npm (Debian's nodejs and npm:
# scripts/system-packages.sh browser installs them).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v npm >/dev/null 2>&1; then
  echo "npm is missing (the accessibility tests need axe-core from npm): run scripts/system-packages.sh browser, or apt-get install nodejs npm." >&2
  exit 1
fi
# npm ci writes node_modules/.package-lock.json last: newer than the lock file means done.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "Installing the test tools from package-lock.json into node_modules (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error
fi
