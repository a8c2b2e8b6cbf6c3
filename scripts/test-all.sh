#!/usr/bin/env bash
# `make test`: every stage of `make test-in-order`, but the CPU-bound ones that nothing is waiting
# for yet run beside the tests, which mostly wait (timeouts, stalled peers; ~20 % of two cores).
#   foreground (normal priority)           background (SCHED_IDLE: only the CPU the tests leave)
#   install, check-layers, build-release
#   test-release, vitest, e2e              build-asan (the sanitizer tree, fuzzers included), then fuzz
#   test-asan (once build-asan is done)    (fuzz, until it is done)
# An idle-class process yields at once to any test's thread that wakes, so the tests run as they
# would alone. On a machine kept busy by other programs it gets no CPU at all: when the foreground
# reaches the sanitizer tests and the tree is not built yet, the background build is stopped and
# finished in the foreground at normal priority (ninja keeps what it compiled), and the fuzzers
# start behind it (issue 38: under load `make test` otherwise waited for a build that never ran).
# Likewise fuzzers still short of their CPU when the sanitizer tests end go on in the foreground.
# Background stages print their start and end as they happen; the rest of their output goes to
# build/logs/ and is printed (all of it on failure) when they end. Every stage runs even when
# another failed; the exit status says whether all passed (issue 22).
# Usage: scripts/test-all.sh   (JOBS, TEST_JOBS, FUZZ_SECONDS pass through to make)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
logs=build/logs
mkdir -p "$logs"
run_make() { make --no-print-directory "$@"; }
# Runs one foreground stage, its output also kept in $logs/NAME.log for the list of failures at the end.
run_stage() { local name=$1; shift; run_make "$@" 2>&1 | tee "$logs/$name.log"; return "${PIPESTATUS[0]}"; }
# The names of what failed in the stage NAME's log (ctest's list, node:test's and Vitest's lines):
# printed last, so they are in the few lines a CI log keeps of a long run.
failures_of() {
  local log="$logs/$1.log"
  [ -f "$log" ] || return 0
  { sed -n '/The following tests FAILED/,$p' "$log" | grep -E '^[[:space:]]+[0-9]+ - '
    grep -E '^not ok |^ *(FAIL|×) ' "$log"; } | head -n 12 | sed "s/^[[:space:]]*/  $1: /"
}
run_make stage-reset
started=$(date +%s)
failed=()

# Lowest priority there is: SCHED_IDLE where chrt exists (util-linux), else nice 19.
idle=(nice -n 19)
command -v chrt >/dev/null 2>&1 && idle=(chrt --idle 0 nice -n 19)

# The background chain: the sanitizer tree (its fuzz targets too), then (touching $asan_built, which
# ensure_asan_tree looks for) the fuzzers. Its stage lines show as they happen, so a slow stage is
# visible in CI logs; the rest of its output is kept in a file until it ends.
background_log="$logs/background.log"
asan_built="$logs/asan-tree-built"
rm -f "$asan_built"
export FUZZ_DONE_FILE="$root/$logs/fuzzers-done"  # scripts/run-fuzzers.sh: the targets that had their CPU
rm -f "$FUZZ_DONE_FILE"
background_pid=""
# Runs the shell command $1 at idle priority in the background, its stage lines shown as they happen.
start_background() {
  ( "${idle[@]}" bash -c "$1" 2>&1 \
      | tee -a "$background_log" | grep --line-buffered '^== stage' | sed -u 's/^/[background] /'; exit "${PIPESTATUS[0]}" ) &
  background_pid=$!
}
# Returns once the sanitizer tree is built: by the background chain if it already did, else in the
# foreground (the chain stopped first); fails when the build does.
ensure_asan_tree() {
  [ -e "$asan_built" ] && return 0
  if kill -0 "$background_pid" 2>/dev/null; then
    echo "make test: the sanitizer tree is not built yet; finishing it in the foreground"
  fi
  stop_background_and_wait
  [ -e "$asan_built" ] && return 0  # built while it was being stopped
  run_make build-asan || return 1
  touch "$asan_built"
  start_background "make --no-print-directory run-fuzzers"
}
finish_background() {
  local status=0
  wait "$background_pid" || status=$?
  if [ $status -eq 0 ]; then
    echo "---- fuzzers (ran in the background)"
    grep -E '^fuzz: ' "$background_log"
  else
    echo "---- a background stage FAILED; the end of $background_log:"
    tail -n 80 "$background_log"
  fi
  background_pid=""
  return $status
}
kill_tree() { local child; for child in $(pgrep -P "$1"); do kill_tree "$child"; done; kill -TERM "$1" 2>/dev/null; }
stop_background() { [ -z "$background_pid" ] || kill_tree "$background_pid"; true; }
# Stops the background chain, waits until it has gone, and forgets it.
stop_background_and_wait() {
  stop_background
  [ -z "$background_pid" ] || wait "$background_pid" 2>/dev/null
  background_pid=""
}
trap stop_background EXIT INT TERM

run_make test-deps || { echo "make test: installing failed"; exit 1; }
run_make check-layers || failed+=(check-layers)
run_make build || { echo "make test: the release build failed"; exit 1; }

: > "$background_log"
start_background "make --no-print-directory build-asan && touch '$asan_built' && make --no-print-directory run-fuzzers"
run_stage test-release test-release-only || failed+=(test-release)
run_stage vitest test-client || failed+=(vitest)
run_stage e2e test-e2e-only || failed+=(e2e)
if ensure_asan_tree; then
  run_stage test-asan test-asan-only || failed+=(test-asan)
else
  failed+=(build-asan)
fi
if [ -n "$background_pid" ] && kill -0 "$background_pid" 2>/dev/null; then
  echo "make test: the fuzzers have not had their CPU yet; the rest run in the foreground"
  stop_background_and_wait
  grep -E '^fuzz: .* of wall time' "$background_log"
  run_make run-fuzzers || failed+=(fuzz)
fi
[ -z "$background_pid" ] || finish_background || failed+=("a background stage (build-asan or fuzz)")

scripts/stage-summary.sh
echo "wall clock     $(( $(date +%s) - started )) s (stages overlap, so this is less than their sum)"
if [ ${#failed[@]} -gt 0 ]; then
  for stage in "${failed[@]}"; do failures_of "$stage"; done
  echo "make test: FAILED: ${failed[*]}"
  exit 1
fi
echo "make test: all suites passed"
