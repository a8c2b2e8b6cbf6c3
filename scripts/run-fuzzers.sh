#!/usr/bin/env bash
# Runs every libFuzzer target for a bounded time, seeded with the golden vectors, JOBS at a time
# (each target still gets its SECONDS; two cores run two fuzzers in the wall time of one).
# Usage: scripts/run-fuzzers.sh BUILD_FUZZ_DIR SECONDS [JOBS]
set -euo pipefail
dir=$(cd "$1" && pwd)  # absolute: each fuzzer runs inside the work folder
seconds=$2
jobs=${3:-1}
root=$(cd "$(dirname "$0")/.." && pwd)
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

# One target: its log in the work folder, its findings copied out; prints one line (or the log's tail).
run_one() {
  local fuzzer=$1 name seeds
  name=$(basename "$fuzzer")
  mkdir -p "$work/corpus-$name" "$work/run-$name"
  seeds="$work/seeds"
  [ -d "$root/fuzz/seeds/$name" ] && seeds="$root/fuzz/seeds/$name"  # parsers of JSON get JSON seeds
  # Each in its own folder: crash-* files of two fuzzers running at once must not mix.
  if ! (cd "$work/run-$name" && "$fuzzer" -max_total_time="$seconds" -rss_limit_mb=2048 -print_final_stats=0 \
        "$work/corpus-$name" "$seeds" > "$work/$name.log" 2>&1); then
    echo "fuzz: $name FAILED"; tail -50 "$work/$name.log"
    mkdir -p "$root/build/fuzz-findings" && cp "$work/run-$name"/crash-* "$work/run-$name"/leak-* "$work/run-$name"/timeout-* "$root/build/fuzz-findings/" 2>/dev/null || true
    return 1
  fi
  echo "fuzz: $name for ${seconds}s: $(grep -E "^#[0-9]+ *DONE" "$work/$name.log" || tail -1 "$work/$name.log")"
}

status=0
running=0
for fuzzer in "$dir"/fuzz_*; do
  [ -x "$fuzzer" ] || continue
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
