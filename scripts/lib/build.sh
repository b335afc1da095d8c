# Building the archfit executable alone (Release), shared by scripts/setup,
# the GitHub Action and the pre-commit hooks that build. Source it after
# scripts/lib/common.sh.

# The files the executable is built from, relative to the source tree.
ARCHFIT_BUILD_INPUTS=(CMakeLists.txt cmake include src)

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
  log "building archfit into $build"
  mkdir -p "$build"
  local out=$build/archfit-build.log
  cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DARCHFIT_BUILD_TESTS=OFF \
    -DARCHFIT_BUILD_BENCH=OFF >"$out" 2>&1 || { cat "$out" >&2; die "cmake failed (log: $out)"; }
  ninja -C "$build" archfit >>"$out" 2>&1 || { tail -n 40 "$out" >&2; die "building archfit failed (log: $out)"; }
}
