# Building the static release executable for one architecture and proving
# that it is one. Source it after scripts/lib/release/deps.sh and
# scripts/lib/optimize.sh.

# build_executable SRC CACHE ARCH VERSION OUT: OUT is archfit for linux/ARCH,
# linked statically against the libraries build_deps staged, optimised by a
# profile of its own runs, stripped.
build_executable() {
  local src=$1 cache=$2 arch=$3 version=$4 out=$5
  local prefix
  prefix=$(build_deps "$cache" "$arch")
  local triplet
  triplet=$(arch_triplet "$arch")
  ensure_apt_packages "${BUILD_PACKAGES[@]}"
  # A fresh build directory at a fixed place: what is compiled does not
  # depend on what an earlier build left.
  local build=$cache/build-$arch
  rm -rf -- "$build"
  local toolchain=() runner=""
  if [ "$arch" != amd64 ]; then
    toolchain=(-DCMAKE_TOOLCHAIN_FILE="$src/cmake/$triplet.cmake")
    ensure_apt_packages qemu-user-static
    runner=qemu-aarch64-static
  fi
  local log=$cache/build-$arch.log
  : >"$log"
  log "building archfit $version for linux/$arch (static, from a profile of its runs)"
  # Built from a profile (bench/JOURNAL.md): the training's runs are the
  # same on every build, so the executable is too; arm64's run under
  # qemu-user. libyaml is compiled from the copy of its source build_deps
  # configured, as part of archfit's build, so that the profile and the
  # link-time optimisation reach the parser.
  local libyaml=${prefix%/stage/usr/local}/build/libyaml
  # The heap: mimalloc, built from Debian's source (bench/JOURNAL.md,
  # "mimalloc"); ARCHFIT_RELEASE_ALLOCATOR=malloc builds the C library's
  # alone, to measure the two against each other.
  local allocator=${ARCHFIT_RELEASE_ALLOCATOR:-mimalloc} heap=()
  if [ "$allocator" = mimalloc ]; then
    heap=(-DARCHFIT_ALLOCATOR=mimalloc -DARCHFIT_MIMALLOC_PREFIX="$(build_mimalloc "$cache" "$arch")")
  else
    heap=(-DARCHFIT_ALLOCATOR="$allocator")
  fi
  PKG_CONFIG_LIBDIR="$prefix/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="${prefix%/usr/local}" \
    build_from_profile "$src" "$build" "$log" "$runner" "${toolchain[@]}" \
    -DARCHFIT_STATIC=ON -DARCHFIT_VERSION="$version" -DOPENSSL_ROOT_DIR="$prefix" \
    -DARCHFIT_LIBYAML_SOURCE="$libyaml" -DARCHFIT_BUILD_BENCH=OFF -DCMAKE_UNITY_BUILD=OFF \
    "${heap[@]}"
  "$triplet-strip" --strip-all --remove-section=.comment -o "$out" "$build/archfit"
  check_static "$out" "$arch" "$version"
}

# check_static FILE ARCH VERSION: FILE is an ELF executable for ARCH with no
# interpreter and no shared library, and says VERSION when run (under
# qemu-user for another architecture).
check_static() {
  local file=$1 arch=$2 version=$3
  local machine
  case $arch in
    amd64) machine="Advanced Micro Devices X86-64" ;;
    arm64) machine="AArch64" ;;
  esac
  readelf -h "$file" | grep -q "Machine: *$machine" || die "$file is not an $arch executable"
  if readelf -d "$file" | grep -q NEEDED; then
    die "$file needs shared libraries: $(readelf -d "$file" | grep NEEDED | tr -s ' ' | tr '\n' ' ')"
  fi
  readelf -l "$file" | grep -q INTERP && die "$file names a dynamic loader"
  local runner=()
  [ "$arch" = amd64 ] || { ensure_apt_packages qemu-user-static; runner=(qemu-aarch64-static); }
  local said
  said=$("${runner[@]}" "$file" version) || die "$file does not run: ${runner[*]} $file version"
  [ "$said" = "archfit $version" ] || die "$file says \"$said\", not \"archfit $version\""
}
