#!/usr/bin/env bash
# The venue server (make run): set up, check the database, bring it up to date, make sure a
# director account exists (a generated password, printed once), load the demo tournament, then
# serve the site on the club's network with waitress, DEBUG off, and print the address phones
# must open. Settings come from the environment and .env (see bollen/settings.py).
#   BIND=127.0.0.1:8000 make run   this laptop only
#   DEBUG=1 make run  (or make dev) Django's development server on http://127.0.0.1:8000
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
scripts/system-packages.sh || echo "PDF printing will not work until those packages are installed." >&2
python=.venv/bin/python
# Fails with a plain message (which database, what it answered) instead of a traceback.
"$python" manage.py check_database --no-migrations -v 0
"$python" manage.py migrate --no-input -v 0
"$python" manage.py ensure_director
"$python" manage.py seed_demo
if [ "${DEBUG:-0}" = 1 ]; then
  bind="${BIND:-127.0.0.1:8000}"
  echo "Development server (DEBUG=1) on http://$bind (Ctrl+C stops it)"
  exec "$python" manage.py runserver "$bind"
fi
exec "$python" manage.py serve ${BIND:+--bind "$BIND"}
