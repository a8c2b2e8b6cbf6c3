# Sourced by the image scripts: picks a working podman (preferred) or docker as $engine, and when
# neither works (none installed, or a docker without its daemon) installs podman with runc and
# debootstrap from Debian's archive (issue 34). podman on machines whose cgroups crun refuses
# (DESIGN §3) runs with runc and no default ulimits: container/containers.conf.
use_runc_conf() {
  if [ "$(basename "$1")" = podman ] && [ -z "${CONTAINERS_CONF:-}" ] && command -v runc >/dev/null 2>&1; then
    export CONTAINERS_CONF=$PWD/container/containers.conf
  fi
}
engine_works() { use_runc_conf "$1"; "$1" info >/dev/null 2>&1; }

engine=${CONTAINER_ENGINE:-}
if [ -z "$engine" ]; then
  for candidate in podman docker; do
    path=$(command -v "$candidate" || true)
    if [ -n "$path" ] && engine_works "$path"; then engine=$path; break; fi
  done
fi
if [ -z "$engine" ]; then
  echo "container-engine: no working podman or docker; installing podman, runc and debootstrap" >&2
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
    podman runc debootstrap uidmap slirp4netns fuse-overlayfs >&2 || { echo "container-engine: installing podman failed" >&2; exit 1; }
  engine=$(command -v podman)
  engine_works "$engine" || { echo "container-engine: podman was installed but '$engine info' fails" >&2; exit 1; }
fi
use_runc_conf "$engine"
