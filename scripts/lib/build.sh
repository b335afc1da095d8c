# Building the archfit executable alone (Release), shared by scripts/setup,
# the GitHub Action and the pre-commit hooks that build. Source it after
# scripts/lib/common.sh.

# The files the executable is built from, relative to the source tree.
ARCHFIT_BUILD_INPUTS=(CMakeLists.txt cmake include src project.conf scripts/version)

# source_key SRC: a sha256 of every file the executable is built from, so that
# a cached build is reused exactly while they are unchanged.
source_key() {
  local src=$1
  (cd "$src" && find "${ARCHFIT_BUILD_INPUTS[@]}" -type f -print0 | LC_ALL=C sort -z |
    xargs -0 sha256sum | sha256sum | cut -c1-64)
}

# build_archfit SRC BUILD_DIR: installs the missing Debian packages and builds
# BUILD_DIR/archfit from SRC.
build_archfit() {
  local src=$1 build=$2
  ensure_apt_packages "${BUILD_PACKAGES[@]}"
  log "building archfit into $build (about three minutes on two cores, as on a hosted runner; the log is $build/archfit-build.log)"
  mkdir -p "$build"
  local out=$build/archfit-build.log
  log "configuring with cmake"
  cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DARCHFIT_BUILD_TESTS=OFF \
    -DARCHFIT_BUILD_BENCH=OFF >"$out" 2>&1 || { cat "$out" >&2; die "cmake failed (log: $out)"; }
  log "compiling with ninja"
  # Every ninja step goes to the log; a line on stderr every 10 steps says
  # how far it is, so that a CI log does not stand still for a minute.
  local status
  { NINJA_STATUS="[%f/%t] " ninja -C "$build" archfit 2>&1; echo $? >"$out.status"; } |
    tee -a "$out" |
    awk '/^\[[0-9]+\/[0-9]+\] / { n++; if (n % 10 == 0) { split(substr($1, 2), a, "/"); printf "==> archfit build: %d of %d steps\n", a[1], a[2] > "/dev/stderr"; fflush("/dev/stderr") } }'
  status=$(cat -- "$out.status")
  rm -f -- "$out.status"
  [[ $status == 0 ]] || { tail -n 40 "$out" >&2; die "building archfit failed (log: $out)"; }
  log "built $build/archfit"
}
