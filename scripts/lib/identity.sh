# archfit's address and the addresses of its releases, read from project.conf
# (the one place they are written). Source it; do not run it.

_project_conf=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/project.conf

# project_value KEY: the value of KEY= in project.conf.
project_value() {
  local value
  value=$(sed -n "s/^$1=//p" -- "$_project_conf" | head -n 1)
  [ -n "$value" ] || { echo "error: project.conf has no $1=" >&2; return 1; }
  printf '%s\n' "$value"
}

project_url() { project_value url; }
project_maintainer() { project_value maintainer; }

# release_download_url VERSION FILE: where a published release's FILE is.
release_download_url() {
  printf '%s/releases/download/v%s/%s\n' "$(project_url)" "$1" "$2"
}
