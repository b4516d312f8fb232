#!/usr/bin/env bash
# Set up and run the site with the demo tournament on http://127.0.0.1:8000
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
scripts/system-packages.sh || echo "PDF printing will not work until those packages are installed." >&2
export DEBUG="${DEBUG:-1}"
.venv/bin/python manage.py migrate --no-input -v 0
.venv/bin/python manage.py seed_demo
# BIND=0.0.0.0:8000 make run serves the club's network too (players' phones, table links).
bind="${BIND:-127.0.0.1:8000}"
echo "Starting the site on http://$bind (Ctrl+C stops it)"
exec .venv/bin/python manage.py runserver "$bind"
