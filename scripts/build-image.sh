#!/usr/bin/env bash
# Builds the league image (Containerfile) with podman or docker, whichever is installed.
# Usage: scripts/build-image.sh [TAG]   (IMAGE=... also names it; default hschool:latest)
# Where the base cannot be pulled, the Debian 12 base is made from Debian's archive first
# (scripts/make-debian-base.sh, needs debootstrap).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/container-engine.sh
tag=${1:-${IMAGE:-hschool:latest}}

[ -f client/dist/index.html ] || { echo "build-image: client/dist is missing: run 'make client' first" >&2; exit 1; }
if ! "$engine" image inspect debian:12 >/dev/null 2>&1 && ! "$engine" pull -q debian:12 >/dev/null 2>&1; then
  echo "build-image: debian:12 cannot be pulled; making it from Debian's package archive"
  CONTAINER_ENGINE=$engine scripts/make-debian-base.sh
fi
format=()
# OCI images drop HEALTHCHECK; podman keeps it in the docker format.
[ "$(basename "$engine")" = podman ] && format=(--format docker)
"$engine" build "${format[@]}" -f Containerfile -t "$tag" .
echo "build-image: $tag, $("$engine" image inspect --format '{{.Size}}' "$tag") bytes"
