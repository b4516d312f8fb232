#!/usr/bin/env bash
# Follow the README's "Running a large event" step by step on a fresh clone, against a
# throwaway PostgreSQL cluster, and stop at the first step that does not work as written.
#
#   scripts/large-event-check.sh [--keep]
#
# It clones this repository's committed HEAD into a temporary folder, creates the database user
# `bollen` (with a password, checked by the server) and its database with psql as the README
# says, writes `.env` from deploy/bollen.env.example, then: the database check (refusing a wrong
# password), migrate, collectstatic, the first director, gunicorn with the settings of `.env`
# only, a signed-in director (the printed password), a tournament imported, a table link that
# opens and saves, the database-down page (503), and a backup downloaded and restored in the
# tournament's place keeping its history and its table link. Everything runs on 127.0.0.1 and
# is removed at the end (--keep leaves the folder for a look). Takes a few minutes, most of it
# installing the packages into the clone's virtualenv.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
keep=0
[ "${1:-}" = "--keep" ] && keep=1

work=$(mktemp -d "${TMPDIR:-/tmp}/bollen-large-event.XXXXXX")
# Its own folder directly in /tmp: as root the server runs as "postgres", which must reach it.
pg=$(mktemp -d "${TMPDIR:-/tmp}/bollen-large-event-pg.XXXXXX")
clone="$work/bollen"
gunicorn_pid=""
step_no=0
started=$(date +%s)

