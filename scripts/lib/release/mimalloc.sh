# mimalloc, the release executable's heap, as a static object for one
# architecture, built from Debian's pinned source package
# (scripts/lib/release/sources.sh, ALLOCATOR_SOURCES). Linked in first, its
# malloc, free and operator new take the C library's place. Source it after
# scripts/lib/release/deps.sh.

# build_mimalloc CACHE ARCH: CACHE/mimalloc-ARCH-<key>/stage/usr/local, with
# lib/mimalloc.o and include/mimalloc*.h; prints that prefix. Reused while
# the pin and this file are unchanged.
build_mimalloc() {
  local cache=$1 arch=$2
  local key
  key=$(
    printf '%s\n' "${ALLOCATOR_SOURCES[@]}"
    sha256sum -- "${BASH_SOURCE[0]}" | cut -c1-16
  )
  key=$(printf '%s' "$key" | sha256sum | cut -c1-16)
  local root=$cache/mimalloc-$arch-$key
  local prefix=$root/stage/usr/local
  if [ -f "$root/.built" ]; then
    printf '%s\n' "$prefix"
    return 0
  fi
  mapfile -t packages < <(deps_packages "$arch")
  ensure_apt_packages "${packages[@]}" cmake
  fetch_sources "$cache"
  local triplet host
  triplet=$(arch_triplet "$arch")
  host=$(gcc -dumpmachine)
  local cc=gcc system=()
  if [ "$triplet" != "$host" ]; then
    cc=$triplet-gcc
    system=(-DCMAKE_SYSTEM_NAME=Linux -DCMAKE_SYSTEM_PROCESSOR="${triplet%%-*}")
  fi
  rm -rf -- "$root"
  mkdir -p -- "$root/stage"
  cp -a -- "$(source_dir "$cache" mimalloc)" "$root/src"
  local log=$root/build.log
  log "building mimalloc for linux/$arch"
  # Release, not secure mode (guard pages cost time and memory archfit's
  # inputs do not need), no tests or shared library; the object file that
  # overrides malloc, installed where the executable's build finds it.
  (
    cd -- "$root/src" &&
      CC=$cc CFLAGS="$RELEASE_CFLAGS" SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-0}" \
        cmake -S . -B build "${system[@]}" -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_INSTALL_PREFIX=/usr/local -DMI_INSTALL_TOPLEVEL=ON -DMI_BUILD_SHARED=OFF \
        -DMI_BUILD_STATIC=ON -DMI_BUILD_OBJECT=ON -DMI_BUILD_TESTS=OFF -DMI_OVERRIDE=ON \
        -DMI_SECURE=OFF -DMI_USE_CXX=OFF &&
      cmake --build build -j"$(nproc)" &&
      DESTDIR=$root/stage cmake --install build
  ) >"$log" 2>&1 || { tail -n 40 "$log" >&2; die "building mimalloc for $arch failed (log: $log)"; }
  [ -f "$prefix/lib/mimalloc.o" ] || die "mimalloc for $arch installed no lib/mimalloc.o (log: $log)"
  # Its operator new and delete made weak: archfit's own (src/cli/allocator.cpp)
  # take their place, which throw std::bad_alloc where mimalloc's, built as C,
  # abort.
  local tools=""
  [ "$triplet" = "$host" ] || tools=$triplet-
  local weak=()
  mapfile -t weak < <("${tools}nm" --defined-only "$prefix/lib/mimalloc.o" |
    awk '$2 == "T" && $3 ~ /^_Z(nw|na|dl|da)/ { print "--weaken-symbol=" $3 }')
  ((${#weak[@]})) || die "mimalloc for $arch defines no operator new to make weak (log: $log)"
  "${tools}objcopy" "${weak[@]}" "$prefix/lib/mimalloc.o"
  touch "$root/.built"
  printf '%s\n' "$prefix"
}
