#!/usr/bin/env bash
# make bench: builds the server, hschool-load and the benchmarks in Release, then runs the
# microbenchmarks, the socket floor and a bounded load suite (bench/suite.py), writing
# build/bench/results.json and a table of every figure beside its target.
# Figures only — nothing here fails on timing. Extra arguments go to bench/suite.py (--quick, --only …).
set -euo pipefail
cd "$(dirname "$0")/.."

BUILD=${BENCH_BUILD:-build/bench}
JOBS=${JOBS:-$(nproc)}
# GCC 12 at -O3 reports a false -Wrestrict inside std::string in src/content/json_fields.cpp.
EXTRA_FLAGS="-Wno-error=restrict"

# Google Benchmark is a test-only dependency in scripts/install-deps.sh; fetch just it when missing.
if ! dpkg-query -W -f='${Status}' libbenchmark-dev 2>/dev/null | grep -q 'install ok installed'; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends libbenchmark-dev
fi

cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DHSCHOOL_BENCH=ON -DHSCHOOL_TESTS=OFF -DCMAKE_CXX_FLAGS="$EXTRA_FLAGS"
cmake --build "$BUILD" -j"$JOBS" --target hschool-server hschool-load hschool-micro hschool-floor
python3 bench/suite.py --build "$BUILD" --mods mods --out "$BUILD/results.json" "$@"
