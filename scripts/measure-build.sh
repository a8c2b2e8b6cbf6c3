#!/usr/bin/env bash
# Measures what a newcomer waits for (issue 22): a fresh clone of this repository built with a cold
# compiler cache, `make test` with its stage times, and with --with-run `make run` to a healthy server
# from a second fresh clone. "Cold": CCACHE_RECACHE, which never reads the cache (every file is
# compiled, as with CCACHE_DISABLE) but stores what it compiles, so the next CI run is warm.
# --run-only skips `make test` and measures `make run` alone, then a contributor's day: one file
# of src/net/ changed (a line appended, so the cache cannot serve it), the release tree rebuilt
# and that file's test binary run, with the cache warm (ONE_FILE, ONE_FILE_TESTS choose them).
# Usage: scripts/measure-build.sh [--with-run | --run-only] [WORK_DIR]   (default: a new folder under /tmp)
# Packages already installed stay installed: the "install" stage then only checks. Prints a table.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
with_run=""
run_only=""
ONE_FILE=${ONE_FILE:-src/net/ws_session.cpp}                   # the file a contributor changes (Beast's heaviest)
ONE_FILE_TESTS=${ONE_FILE_TESTS:-tests/net/net_tests}         # its tests, under build/release
if [ "${1:-}" = --with-run ]; then with_run=yes; shift; fi
if [ "${1:-}" = --run-only ]; then with_run=yes; run_only=yes; shift; fi
work=${1:-$(mktemp -d /tmp/hschool-measure.XXXXXX)}
mkdir -p "$work"
clone="$work/clone"
rm -rf "$clone"
git clone -q "$root" "$clone"
export CCACHE_RECACHE=1
log="$work/make-test.log"
test_seconds=skipped
if [ -n "$run_only" ]; then :; else
echo "measure: fresh clone at $clone, cold compiler cache; make test → $log"
start=$(date +%s)
if ! (cd "$clone" && make test > "$log" 2>&1); then
  echo "measure: make test FAILED after $(( $(date +%s) - start )) s; see $log"
  tail -40 "$log"
  exit 1
fi
test_seconds=$(( $(date +%s) - start ))
echo "measure: make test passed in ${test_seconds} s"
sed -n '/^== stage times/,/^wall clock/p' "$log"
fi

if [ -z "$with_run" ]; then
  printf '\n| stage | seconds | CPU seconds |\n| --- | --- | --- |\n'
  sed -n '/^== stage times/,/^all /p' "$log" | grep -v '^==' | awk '{ printf "| %s | %s | %s |\n", $1, $2, $4 }'
  printf '| make test, whole (wall clock) | %s |\n' "$test_seconds"
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
pkill -TERM -f "hschool-server --address 127.0.0.1 --port $port" 2>/dev/null || true  # make run starts it by a relative path
wait "$runner" 2>/dev/null || true
if [ -z "$healthy" ]; then echo "measure: make run never became healthy; see $work/make-run.log"; exit 1; fi
echo "measure: make run healthy after ${run_seconds} s"
printf '\n| stage | seconds | CPU seconds |\n| --- | --- | --- |\n'
[ -f "$log" ] && sed -n '/^== stage times/,/^all /p' "$log" | grep -v '^==' | awk '{ printf "| %s | %s | %s |\n", $1, $2, $4 }'
printf '| make test, whole | %s |\n| make run to /health | %s |\n' "$test_seconds" "$run_seconds"
[ -z "$run_only" ] && exit 0

# A contributor's change: the cache is warm now (this clone's files are in it), one file differs.
unset CCACHE_RECACHE
(cd "$clone" && cmake --build build/release -j"$(nproc)" > "$work/whole-tree.log" 2>&1)  # the whole tree first, untimed
# Code, not a comment: the preprocessed file must differ, or ccache serves the old object.
echo "namespace { [[maybe_unused]] const int kMeasureBuildMarker = $(date +%s); }" >> "$clone/$ONE_FILE"
start=$(date +%s)
(cd "$clone" && cmake --build build/release -j"$(nproc)" > "$work/one-file.log" 2>&1)
rebuild_seconds=$(( $(date +%s) - start ))
start=$(date +%s)
(cd "$clone" && "build/release/$ONE_FILE_TESTS" > "$work/one-file-tests.log" 2>&1)
tests_seconds=$(( $(date +%s) - start ))
printf '| %s changed: release tree rebuilt | %s |\n| then %s run | %s |\n' "$ONE_FILE" "$rebuild_seconds" "$ONE_FILE_TESTS" "$tests_seconds"
