# Shared by scripts/setup and scripts/test: installing missing packages and
# finding the shared manifest corpus. Source it; do not run it.

log() { printf '==> %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# Runs a command as root: directly when we are root, else through sudo.
as_root() {
  if [ "$(id -u)" -eq 0 ]; then
    "$@"
  elif command -v sudo >/dev/null 2>&1; then
    sudo "$@"
  else
    die "need root to run: $* (install the packages by hand or run as root)"
  fi
}

# install_locked COMMAND...: runs COMMAND (in a subshell) holding one lock per
# machine, so that tests run side by side (ctest -j) install one at a time;
# COMMAND checks again, inside the lock, what is missing. Reentrant.
install_locked() {
  if [ -n "${ARCHFIT_INSTALL_LOCKED:-}" ]; then
    "$@"
    return
  fi
  (
    exec 9>>"${TMPDIR:-/tmp}/archfit-install.lock"
    flock 9
    ARCHFIT_INSTALL_LOCKED=1 "$@"
  )
}

# missing_apt_packages PACKAGE...: prints those not installed.
missing_apt_packages() {
  local pkg
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || echo "$pkg"
  done
}

# Installs the Debian packages that are not installed yet; runs apt-get update
# once, and only when something is missing.
ensure_apt_packages() {
  [ -n "$(missing_apt_packages "$@")" ] || return 0
  install_locked apt_install "$@"
}

apt_install() {
  local missing
  mapfile -t missing < <(missing_apt_packages "$@")
  [ ${#missing[@]} -eq 0 ] && return 0
  log "installing ${missing[*]}"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
}

# What building archfit needs.
BUILD_PACKAGES=(g++ cmake ninja-build pkg-config libyaml-dev rapidjson-dev libcli11-dev libmimalloc-dev
  libcurl4-openssl-dev libssl-dev)

# The shared corpus of real manifests: $ARCHFIT_CORPUS_DIR, else ../shared/corpus
# beside the checkout, else /work/shared/corpus.
# Prints the manifest corpus directory, or nothing when it is not found (the
# corpus tests are then not run). ARCHFIT_CORPUS_DIR, when set, is the only
# place looked at. With ARCHFIT_REQUIRE_CORPUS=1 (CI) a missing corpus is fatal.
find_corpus() {
  local dir candidates=("$PWD/../shared/corpus" /work/shared/corpus)
  [ -z "${ARCHFIT_CORPUS_DIR:-}" ] || candidates=("$ARCHFIT_CORPUS_DIR")
  for dir in "${candidates[@]}"; do
    if [ -f "$dir/SOURCES.md" ]; then
      (cd "$dir" && pwd)
      return 0
    fi
  done
  [ "${ARCHFIT_REQUIRE_CORPUS:-}" != 1 ] ||
    die "the manifest corpus was not found (ARCHFIT_REQUIRE_CORPUS=1); set ARCHFIT_CORPUS_DIR to the shared/corpus directory"
  log "the manifest corpus was not found: the corpus tests are not run (set ARCHFIT_CORPUS_DIR to run them)"
}

