#!/usr/bin/env bash
# Prints the Debian packages that hold the shared libraries the given programs link (the run
# stage installs exactly these), so the image follows the build's dependencies by itself.
set -euo pipefail
for lib in $(ldd "$@" | awk '/=> \//{print $3}' | sort -u); do
  real=$(readlink -f "$lib")
  # Merged /usr: dpkg may know the file under /lib rather than /usr/lib.
  dpkg -S "$real" 2>/dev/null || dpkg -S "${real#/usr}" 2>/dev/null || dpkg -S "$lib" 2>/dev/null || true
done | cut -d: -f1 | sort -u | grep -v '^libc6$' | tr '\n' ' '
echo
