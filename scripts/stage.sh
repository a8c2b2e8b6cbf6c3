#!/usr/bin/env bash
# Runs one stage of `make test`/`make run` and prints how long it took, so a slow stage shows in CI
# logs, and the CPU it used; both also go to build/stage-times.txt for the summary at the end (issue 22).
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
# CPU seconds (user + system) of everything the stage ran, from bash's `times` (its children's line):
# on two cores a stage's CPU, not its wall clock, says what it costs the stages beside it.
cpu_file=$(mktemp)
times > "$cpu_file"  # a builtin redirected, not piped: a subshell would see no children
cpu=$(tail -n 1 "$cpu_file" | awk '{ n = 0; for (i = 1; i <= 2; ++i) { split($i, t, /[ms]/); n += t[1] * 60 + t[2] } printf "%d", n }')
rm -f "$cpu_file"
echo "== stage $name: ${seconds} s, ${cpu} s of CPU$([ $status -eq 0 ] || echo " (FAILED, exit $status)")"
printf '%-14s %5d s %6d s CPU%s\n' "$name" "$seconds" "$cpu" "$([ $status -eq 0 ] || echo '  FAILED')" >> "$root/build/stage-times.txt"
exit $status
