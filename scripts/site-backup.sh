#!/usr/bin/env bash
# Back up a whole hosted Bollen site into one dated folder:
#   scripts/site-backup.sh DEST
# writes DEST/bollen-site-YYYY-MM-DD-HHMMSS/ with
#   bollen.dump    the PostgreSQL database (pg_dump -Fc: every club, account and session)
#   data/          from the data folder: the settings file, the secret key file (without it
#                  every sign-in and table link cookie stops working) and the backups folder
#   SHA256SUMS
# Reads the same settings as the site: BOLLEN_DATA_DIR (default ~/.local/share/bollen),
# ENV_FILE (default DATA_DIR/bollen.env) and DATABASE_URL (the environment, else the settings
# file). Run it as the account the site runs as (it can read the data folder and reach the
# database as the site does). Restoring: see the README's "Backups" section.
set -euo pipefail

dest=${1:?usage: $0 DEST-FOLDER}
data_dir=${BOLLEN_DATA_DIR:-${XDG_DATA_HOME:-$HOME/.local/share}/bollen}
env_file=${ENV_FILE-$data_dir/bollen.env}

setting() {  # the value of KEY from the environment, else from the settings file
  local key=$1 value
  value=${!key:-}
  if [ -z "$value" ] && [ -n "$env_file" ] && [ -f "$env_file" ]; then
    value=$(sed -n "s/^[[:space:]]*\(export[[:space:]]\+\)\?$key[[:space:]]*=[[:space:]]*//p" "$env_file" | tail -n 1)
    value=${value%\"}; value=${value#\"}; value=${value%\'}; value=${value#\'}
  fi
  printf '%s' "$value"
}

database_url=$(setting DATABASE_URL)
case "$database_url" in
  postgres://*|postgresql://*) ;;
  "") echo "DATABASE_URL is not set (in the environment or $env_file): nothing to dump." >&2; exit 2 ;;
  *) echo "DATABASE_URL is not PostgreSQL ($database_url): this script backs up a PostgreSQL site." >&2; exit 2 ;;
esac

target="$dest/bollen-site-$(date +%Y-%m-%d-%H%M%S)"
mkdir -p "$target/data"
chmod 700 "$target"  # the dump holds every account's password hash, the data the secret key

# -Fc: PostgreSQL's own compressed format, restored with pg_restore into an empty database.
pg_dump --format=custom --file="$target/bollen.dump" --dbname="$database_url"

secret_file=$(setting SECRET_KEY_FILE)
secret_file=${secret_file:-$data_dir/.secret_key}
backup_dir=$(setting BACKUP_DIR)
backup_dir=${backup_dir:-$data_dir/backups}
[ -n "$env_file" ] && [ -f "$env_file" ] && cp -p "$env_file" "$target/data/"
if [ -f "$secret_file" ]; then
  cp -p "$secret_file" "$target/data/.secret_key"
elif [ -z "$(setting SECRET_KEY)" ]; then
  echo "warning: no secret key file at $secret_file and no SECRET_KEY: keep the key some other way." >&2
fi
[ -d "$backup_dir" ] && cp -pR "$backup_dir" "$target/data/backups"

(cd "$target" && find . -type f ! -name SHA256SUMS -print0 | sort -z | xargs -0 sha256sum >SHA256SUMS)
echo "$target"
