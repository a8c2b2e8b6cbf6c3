#!/usr/bin/env bash
# make bench: builds the server, hschool-load and the benchmarks in Release, then runs the
# microbenchmarks, the socket floor and a bounded load suite (bench/suite.py), writing
# build/bench/results.json and a table of every figure beside its target.
# Figures only — nothing here fails on timing. Extra arguments go to bench/suite.py (--quick, --only …).
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD=${BENCH_BUILD:-build/bench}
JOBS=${JOBS:-$(nproc)}
scripts/install-deps.sh bench

cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DHSCHOOL_BENCH=ON -DHSCHOOL_TESTS=OFF
cmake --build "$BUILD" -j"$JOBS" --target hschool-server hschool-load hschool-micro hschool-floor
python3 bench/suite.py --build "$BUILD" --mods mods --out "$BUILD/results.json" "$@"
