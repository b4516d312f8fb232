#!/usr/bin/env bash
# Start or stop a throwaway PostgreSQL cluster for the test suite.
#   scripts/postgres.sh start DIR   -> prints the DATABASE_URL on stdout
#   scripts/postgres.sh stop DIR
# The server binaries refuse to run as root, so as root they run as the "postgres" user.
set -euo pipefail

find_bin() {
  local name=$1
  if command -v "$name" >/dev/null 2>&1; then command -v "$name"; return 0; fi
  local dir
  for dir in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    if [ -x "$dir/$name" ]; then echo "$dir/$name"; return 0; fi
  done
  return 1
}

as_owner() {
  if [ "$(id -u)" = 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

action=$1
dir=$2

case "$action" in
  available)
    find_bin initdb >/dev/null && find_bin pg_ctl >/dev/null
    ;;
  start)
    initdb=$(find_bin initdb) || { echo "initdb not found" >&2; exit 3; }
    pg_ctl=$(find_bin pg_ctl)
    if [ "$(id -u)" = 0 ] && ! id postgres >/dev/null 2>&1; then
      echo "Running as root but there is no 'postgres' user to run the server as." >&2
      exit 3
    fi
    mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown postgres "$dir"
    as_owner "$initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --locale=C --no-sync >"$dir/initdb.log" 2>&1 || {
      cat "$dir/initdb.log" >&2; exit 1; }
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    as_owner "$pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
      start >/dev/null || { cat "$dir/server.log" >&2; exit 1; }
    echo "postgres://postgres@127.0.0.1:$port/bollen"
    ;;
  stop)
    pg_ctl=$(find_bin pg_ctl) || exit 0
    if [ -d "$dir/data" ]; then
      as_owner "$pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
    ;;
  *)
    echo "usage: $0 start|stop|available DIR" >&2
    exit 2
    ;;
esac
