#!/usr/bin/env bash
# Runs one stage of `make test`/`make run` and prints how long it took, so a slow stage shows in CI
# logs; the times also go to build/stage-times.txt for the summary at the end (issue 22).
# Usage: scripts/stage.sh NAME COMMAND [ARGS...]
set -uo pipefail
name=$1
shift
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$root/build"
echo "== stage $name: start $(date -u +%H:%M:%S)"
start=$(date +%s)
"$@"
status=$?
seconds=$(( $(date +%s) - start ))
echo "== stage $name: ${seconds} s$([ $status -eq 0 ] || echo " (FAILED, exit $status)")"
printf '%-14s %5d s%s\n' "$name" "$seconds" "$([ $status -eq 0 ] || echo '  FAILED')" >> "$root/build/stage-times.txt"
exit $status
