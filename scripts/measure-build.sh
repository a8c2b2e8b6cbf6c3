#!/usr/bin/env bash
# Measures what a newcomer waits for (issue 22): a fresh clone of this repository built with a cold
# compiler cache, `make test` with its stage times, and with --with-run `make run` to a healthy server
# from a second fresh clone. "Cold": CCACHE_RECACHE, which never reads the cache (every file is
# compiled, as with CCACHE_DISABLE) but stores what it compiles, so the next CI run is warm.
# Usage: scripts/measure-build.sh [--with-run] [WORK_DIR]   (default: a new folder under /tmp)
# Packages already installed stay installed: the "install" stage then only checks. Prints a table.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
with_run=""
if [ "${1:-}" = --with-run ]; then with_run=yes; shift; fi
work=${1:-$(mktemp -d /tmp/hschool-measure.XXXXXX)}
mkdir -p "$work"
clone="$work/clone"
rm -rf "$clone"
git clone -q "$root" "$clone"
export CCACHE_RECACHE=1
log="$work/make-test.log"
echo "measure: fresh clone at $clone, cold compiler cache; make test → $log"
start=$(date +%s)
if ! (cd "$clone" && make test > "$log" 2>&1); then
  echo "measure: make test FAILED after $(( $(date +%s) - start )) s; see $log"
  tail -40 "$log"
  exit 1
fi
test_seconds=$(( $(date +%s) - start ))
echo "measure: make test passed in ${test_seconds} s"
sed -n '/^== stage times/,/^all /p' "$log"

if [ -z "$with_run" ]; then
  printf '\n| stage | seconds |\n| --- | --- |\n'
  sed -n '/^== stage times/,/^all /p' "$log" | grep -v '^==' | awk '{ printf "| %s | %s |\n", $1, $2 }'
  printf '| make test, whole | %s |\n' "$test_seconds"
  exit 0
fi

# make run from a second fresh clone: what `make run` costs a newcomer before the server answers.
rm -rf "$clone"
git clone -q "$root" "$clone"
port=18980
start=$(date +%s)
(cd "$clone" && make run PORT=$port > "$work/make-run.log" 2>&1) &
runner=$!
healthy=""
for _ in $(seq 1 3600); do
  if curl -fs "http://127.0.0.1:$port/health" > /dev/null 2>&1; then healthy=yes; break; fi
  kill -0 "$runner" 2>/dev/null || break
  sleep 1
done
run_seconds=$(( $(date +%s) - start ))
pkill -TERM -f "$clone/build/release/hschool-server" 2>/dev/null || true
wait "$runner" 2>/dev/null || true
if [ -z "$healthy" ]; then echo "measure: make run never became healthy; see $work/make-run.log"; exit 1; fi
echo "measure: make run healthy after ${run_seconds} s"
printf '\n| stage | seconds |\n| --- | --- |\n'
sed -n '/^== stage times/,/^all /p' "$log" | grep -v '^==' | awk '{ printf "| %s | %s |\n", $1, $2 }'
printf '| make test, whole | %s |\n| make run to /health | %s |\n' "$test_seconds" "$run_seconds"
