#!/usr/bin/env bash
# Browser end-to-end tests: builds the client, starts the real server on a free loopback port
# with a fresh database, runs the Chromium tests against it, stops the server. A test may start its
# own server too (owners.test.mjs runs one in owners mode) from $HSCHOOL_SERVER_BIN.
# Usage: scripts/run-e2e.sh PATH_TO_HSCHOOL_SERVER
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
server=$1
# Tests that need a server of their own (owners mode) start this binary themselves.
export HSCHOOL_SERVER_BIN="$(cd "$(dirname "$server")" && pwd)/$(basename "$server")"
work=$(mktemp -d)
pid=""
cleanup() {
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then kill -TERM "$pid"; wait "$pid" || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

(cd "$root/client" && npm run build --silent)
"$server" --address 127.0.0.1 --port 0 --data "$work/e2e.db" --mods "$root/mods" \
  --web-root "$root/client/dist" --hns-league-priority low > "$work/server.log" 2>&1 &
pid=$!
port=""
for _ in $(seq 1 200); do
  port=$(sed -n 's/.*event=listening address=[^ ]* port=\([0-9]*\).*/\1/p' "$work/server.log" | head -1)
  [ -n "$port" ] && break
  kill -0 "$pid" 2>/dev/null || { cat "$work/server.log"; exit 1; }
  sleep 0.1
done
[ -n "$port" ] || { echo "e2e: server did not start"; cat "$work/server.log"; exit 1; }
echo "e2e: server on 127.0.0.1:$port"
status=0
(cd "$root/client" && HSCHOOL_URL="http://127.0.0.1:$port" npm run e2e --silent) || status=$?
[ $status -eq 0 ] || { echo "e2e: server log tail:"; tail -40 "$work/server.log"; }
exit $status
