# Sourced by the image scripts: picks podman (preferred) or docker as $engine. podman on machines
# whose cgroups crun refuses (DESIGN §3) runs with runc and no default ulimits: container/containers.conf.
engine=${CONTAINER_ENGINE:-$(command -v podman || command -v docker || true)}
[ -n "$engine" ] || { echo "neither podman nor docker is installed (apt-get install podman)" >&2; exit 1; }
if [ "$(basename "$engine")" = podman ] && [ -z "${CONTAINERS_CONF:-}" ] && command -v runc >/dev/null 2>&1; then
  export CONTAINERS_CONF=$PWD/container/containers.conf
fi
