#!/bin/sh
# The load test against two application servers sharing one PostgreSQL, as two machines would
# run the site: a throwaway PostgreSQL cluster (scripts/postgres.sh), two gunicorn instances
# (each `-w 4 --timeout 60`, the README's settings) on two ports with one secret key and the
# database cache, and bench/load.py's phones and visitors spread over both. Arguments go to
# bench/load.py, e.g.:
#
#     bench/two_servers.sh --tables 240 --visitors 100
#
# Prints what bench/load.py prints; exits with its status. The cluster is removed at the end.
set -eu
cd "$(dirname "$0")/.."
folder=$(mktemp -d "${TMPDIR:-/tmp}/bollen-two-servers.XXXXXX")
url=$(scripts/postgres.sh start "$folder")
trap 'scripts/postgres.sh stop "$folder" >/dev/null 2>&1 || true; rm -rf "$folder"' EXIT INT TERM
echo "PostgreSQL for both servers: $url"
DATABASE_URL=$url CACHE=database .venv/bin/python bench/load.py --servers 2 "$@"
