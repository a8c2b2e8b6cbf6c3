#!/usr/bin/env bash
# Builds the Debian 12 base image from Debian's package archive (no registry needed) and tags it
# debian:12, so the Containerfile's `FROM debian:12` builds on it where nothing can be pulled.
# Usage: scripts/make-debian-base.sh [ROOTFS_DIR]   (needs root, debootstrap and podman or docker)
set -euo pipefail

rootfs=${1:-/var/tmp/hschool-debian12-rootfs}
tag=${BASE_TAG:-debian:12}
engine=${CONTAINER_ENGINE:-$(command -v podman || command -v docker || true)}
[ -n "$engine" ] || { echo "make-debian-base: neither podman nor docker is installed" >&2; exit 1; }
command -v debootstrap >/dev/null || { echo "make-debian-base: debootstrap is not installed (apt-get install debootstrap)" >&2; exit 1; }

if "$engine" image inspect "$tag" >/dev/null 2>&1; then
  echo "make-debian-base: $tag exists already"
  exit 0
fi

# The machine's own Debian mirror (the URIs: line of its sources), else Debian's default.
mirror=$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -n1)
mirror=${mirror:-http://deb.debian.org/debian}

if [ ! -x "$rootfs/bin/sh" ]; then
  rm -rf "$rootfs.partial"
  debootstrap --variant=minbase bookworm "$rootfs.partial" "$mirror"
  # The image finds the same mirror for apt-get inside it.
  echo "deb $mirror bookworm main" > "$rootfs.partial/etc/apt/sources.list"
  rm -rf "$rootfs.partial"/var/cache/apt/archives/*.deb "$rootfs.partial"/var/lib/apt/lists/*
  mv "$rootfs.partial" "$rootfs"
fi
tar -C "$rootfs" -c . | "$engine" import - "$tag"
echo "make-debian-base: imported $rootfs as $tag"
