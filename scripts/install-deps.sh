#!/usr/bin/env bash
# Installs the Debian packages and npm modules the build and tests need, only when missing.
# Usage: scripts/install-deps.sh [build|test|bench|server]   (test adds the browser and fuzzing toolchain,
# bench adds Google Benchmark, the Python that drives the load suite, strace and perf; server is the
# C++ only, no Node or npm: the container's build stage, whose web client is built outside it)
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-build}
packages=(
  build-essential cmake ninja-build pkg-config ccache lld
  libboost1.81-dev libboost-json1.81-dev
  libsqlitecpp-dev libsqlite3-dev libspdlog-dev libfmt-dev libcli11-dev prometheus-cpp-dev
  libhowardhinnant-date-dev libutfcpp-dev zlib1g-dev libsnappy-dev libssl-dev
  libcurl4-openssl-dev libpq-dev libfarmhash-dev
)
# Node.js may come from elsewhere with npm bundled; Debian's packages only when there is none.
[ "$mode" = server ] || command -v npm >/dev/null 2>&1 || packages+=(nodejs npm)
if [ "$mode" = bench ]; then
  # strace and perf: where the kernel work goes (bench/suite.py, section syscalls)
  packages+=(libbenchmark-dev python3 strace linux-perf postgresql)  # postgresql: section postgres (issue 34)
fi
if [ "$mode" = test ]; then
  packages+=(libgtest-dev libgmock-dev googletest libbenchmark-dev clang-14 libclang-rt-14-dev chromium python3 python3-numpy postgresql)  # python3: make check-layers; python3-numpy: the bridge's Python client test; postgresql: the store tests' throwaway cluster
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The web client's npm packages, reinstalled when the lock file is newer than node_modules.
if [ "$mode" != server ] && [ -f client/package-lock.json ]; then
  if [ ! -d client/node_modules ] || [ client/package-lock.json -nt client/node_modules/.package-lock.json ]; then
    (cd client && npm ci --no-audit --no-fund)
  fi
fi
