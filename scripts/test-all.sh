#!/usr/bin/env bash
# `make test`: every stage of `make test-in-order`, but the CPU-bound ones that nothing is waiting
# for yet run beside the tests, which mostly wait (timeouts, stalled peers; ~20 % of two cores).
#   foreground (normal priority)           background (SCHED_IDLE: only the CPU the tests leave)
#   install, build-release
#   test-release, vitest, e2e              build-fuzz, build-asan
#   test-asan                              fuzz
# An idle-class process yields at once to any test's thread that wakes, so the tests run as they
# would alone. Background output goes to build/logs/ and is printed when the stage ends. Every stage
# runs even when another failed; the exit status says whether all passed (issue 22).
# Usage: scripts/test-all.sh   (JOBS, TEST_JOBS, FUZZ_SECONDS pass through to make)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
logs=build/logs
mkdir -p "$logs"
rm -f build/stage-times.txt
started=$(date +%s)
failed=()

make_quiet() { make --no-print-directory "$@"; }

# Lowest priority there is: SCHED_IDLE where chrt exists (util-linux), else nice 19.
idle=(nice -n 19)
command -v chrt >/dev/null 2>&1 && idle=(chrt --idle 0 nice -n 19)

# A background chain of make targets; its output is kept in a file until the chain ends.
background_pid=""
background_log=""
start_background() {
  background_log="$logs/$1.log"
  shift
  "${idle[@]}" make --no-print-directory "$@" > "$background_log" 2>&1 &
  background_pid=$!
}
finish_background() {
  local status=0
  wait "$background_pid" || status=$?
  echo "---- $(basename "$background_log" .log) (ran in the background) ----"
  if [ $status -eq 0 ]; then grep -E '^(== stage|fuzz: )' "$background_log"
  else tail -n 80 "$background_log"; fi
  background_pid=""
  return $status
}
kill_tree() { local child; for child in $(pgrep -P "$1"); do kill_tree "$child"; done; kill -TERM "$1" 2>/dev/null; }
stop_background() { [ -z "$background_pid" ] || kill_tree "$background_pid"; true; }
trap stop_background EXIT INT TERM

make_quiet test-deps || { echo "make test: installing failed"; exit 1; }
make_quiet build || { echo "make test: the release build failed"; exit 1; }

start_background background-builds build-fuzz build-asan
make_quiet test-release-only || failed+=(test-release)
make_quiet test-client || failed+=(vitest)
make_quiet test-e2e-only || failed+=(e2e)
if finish_background; then
  start_background fuzz run-fuzzers
  make_quiet test-asan-only || failed+=(test-asan)
  finish_background || failed+=(fuzz)
else
  failed+=(build-asan-or-fuzz)
fi

scripts/stage-summary.sh
echo "wall clock     $(( $(date +%s) - started )) s (stages overlap, so this is less than their sum)"
if [ ${#failed[@]} -gt 0 ]; then
  echo "make test: FAILED: ${failed[*]}"
  exit 1
fi
echo "make test: all suites passed"
