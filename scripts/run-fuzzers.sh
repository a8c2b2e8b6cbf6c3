#!/usr/bin/env bash
# Runs every libFuzzer target for a bounded time, seeded with the golden vectors.
# Usage: scripts/run-fuzzers.sh BUILD_FUZZ_DIR SECONDS
set -euo pipefail
dir=$(cd "$1" && pwd)  # absolute: each fuzzer runs inside the work folder
seconds=$2
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

status=0
for fuzzer in "$dir"/fuzz_*; do
  [ -x "$fuzzer" ] || continue
  name=$(basename "$fuzzer")
  mkdir -p "$work/corpus-$name"
  echo "fuzz: $name for ${seconds}s"
  seeds="$work/seeds"
  [ -d "$root/fuzz/seeds/$name" ] && seeds="$root/fuzz/seeds/$name"  # parsers of JSON get JSON seeds
  if ! (cd "$work" && "$fuzzer" -max_total_time="$seconds" -rss_limit_mb=2048 -print_final_stats=0 \
        "$work/corpus-$name" "$seeds" > "$work/$name.log" 2>&1); then
    echo "fuzz: $name FAILED"; tail -50 "$work/$name.log"; status=1
    mkdir -p "$root/build/fuzz-findings" && cp "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$root/build/fuzz-findings/" 2>/dev/null || true
  else
    grep -E "^#[0-9]+ *DONE" "$work/$name.log" || tail -1 "$work/$name.log"
  fi
done
exit $status
