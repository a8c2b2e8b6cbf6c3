#!/usr/bin/env bash
# Runs a command with a throwaway PostgreSQL cluster (issue 34): HSCHOOL_TEST_DATABASE_URL names it
# and HSCHOOL_REQUIRE_POSTGRES=1 makes the PostgreSQL test cases fail rather than skip without it.
# When HSCHOOL_TEST_DATABASE_URL is already set the command runs against that database instead.
# Usage: scripts/with-postgres.sh COMMAND [ARGS...]   (the cluster is stopped however the command ends)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
export HSCHOOL_REQUIRE_POSTGRES=1
if [ -n "${HSCHOOL_TEST_DATABASE_URL:-}" ]; then exec "$@"; fi
dir=$(mktemp -u /tmp/hschool-pg.XXXXXX)
trap '"$root/scripts/pg-cluster.sh" stop "$dir"' EXIT
HSCHOOL_TEST_DATABASE_URL=$("$root/scripts/pg-cluster.sh" start "$dir") || { echo "with-postgres: the test cluster did not start" >&2; exit 1; }
export HSCHOOL_TEST_DATABASE_URL
"$@"
