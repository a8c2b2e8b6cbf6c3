#!/usr/bin/env bash
# Prints the stage times that scripts/stage.sh collected during this `make test`, then forgets them.
root=$(cd "$(dirname "$0")/.." && pwd)
file="$root/build/stage-times.txt"
[ -f "$file" ] || exit 0
echo "== stage times"
cat "$file"
awk '{ total += $2 } END { printf "%-14s %5d s\n", "all", total }' "$file"
rm -f "$file"
