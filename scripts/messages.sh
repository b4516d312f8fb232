#!/usr/bin/env bash
# Developer tool: extract translatable strings, fill the Dutch ones from tournament/locale/nl-glossary.json,
# and list what still needs a translation.
set -euo pipefail
cd "$(dirname "$0")/.."
DEBUG=1 .venv/bin/python manage.py makemessages -l nl -l en --no-obsolete \
  --ignore=.venv --ignore=tests --ignore=bench --ignore=seeds --ignore=scripts --ignore=build >/dev/null
.venv/bin/python scripts/translate.py tournament/locale/nl-glossary.json || echo "(some texts still need Dutch: see above)"
DEBUG=1 .venv/bin/python manage.py compile_translations
