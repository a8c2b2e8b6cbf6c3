#!/usr/bin/env bash
# Prints the stage times that scripts/stage.sh collected during this `make test`, then forgets them.
root=$(cd "$(dirname "$0")/.." && pwd)
file="$root/build/stage-times.txt"
[ -f "$file" ] || exit 0
echo "== stage times"
cat "$file"
awk '{ total += $2; cpu += $4 } END { printf "%-14s %5d s %6d s CPU\n", "all", total, cpu }' "$file"
rm -f "$file"
