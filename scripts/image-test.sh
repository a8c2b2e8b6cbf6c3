#!/usr/bin/env bash
# `make image-test`: starts the league image as a runner would and checks what the runner checks.
#   1. drop-in mode: /healthz, /client/player and /client/global answer 2xx (no redirect followed);
#      six `hschool-hns seat` containers play the episode; the game exits 0 by itself and leaves
#      results, replay, events and metrics; the health check passes while it runs.
#   2. replay mode on that replay: /healthz 200, /client/replay 2xx/3xx, a non-empty first /replay
#      message within 10 s; SIGTERM stops it with status 0.
# Outside `make test` (it needs podman or docker and the built image). Prints the image size.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/container-engine.sh
image=${IMAGE:-hschool:latest}
port=${IMAGE_TEST_PORT:-18080}
replay_port=$((port + 1))
work=$(mktemp -d /tmp/hschool-image-test.XXXXXX)
chmod 777 "$work"  # the image runs as its own user, which writes the runner's files here
names=()
cleanup() {
  for n in "${names[@]}"; do "$engine" rm -f "$n" >/dev/null 2>&1 || true; done
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "image-test: FAIL: $*" >&2; for n in "${names[@]}"; do "$engine" logs "$n" 2>&1 | tail -12 | sed "s/^/  $n: /" >&2; done; exit 1; }
# curl without --location: a redirect is not followed, so it must be the page itself.
status_of() { curl -s -o /dev/null -w '%{http_code}' --max-time 5 "$1" || true; }
wait_healthy() {
  for _ in $(seq 1 100); do [ "$(status_of "http://127.0.0.1:$1/healthz")" = 200 ] && return 0; sleep 0.2; done
  return 1
}

cat > "$work/config.json" <<'JSON'
{"roomPool":"warren","seed":42,"prepTurns":2,"huntTurns":3,"startWaitTicks":0,"gameOverTicks":24,
 "tokens":["token-0","token-1","token-2","token-3","token-4","token-5"],
 "players":[{"name":"alpha"},{"name":"bravo"},{"name":"charlie"},{"name":"delta"},{"name":"echo"},{"name":"foxtrot"}]}
JSON
uri() { echo "file:///league/$1"; }
game=hschool-it-game-$$
names+=("$game")
started=$(date +%s.%N)
"$engine" run -d --name "$game" --network host -v "$work:/league" \
  -e COGAME_HOST=127.0.0.1 -e COGAME_PORT="$port" -e COGAME_CONFIG_URI="$(uri config.json)" \
  -e COGAME_RESULTS_URI="$(uri results.json)" -e COGAME_SAVE_REPLAY_URI="$(uri replay.cowldhns)" \
  -e COGAME_EVENTS_URI="$(uri events.jsonl)" -e COGAME_METRICS_URI="$(uri metrics.json)" \
  -e HSCHOOL_DROPIN_LINGER_MS=3000 "$image" >/dev/null
wait_healthy "$port" || fail "drop-in /healthz never answered 200"
for page in "/client/player?slot=0&token=token-0" "/client/global"; do
  code=$(status_of "http://127.0.0.1:$port$page")
  [[ $code == 2* ]] || fail "GET $page answered $code"
done
[ "$(status_of "http://127.0.0.1:$port/client/player?slot=0&token=wrong")" = 403 ] || fail "a wrong token was not refused"
if [ "$(basename "$engine")" = podman ]; then
  "$engine" healthcheck run "$game" >/dev/null || fail "the image's health check failed"
fi
# The six seats: six `hschool-hns seat` processes in one container of the image (one container
# start, not six: a slow engine must not let the lobby time out); it exits with how many failed.
seats=hschool-it-seats-$$
names+=("$seats")
"$engine" run -d --name "$seats" --network host --entrypoint bash "$image" -c '
  pids=(); for s in 0 1 2 3 4 5; do
    hschool-hns seat --label "seat$s" --url "ws://127.0.0.1:'"$port"'/player?slot=$s&token=token-$s" & pids+=($!)
  done
  failed=0; for p in "${pids[@]}"; do wait "$p" || failed=$((failed + 1)); done; exit "$failed"' >/dev/null
code=$("$engine" wait "$seats")
[ "$code" = 0 ] || fail "$code seat processes failed"
code=$("$engine" wait "$game")
ended=$(date +%s.%N)
[ "$code" = 0 ] || fail "the game exited $code"
for f in results.json replay.cowldhns events.jsonl metrics.json; do [ -s "$work/$f" ] || fail "no $f"; done
tail -n 1 "$work/events.jsonl" | grep -q '"type":"summary"' || fail "events.jsonl has no summary row"
grep -q '"finalTick"' "$work/results.json" || fail "results.json has no finalTick"
echo "image-test: drop-in episode with six seat processes: exit 0, four files, $(echo "$ended - $started" | bc) s start to exit (3 s linger)"

replay=hschool-it-replay-$$
names+=("$replay")
"$engine" run -d --name "$replay" --network host -v "$work:/league:ro" \
  -e COGAME_HOST=127.0.0.1 -e COGAME_PORT="$replay_port" -e COGAME_LOAD_REPLAY_URI="$(uri replay.cowldhns)" "$image" >/dev/null
wait_healthy "$replay_port" || fail "replay-mode /healthz never answered 200"
code=$(status_of "http://127.0.0.1:$replay_port/client/replay")
[[ $code == 2* || $code == 3* ]] || fail "GET /client/replay answered $code"
# The first /replay message: the upgrade's 101, then at least one WebSocket frame within 10 s.
bytes=$(curl -s -N --http1.1 --max-time 10 -H "Connection: Upgrade" -H "Upgrade: websocket" -H "Sec-WebSocket-Version: 13" \
  -H "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==" "http://127.0.0.1:$replay_port/replay" --output - 2>/dev/null | head -c 4096 | wc -c || true)
[ "$bytes" -gt 2 ] || fail "no first /replay message within 10 s ($bytes bytes)"
"$engine" stop -t 10 "$replay" >/dev/null
code=$("$engine" inspect --format '{{.State.ExitCode}}' "$replay")
[ "$code" = 0 ] || fail "replay mode exited $code on SIGTERM"
echo "image-test: replay mode: /healthz, /client/replay, first /replay message ($bytes bytes), SIGTERM exit 0"
echo "image-test: passed; image $image is $("$engine" image inspect --format '{{.Size}}' "$image") bytes"
