#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests (issue 34): Debian's initdb/pg_ctl in a temporary
# folder, listening on 127.0.0.1 only at a free port, a role `hschool` with a password, database
# `hschool`. Run as root it runs the server as the `postgres` user (PostgreSQL refuses root).
#   scripts/pg-cluster.sh start DIR   prints the URL (also written to DIR/url); DIR must not exist yet
#   scripts/pg-cluster.sh stop DIR    stops the cluster and removes DIR
#   scripts/pg-cluster.sh halt DIR    stops it at once (as a crash would), keeping DIR
#   scripts/pg-cluster.sh restart DIR (stops if running and) starts the same cluster: same port and data
set -euo pipefail

action=${1:-}
dir=${2:-}
[ -n "$action" ] && [ -n "$dir" ] || { echo "usage: $0 start|stop|halt|restart DIR" >&2; exit 2; }

# Tests need no durability (fsync off: seconds faster); benchmarks ask for it with PG_CLUSTER_FSYNC=on.
fsync=${PG_CLUSTER_FSYNC:-off}
pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$pg_bin/initdb" ] || { echo "pg-cluster: PostgreSQL's initdb not found (apt-get install postgresql)" >&2; exit 1; }

as_owner() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

start_server() {
  as_owner "$pg_bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
    -o "-c listen_addresses=127.0.0.1 -c port=$(cat "$dir/port") -k $dir -c fsync=$fsync -c full_page_writes=$fsync" start >/dev/null
}

case "$action" in
  start)
    [ ! -e "$dir" ] || { echo "pg-cluster: $dir exists" >&2; exit 1; }
    mkdir -p "$dir"
    [ "$(id -u)" -ne 0 ] || chown postgres: "$dir"
    password=$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
    printf '%s\n' "$password" > "$dir/pwfile"
    [ "$(id -u)" -ne 0 ] || chown postgres: "$dir/pwfile"
    as_owner "$pg_bin/initdb" -D "$dir/data" -U hschool --pwfile="$dir/pwfile" --auth=scram-sha-256 \
      -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; exit 1; }
    free_port > "$dir/port"
    start_server
    PGPASSWORD=$password "$pg_bin/createdb" -h 127.0.0.1 -p "$(cat "$dir/port")" -U hschool hschool
    url="postgresql://hschool:$password@127.0.0.1:$(cat "$dir/port")/hschool"
    printf '%s\n' "$url" > "$dir/url"
    echo "$url"
    ;;
  stop)
    [ -d "$dir/data" ] && as_owner "$pg_bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    rm -rf "$dir"
    ;;
  halt)
    as_owner "$pg_bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null
    ;;
  restart)
    as_owner "$pg_bin/pg_ctl" -D "$dir/data" status >/dev/null 2>&1 && as_owner "$pg_bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
    start_server
    ;;
  *) echo "usage: $0 start|stop|halt|restart DIR" >&2; exit 2 ;;
esac