cleanup() {
  if [ -n "$gunicorn_pid" ]; then kill "$gunicorn_pid" 2>/dev/null || true; wait "$gunicorn_pid" 2>/dev/null || true; fi
  "$here/scripts/postgres.sh" stop "$pg" >/dev/null 2>&1 || true
  if [ "$keep" = 1 ]; then echo "kept: $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

step() { step_no=$((step_no + 1)); printf '\n== %d. %s\n' "$step_no" "$*"; }
fail() { echo "FAILED at step $step_no: $*" >&2; exit 1; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
client() { python3 "$here/scripts/large_event_client.py" "$@"; }

find_pg_bin() {
  local name=$1 dir
  if command -v "$name" >/dev/null 2>&1; then command -v "$name"; return 0; fi
  for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    if [ -x "$dir/$name" ]; then echo "$dir/$name"; return 0; fi
  done
  return 1
}
as_pg_owner() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
psql_bin=$(find_pg_bin psql) || fail "psql not found (install PostgreSQL's client and server)"
pg_ctl=$(find_pg_bin pg_ctl) || fail "pg_ctl not found"

# The manage.py of the clone, run as the README says: in the checkout, nothing exported, so
# the settings come from .env alone.
manage() { (cd "$clone" && env -u DATABASE_URL -u SECRET_KEY -u DEBUG -u ALLOWED_HOSTS -u SITE_URL \
  -u HTTPS -u BACKUP_DIR -u DJANGO_SETTINGS_MODULE .venv/bin/python manage.py "$@"); }

step "a fresh clone of $(git -C "$here" rev-parse --short HEAD)"
git clone --quiet --no-hardlinks "$here" "$clone"
echo "$clone"

step "software: scripts/bootstrap.sh"
(cd "$clone" && scripts/bootstrap.sh >"$work/bootstrap.log" 2>&1) || { tail -20 "$work/bootstrap.log"; fail "bootstrap"; }
[ -x "$clone/.venv/bin/gunicorn" ] || fail "gunicorn is not in the virtualenv"
echo "virtualenv ready, gunicorn installed"

step "PostgreSQL (a throwaway cluster standing in for the machine's own)"
admin_url=$("$here/scripts/postgres.sh" start "$pg")
pg_port=$(echo "$admin_url" | sed -E 's#.*:([0-9]+)/.*#\1#')
admin="postgres://postgres@127.0.0.1:$pg_port/postgres"
in_bollen() { "$psql_bin" "postgres://postgres@127.0.0.1:$pg_port/bollen" -qAt -c "$1"; }
# Like a Debian server: the user bollen signs in with its password over TCP.
hba="$pg/data/pg_hba.conf"
{ echo "host all bollen 127.0.0.1/32 scram-sha-256"; cat "$hba"; } >"$work/pg_hba.conf"
cp "$work/pg_hba.conf" "$hba"
"$psql_bin" "$admin" -qAt -c "SELECT pg_reload_conf()" >/dev/null
echo "PostgreSQL on 127.0.0.1:$pg_port"

step "the database user and database (README: createuser / createdb, here with psql)"
db_password=$(python3 -c 'import secrets; print(secrets.token_urlsafe(18))')
"$psql_bin" "$admin" -q -v ON_ERROR_STOP=1 -c "CREATE ROLE bollen LOGIN PASSWORD '$db_password'"
"$psql_bin" "$admin" -q -v ON_ERROR_STOP=1 -c "CREATE DATABASE bollen OWNER bollen"
"$psql_bin" "postgres://bollen:$db_password@127.0.0.1:$pg_port/bollen" -qAt -c "SELECT current_user" | grep -qx bollen \
  || fail "the user bollen cannot sign in with its password"
"$psql_bin" "postgres://bollen:wrong@127.0.0.1:$pg_port/bollen" -qAt -c "SELECT 1" >/dev/null 2>&1 \
  && fail "the server accepts a wrong password: the check below would prove nothing"
echo "role bollen (password checked by the server) owns the database bollen"

step "the settings file: cp deploy/bollen.env.example .env"
web_port=$(free_port)
base="http://127.0.0.1:$web_port"
cp "$clone/deploy/bollen.env.example" "$clone/.env"
chmod 600 "$clone/.env"
python3 - "$clone/.env" <<EOF
import sys
path = sys.argv[1]
values = {
    "DATABASE_URL": "postgres://bollen:WRONG@127.0.0.1:$pg_port/bollen",
    "SITE_URL": "$base",
    "ALLOWED_HOSTS": "127.0.0.1,localhost",
    "HTTPS": "0",
    "BACKUP_DIR": "$work/backups",
}
lines = open(path, encoding="utf-8").read().splitlines()
out = []
for line in lines:
    key = line.split("=", 1)[0]
    out.append(f"{key}={values.pop(key)}" if key in values and not line.startswith("#") else line)
out += [f"{k}={v}" for k, v in values.items()]
open(path, "w", encoding="utf-8").write("\n".join(out) + "\n")
EOF
grep -E '^(DATABASE_URL|SITE_URL|ALLOWED_HOSTS|HTTPS|BACKUP_DIR)=' "$clone/.env" | sed 's#://bollen:[^@]*@#://bollen:***@#'

step "the database check refuses a wrong password (check --database default)"
if manage check --database default >"$work/check-wrong.log" 2>&1; then
  cat "$work/check-wrong.log"; fail "check --database default passed with a wrong database password"
fi
grep -v '^  File\|^Traceback' "$work/check-wrong.log" | tail -3
sed -i "s#^DATABASE_URL=.*#DATABASE_URL=postgres://bollen:$db_password@127.0.0.1:$pg_port/bollen#" "$clone/.env"
manage check --database default || fail "check --database default with the right password"

step "migrate and collectstatic"
manage migrate --no-input -v 0 || fail "migrate"
manage collectstatic --no-input -v 0 || fail "collectstatic"
in_bollen "SELECT count(*) FROM pg_tables WHERE tableowner = 'bollen'" | grep -qv '^0$' \
  || fail "migrate did not create the tables in PostgreSQL (did it use SQLite?)"
echo "tables created in PostgreSQL, static files collected"

step "check --deploy on the club's network (HTTPS=0): only the four HTTPS warnings"
manage check --deploy >"$work/deploy.log" 2>&1 || { cat "$work/deploy.log"; fail "check --deploy reports an error"; }
found=$(grep -oE 'security\.W[0-9]+' "$work/deploy.log" | sort -u | tr '\n' ' ')
echo "warnings: ${found:-none}"
[ "$found" = "security.W004 security.W008 security.W012 security.W016 " ] \
  || { cat "$work/deploy.log"; fail "check --deploy does not say what the README says"; }

step "the first director: ensure_director"
manage ensure_director >"$work/director.log" 2>&1 || { cat "$work/director.log"; fail "ensure_director"; }
sed -E 's/^( *(password|wachtwoord): *)\S+ *$/\1***/I' "$work/director.log"
password=$(python3 - "$work/director.log" <<'EOF'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
# The line "  wachtwoord:     k7mq-x3tp-9hwa-r2fd" (English: "password:").
found = re.findall(r"(?im)^\s*(?:password|wachtwoord):\s*(\S{8,})\s*$", text)
print(found[-1] if found else "")
EOF
)
[ -n "$password" ] || fail "ensure_director printed no password"
in_bollen "SELECT username FROM auth_user WHERE is_superuser AND is_active" | grep -qx directeur \
  || fail "the director is not in PostgreSQL"
echo "director directeur is in PostgreSQL"

step "gunicorn with the settings of .env only (as deploy/bollen.service starts it)"
(cd "$clone" && exec env -i PATH="$PATH" HOME="${HOME:-/tmp}" LANG=C.UTF-8 \
  .venv/bin/gunicorn bollen.wsgi -w 2 -b "127.0.0.1:$web_port" --timeout 60 \
  >"$work/gunicorn.log" 2>&1) &
gunicorn_pid=$!
client wait "$base/login/" || { cat "$work/gunicorn.log"; fail "gunicorn does not answer"; }
client get "$base/login/" --status 200 || fail "the sign-in page"

step "a signed-in director, with the printed password"
jar="$work/cookies.txt"
client login "$base" "$jar" directeur "$password" || fail "sign-in"

step "a tournament imported (import_tournament)"
slug=groot-toernooi
manage import_tournament "$clone/seeds/demo-tournament.json" --slug "$slug" | tail -1
client get "$base/t/$slug/" --jar "$jar" --status 200 || fail "the tournament page"

step "a working table link: made on the site, opened and used like a phone"
token=$(client new-link "$base" "$jar" "$slug" 4 5) || fail "making the table link"
client get "$base/s/$token/" --status 200 || fail "the table link page"
# "--": a token is URL-safe base64 and starts with "-" one time in 64; without it argparse
# takes such a token for an option.
client save-deal -- "$base" "$token" || fail "saving through the table link"

step "the database-down page: PostgreSQL stopped, a page answers 503 in Dutch"
as_pg_owner "$pg_ctl" -D "$pg/data" -m fast -w stop >/dev/null
client get "$base/t/$slug/" --jar "$jar" --status 503 --text "niet bereikbaar" \
  || { tail -20 "$work/gunicorn.log"; fail "the database-down page"; }
as_pg_owner "$pg_ctl" -D "$pg/data" -l "$pg/server.log" -w -t 60 \
  -o "-p $pg_port -k $pg -c listen_addresses=127.0.0.1 -c fsync=off" start >/dev/null
client get "$base/t/$slug/" --jar "$jar" --status 200 || fail "the site after PostgreSQL is back"

step "a backup (Download backup) restored in the tournament's place: history and link kept"
client download "$base" "$jar" "$slug" "$work/backup.json" || fail "downloading the backup"
versions_sql="SELECT count(*) FROM tournament_sheetversion v JOIN tournament_table t ON t.id = v.table_id
  JOIN tournament_round r ON r.id = t.round_id JOIN tournament_tournament x ON x.id = r.tournament_id
  WHERE x.slug = '$slug'"
versions_before=$(in_bollen "$versions_sql")
[ "$versions_before" -ge 1 ] || fail "the tournament has no sheet history to keep"
manage import_tournament "$work/backup.json" --slug "$slug" --replace || fail "the restore"
versions_after=$(in_bollen "$versions_sql")
[ "$versions_after" = "$versions_before" ] || fail "the history had $versions_before versions, the restore $versions_after"
echo "sheet history kept: $versions_after version(s)"
client get "$base/s/$token/" --status 200 || fail "the old table link on the restored tournament"
client get "$base/t/$slug/" --jar "$jar" --status 200 || fail "the restored tournament's page"

printf '\nAll %d steps passed in %d s.\n' "$step_no" "$(( $(date +%s) - started ))"
