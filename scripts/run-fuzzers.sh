#!/usr/bin/env bash
# Runs every libFuzzer target, seeded with the golden vectors, JOBS at a time, each until it has had
# SECONDS of CPU time: on a quiet machine that is SECONDS of wall time, as -max_total_time gave; beside
# the tests (`make test` runs the fuzzers at idle priority) a target waits for its CPU instead of
# losing it (issue 22). A target still short of its CPU after WALL_CAP_FACTOR x SECONDS of wall time
# stops there and says how much it had.
# FUZZ_DONE_FILE (optional): each target that had its whole CPU is named there, and a target already
# named is skipped, so a run stopped half way (make test moves a starved background run to the
# foreground) goes on where it was.
# Usage: scripts/run-fuzzers.sh BUILD_FUZZ_DIR SECONDS [JOBS]
set -euo pipefail
dir=$(cd "$1" && pwd)  # absolute: each fuzzer runs inside the work folder
seconds=$2
jobs=${3:-1}
root=$(cd "$(dirname "$0")/.." && pwd)
wall_cap=$(( seconds * ${WALL_CAP_FACTOR:-8} ))
ticks_per_second=$(getconf CLK_TCK)
poll_seconds=0.2
# SIGUSR1 asks libFuzzer to stop after the current input, print its final stats and exit 0. SIGINT
# would not do: its handler allocates, and deadlocked in ASan's allocator when it came mid-malloc.
stop_signal=USR1
stop_grace_seconds=30
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Seeds: every frame in tests/vectors/*.json, one file each.
mkdir -p "$work/seeds"
node -e '
  const fs = require("fs"), path = require("path");
  const [vectors, out] = process.argv.slice(1);
  let n = 0;
  for (const file of fs.readdirSync(vectors).filter(f => /^v\d+\.json$/.test(f))) {
    const doc = JSON.parse(fs.readFileSync(path.join(vectors, file)));
    for (const section of ["valid", "malformed", "unknown"])
      for (const v of doc[section] || [])
        fs.writeFileSync(path.join(out, `${file}-${n++}`), Buffer.from(v.hex.replace(/ /g, ""), "hex"));
  }' "$root/tests/vectors" "$work/seeds"

# CPU ticks (user + system) a running process has had; fields 14 and 15 of /proc/PID/stat, counted
# after the command name's closing parenthesis, which may itself hold spaces.
cpu_ticks() {
  local stat
  stat=$(cat "/proc/$1/stat" 2>/dev/null) || { echo -1; return; }
  stat=${stat##*) }
  set -- $stat
  echo $(( ${12} + ${13} ))
}

# One target: its log in the work folder, its findings copied out; prints one line (or the log's tail).
run_one() {
  local fuzzer=$1 name seeds pid ticks=0 status=0 started budget
  name=$(basename "$fuzzer")
  mkdir -p "$work/corpus-$name" "$work/run-$name"
  seeds="$work/seeds"
  [ -d "$root/fuzz/seeds/$name" ] && seeds="$root/fuzz/seeds/$name"  # parsers of JSON get JSON seeds
  budget=$(( seconds * ticks_per_second ))
  started=$(date +%s)
  # Each in its own folder: crash-* files of two fuzzers running at once must not mix.
  (cd "$work/run-$name" && exec "$fuzzer" -max_total_time="$wall_cap" -rss_limit_mb=2048 -print_final_stats=1 \
      "$work/corpus-$name" "$seeds" > "$work/$name.log" 2>&1) &
  pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    ticks=$(cpu_ticks "$pid")
    if [ "$ticks" -ge "$budget" ]; then kill -"$stop_signal" "$pid" 2>/dev/null; break; fi
    sleep "$poll_seconds"
  done
  local waited=0 hung=""
  while kill -0 "$pid" 2>/dev/null && [ "$waited" -lt "$stop_grace_seconds" ]; do sleep 1; waited=$((waited + 1)); done
  if kill -0 "$pid" 2>/dev/null; then hung=yes; kill -KILL "$pid" 2>/dev/null; fi
  wait "$pid" || status=$?
  if [ -n "$hung" ]; then echo "fuzz: $name FAILED: still running ${stop_grace_seconds} s after its stop signal (a hung input?)"; fi
  if [ $status -ne 0 ]; then
    echo "fuzz: $name FAILED"; tail -50 "$work/$name.log"
    mkdir -p "$root/build/fuzz-findings" && cp "$work/run-$name"/crash-* "$work/run-$name"/leak-* "$work/run-$name"/timeout-* "$root/build/fuzz-findings/" 2>/dev/null || true
    return 1
  fi
  local runs
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$name.log")
  printf 'fuzz: %s: %s runs in %d.%d s of CPU, %d s of wall time%s\n' "$name" "${runs:-?}" \
    $(( ticks / ticks_per_second )) $(( ticks % ticks_per_second * 10 / ticks_per_second )) $(( $(date +%s) - started )) \
    "$([ "$ticks" -ge "$budget" ] || echo " (wall-time cap reached first)")"
  if [ -n "${FUZZ_DONE_FILE:-}" ] && [ "$ticks" -ge "$budget" ]; then echo "$name" >> "$FUZZ_DONE_FILE"; fi
}

status=0
running=0
for fuzzer in "$dir"/fuzz_*; do
  [ -x "$fuzzer" ] || continue
  if [ -n "${FUZZ_DONE_FILE:-}" ] && grep -qxF "$(basename "$fuzzer")" "$FUZZ_DONE_FILE" 2>/dev/null; then continue; fi
  if [ "$running" -ge "$jobs" ]; then
    wait -n || status=1
    running=$((running - 1))
  fi
  run_one "$fuzzer" &
  running=$((running + 1))
done
while [ "$running" -gt 0 ]; do
  wait -n || status=1
  running=$((running - 1))
done
exit $status
