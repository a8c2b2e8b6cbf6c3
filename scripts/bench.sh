#!/usr/bin/env bash
# make bench: builds the server, hschool-load and the benchmarks in Release, then runs the
# microbenchmarks, the socket floor and a bounded load suite (bench/suite.py), writing
# build/bench/results.json and a table of every figure beside its target; then the hostile flood, the
# side-by-side run against the Node ws peer, and where each server's kernel work goes (strace, perf).
# Figures only — nothing here fails on timing. Extra arguments go to bench/suite.py (--quick, --only …).
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD=${BENCH_BUILD:-build/bench}
JOBS=${JOBS:-$(nproc)}
scripts/install-deps.sh bench

cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DHSCHOOL_BENCH=ON -DHSCHOOL_TESTS=OFF
cmake --build "$BUILD" -j"$JOBS" --target hschool-server hschool-load hschool-micro hschool-micro-hns hschool-floor hschool-rearm hschool-hns hschool-bridge-bench

# The Node `ws` arena peer for the side-by-side run. ../shared is read-only (and absent outside the
# workspace): copy it under build/peers and install its one dependency there, again only when the
# lock file changed. Without it the suite skips the peer sections and says so.
PEERS_SRC=${PEERS_SRC:-../shared/peers}
PEERS_DIR=${PEERS_DIR:-build/peers}
peer_args=()
if [ -f "$PEERS_SRC/ws-arena/server.mjs" ] && command -v node >/dev/null 2>&1; then
  if ! cmp -s "$PEERS_SRC/ws-arena/package-lock.json" "$PEERS_DIR/ws-arena/package-lock.json" ||
     ! cmp -s "$PEERS_SRC/ws-arena/server.mjs" "$PEERS_DIR/ws-arena/server.mjs" ||
     ! cmp -s "$PEERS_SRC/common/lib.mjs" "$PEERS_DIR/common/lib.mjs" ||
     [ ! -d "$PEERS_DIR/ws-arena/node_modules/ws" ]; then
    rm -rf "$PEERS_DIR/ws-arena" "$PEERS_DIR/common"
    mkdir -p "$PEERS_DIR"
    cp -R "$PEERS_SRC/ws-arena" "$PEERS_SRC/common" "$PEERS_DIR/"
    chmod -R u+w "$PEERS_DIR"
    (cd "$PEERS_DIR/ws-arena" && npm ci --no-audit --no-fund)
  fi
  peer_args=(--peer-dir "$PEERS_DIR/ws-arena")
else
  echo "bench: no peer at $PEERS_SRC/ws-arena (or no node): the side-by-side comparison is skipped" >&2
fi

python3 bench/suite.py --build "$BUILD" --mods mods --out "$BUILD/results.json" "${peer_args[@]}" "$@"
